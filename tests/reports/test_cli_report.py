"""`ofc-desk report`: every output from one command, and one clear line for every error."""

from __future__ import annotations

import csv
import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from ofc_desk.cli.main import main
from ofc_desk.reports.record import SessionRecord
from tests.helpers.pdf_text import page_texts, squeezed
from tests.helpers.report_sessions import SUPERVISOR, SUPERVISOR_PIN

Capture = pytest.CaptureFixture[str]


def run_report(capsys: Capture, *args: str) -> tuple[int, str, str]:
    status = main(["report", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_writes_every_output(
    example_db: str, tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = tmp_path / "room.db"  # a copy: the count's PIN check is recorded
    shutil.copyfile(example_db.removeprefix("sqlite:///"), room)
    monkeypatch.setenv("OFC_DESK_PINS", json.dumps({SUPERVISOR: SUPERVISOR_PIN}))
    files = {
        name: tmp_path / name
        for name in ("session.pdf", "close.pdf", "hands.csv", "chips.csv", "session.json")
    }
    status, out, err = run_report(
        capsys,
        "--db",
        f"sqlite:///{room}",
        "--table",
        "T778",
        "--room",
        "Riverside",
        "--out",
        str(files["session.pdf"]),
        "--close-out",
        str(files["close.pdf"]),
        "--counted",
        "257",
        "--counted-by",
        SUPERVISOR,
        "--csv-hands",
        str(files["hands.csv"]),
        "--csv-transactions",
        str(files["chips.csv"]),
        "--json",
        str(files["session.json"]),
    )
    assert (status, out, err) == (0, "", "")
    session_text = " ".join(page_texts(files["session.pdf"]))
    assert "Riverside" in session_text and "T778" in session_text
    close_text = squeezed(page_texts(files["close.pdf"])[0])
    # 42 + 62 + 48 opened, Cy rebought 50 and 55: 257 expected, and 257 counted.
    assert "= Expected chips on the table 257" in close_text and "BALANCED" in close_text
    with open(files["hands.csv"], encoding="utf-8") as f:
        assert len(list(csv.DictReader(f))) == 36  # 12 hands × 3 players
    with open(files["chips.csv"], encoding="utf-8") as f:
        assert {row["kind"] for row in csv.DictReader(f)} >= {"opening buy-in", "rebuy", "transfer"}
    assert json.loads(files["session.json"].read_text(encoding="utf-8"))["table"] == "T778"


def test_fingerprint_matches_the_printed_report(
    example_db: str, example_record: SessionRecord, capsys: Capture
) -> None:
    status, out, _ = run_report(capsys, "--db", example_db, "--fingerprint")
    record = example_record
    assert status == 0
    assert out.strip() == (
        f"session {record.session_id} (T778): fingerprint {record.final_hash} "
        f"after event {record.event_count}; the database verifies"
    )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((), "nothing to do: give --out"),
        (("--session", "99", "--out", "{tmp}/x.pdf"), "no session with that number in this database"),
        (("--table", "Nowhere", "--out", "{tmp}/x.pdf"), "no session of that table in this database"),
        (("--counted", "10", "--out", "{tmp}/x.pdf"), "--counted goes with --close-out"),
        (("--close-out", "{tmp}/c.pdf", "--counted", "-3"), "--counted must be a whole number"),
        (("--close-out", "{tmp}/c.pdf", "--counted", "10"), "--counted and --counted-by go together"),
        (("--out", "{tmp}/no/such/folder/x.pdf"), "cannot write the --out file: no such folder"),
        (("--out", "/dev/full"), "cannot write the --out file: No space left on device"),
        (("--csv-hands", "/dev/full"), "cannot write the --csv-hands file: No space left on device"),
        (("--session", "99999999999999999999", "--out", "{tmp}/x.pdf"), "no session with that number"),
        (("--close-out", "{tmp}/c.pdf", "--counted", "abcd"), "argument --counted: invalid int value: '…'"),
    ],
)
def test_errors_exit_2_with_one_line(
    example_db: str, tmp_path: Path, capsys: Capture, arguments: tuple[str, ...], message: str
) -> None:
    filled = [a.replace("{tmp}", str(tmp_path)) for a in arguments]
    try:
        status, out, err = run_report(capsys, "--db", example_db, *filled)
    except SystemExit as exit_info:  # argparse's refusal of the command line itself
        status, (out, err) = int(str(exit_info.code)), capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("ofc-desk report: ")
    assert message.replace("{tmp}", str(tmp_path)) in err


def test_missing_database_and_an_export_with_no_pin(
    eventful_db: str, tmp_path: Path, capsys: Capture
) -> None:
    status, _, err = run_report(
        capsys, "--db", f"sqlite:///{tmp_path}/none.db", "--out", str(tmp_path / "x.pdf")
    )
    assert status == 2 and "no database at" in err and err.count("\n") == 1
    status, _, err = run_report(capsys, "--db", eventful_db, "--json", str(tmp_path / "s.json"))
    assert (status, err) == (0, "")
    script = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert script["users"] == [{"name": "Sam", "role": "supervisor"}]
    assert '"pin"' not in (tmp_path / "s.json").read_text(encoding="utf-8")


def test_pins_never_come_from_the_command_line(eventful_db: str, tmp_path: Path, capsys: Capture) -> None:
    with pytest.raises(SystemExit):
        main(
            [
                "report",
                "--db",
                eventful_db,
                "--json",
                str(tmp_path / "s.json"),
                "--supervisor-pin",
                "Sam=9876",
            ]
        )
    assert "98769876" not in capsys.readouterr().err


def test_a_file_that_is_not_ours_is_left_untouched(tmp_path: Path, capsys: Capture) -> None:
    foreign = tmp_path / "foreign.db"
    with closing(sqlite3.connect(foreign)) as connection:
        connection.execute("CREATE TABLE guests (name TEXT)")
        connection.commit()
    before = foreign.read_bytes()
    status, _, err = run_report(capsys, "--db", f"sqlite:///{foreign}", "--out", str(tmp_path / "x.pdf"))
    assert (status, err) == (2, f"ofc-desk report: {foreign} is not an OFC Desk database\n")
    assert foreign.read_bytes() == before and not Path(f"{foreign}-wal").exists()


def test_an_altered_row_gives_one_line_and_the_fingerprint_names_it(
    example_db: str, tmp_path: Path, capsys: Capture
) -> None:
    altered = tmp_path / "altered.db"
    shutil.copyfile(example_db.removeprefix("sqlite:///"), altered)
    with closing(sqlite3.connect(altered)) as connection:
        connection.execute("DROP TRIGGER ofc_refuse_update_events")  # as the file's owner can
        connection.execute("UPDATE events SET payload = 'not json' WHERE seq = 31")
        connection.commit()
    url = f"sqlite:///{altered}"
    status, out, err = run_report(capsys, "--db", url, "--out", str(tmp_path / "x.pdf"))
    said = "verify failed: session 1 does not verify, so no report: event 31 was altered\n"
    assert (status, out, err) == (1, said, "") and not (tmp_path / "x.pdf").exists()
    status, out, err = run_report(capsys, "--db", url, "--fingerprint")
    assert (status, out, err) == (1, "verify failed: event 31 was altered\n", "")


@pytest.mark.parametrize(
    ("tamper", "fault"),
    [
        (
            "UPDATE chip_ledger SET amount = amount + 1000 WHERE id = (SELECT MAX(id) FROM chip_ledger)",
            "differs from the events",
        ),
        (
            "UPDATE transfers SET paid = paid + 100 WHERE id = (SELECT MIN(id) FROM transfers)",
            "stored transfers differ from the rules",
        ),
    ],
)
def test_a_report_over_a_changed_derived_row_is_not_printed(
    example_db: str, tmp_path: Path, capsys: Capture, tamper: str, fault: str
) -> None:
    altered = tmp_path / "altered.db"
    shutil.copyfile(example_db.removeprefix("sqlite:///"), altered)
    table = tamper.split()[1]
    with closing(sqlite3.connect(altered)) as connection:
        connection.execute(f"DROP TRIGGER ofc_refuse_update_{table}")  # as the file's owner can
        connection.execute(tamper)
        connection.commit()
    outputs = ("--out", str(tmp_path / "x.pdf"), "--csv-hands", str(tmp_path / "x.csv"))
    status, out, err = run_report(capsys, "--db", f"sqlite:///{altered}", *outputs)
    assert (status, err) == (1, "") and out.startswith("verify failed: session 1 does not verify")
    assert fault in out and out.count("\n") == 1
    assert list(tmp_path.iterdir()) == [altered]  # no report, not even a part of one


def test_help_documents_the_outputs(capsys: Capture) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["report", "--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    for flag in (
        "--out",
        "--close-out",
        "--counted",
        "--csv-hands",
        "--csv-transactions",
        "--json",
        "--fingerprint",
        "--table",
        "--session",
        "--db",
    ):
        assert flag in text
