"""Every input and fault the audit of issue 12 found gets a clean refusal, or works: misspelt
keys, deep nesting, consoles that cannot write UTF-8, standard input that is not UTF-8, a
read-only copy of a database, names that differ only by spaces or hold a NUL, and two first runs
creating the same accounts."""

from __future__ import annotations

import io
import json
import os
import pwd
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from ofc_desk.cli.main import main
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.replays import replay_accounts
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import list_users
from tests.helpers.replay_helpers import run_cli, write_script

Capture = pytest.CaptureFixture[str]


def two_seats(**extra: Any) -> dict[str, Any]:
    seats = [{"name": "Ann", "buy_in": 100}, {"name": "Bob", "buy_in": 100}]
    return {"table": "Table 7", "seats": seats, "hands": [], **extra}


@pytest.mark.parametrize(
    ("extra", "refusal"),
    [
        ({"setlement": "no-cap"}, "script.setlement: unknown key (did you mean settlement?)"),
        ({"untit": 5}, "script.untit: unknown key (did you mean unit?)"),
        ({"progresive": True}, "script.progresive: unknown key (did you mean progressive?)"),
    ],
)
def test_a_misspelt_rules_key_is_refused_not_played_as_the_default(
    tmp_path: Path, migrated_database_url: str, capsys: Capture, extra: dict[str, Any], refusal: str
) -> None:
    status, out, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, two_seats(**extra))), "--db", migrated_database_url
    )
    assert (status, out, err) == (2, "", refusal + "\n")


def test_misspelt_keys_inside_a_script_are_refused_where_they_are(
    tmp_path: Path, migrated_database_url: str, capsys: Capture
) -> None:
    change = {"op": "change_rules", "setlement": "no-cap", "supervisor": "Sue", "pin": "43214321"}
    script = two_seats(hands=[{"between": [change]}])
    status, _, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, script)), "--db", migrated_database_url
    )
    assert (status, err) == (2, "hand 1, between 1.setlement: unknown key (did you mean settlement?)\n")
    script = two_seats()
    script["seats"][0]["buyin"] = 5
    status, _, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, script)), "--db", migrated_database_url
    )
    assert (status, err) == (2, "script.seats[0].buyin: unknown key (did you mean buy_in?)\n")


@pytest.mark.parametrize("levels", [65, 989, 995])
def test_deep_nesting_is_refused_before_python_gives_up(tmp_path: Path, capsys: Capture, levels: int) -> None:
    deep = "[" * levels + "]" * levels
    deal = tmp_path / "deal.json"
    deal.write_text('{"dealer": "Ann", "players": [], "rules": ' + deep + "}")
    status, out, err = run_cli(capsys, "score", str(deal))
    assert (status, out, err) == (2, "", "ofc-desk score: malformed JSON: nested more than 64 levels deep\n")
    script = tmp_path / "script.json"
    script.write_text(json.dumps(two_seats())[:-1] + ', "house_options": {"a": ' + deep + "}}")
    status, out, err = run_cli(capsys, "replay", str(script), "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert (status, out, err) == (2, "", "script: JSON nested more than 64 levels deep\n")


def test_brackets_inside_text_are_not_nesting(
    tmp_path: Path, migrated_database_url: str, capsys: Capture
) -> None:
    script = two_seats(table="[" * 30 + "{" * 10)
    status, out, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, script)), "--db", migrated_database_url
    )
    assert (status, err) == (0, "") and json.loads(out)["table"] == "[" * 30 + "{" * 10


def on_a_cp1252_console(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, bytes, bytes]:
    """`ofc-desk ARGS` in this process, its standard output and error text streams as
    `PYTHONIOENCODING=cp1252` makes them (cp1252, strict: an emoji cannot be written): its status
    and the bytes each stream was given. The console's encoding is the subject, not the process."""
    out, err = io.BytesIO(), io.BytesIO()
    with monkeypatch.context() as console:
        console.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="cp1252", errors="strict"))
        console.setattr(sys, "stderr", io.TextIOWrapper(err, encoding="cp1252", errors="strict"))
        status = main(list(args))
        sys.stdout.flush()
        sys.stderr.flush()
        return status, out.getvalue(), err.getvalue()


def test_a_console_that_cannot_write_an_emoji_gets_utf8(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Windows' cp1252 console: replay must not fail after storing, nor verify call it tampering."""
    url = f"sqlite:///{tmp_path / 'desk.db'}"
    seats = [{"name": "Ann 😀", "buy_in": 100}, {"name": "Bob", "buy_in": 100}]
    script = write_script(tmp_path, two_seats(table="Table 🂡", seats=seats))
    status, out, err = on_a_cp1252_console(monkeypatch, "replay", str(script), "--db", url)
    assert (status, err) == (0, b"")
    assert json.loads(out.decode("utf-8"))["stacks"] == {"Ann 😀": 100, "Bob": 100}
    status, out, err = on_a_cp1252_console(monkeypatch, "verify", "--db", url, "--fingerprints")
    assert (status, err) == (0, b"")
    assert "session 1 (Table 🂡): " in out.decode("utf-8")


def test_standard_input_must_be_utf8(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: Capture
) -> None:
    latin1 = json.dumps(two_seats(table="Café"), ensure_ascii=False).encode("latin-1")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(latin1), encoding="latin-1"))
    status, out, err = run_cli(capsys, "replay", "-", "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert (status, out) == (2, "") and err.startswith("script: not UTF-8 text (byte ")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(latin1), encoding="latin-1"))
    status, out, err = run_cli(capsys, "score", "-")
    assert (status, out, err) == (2, "", "ofc-desk score: standard input is not UTF-8 text\n")


@pytest.fixture
def read_only_copy(tmp_path: Path, capsys: Capture) -> Iterator[Path]:
    """A verified database copied into a folder, both made read-only (for a user other than root,
    who can write anything: the command runs as `nobody` then)."""
    url = f"sqlite:///{tmp_path / 'desk.db'}"
    assert run_cli(capsys, "replay", str(write_script(tmp_path, two_seats())), "--db", url)[0] == 0
    with closing(sqlite3.connect(tmp_path / "desk.db")) as connection:  # as a closed desk leaves it
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    folder = Path(tempfile.mkdtemp(prefix="ofc-read-only-"))
    shutil.copyfile(tmp_path / "desk.db", folder / "copy.db")
    (folder / "copy.db").chmod(0o444)
    folder.chmod(0o555)
    yield folder / "copy.db"
    folder.chmod(0o755)
    shutil.rmtree(folder)


def test_a_read_only_copy_is_verified_and_said_to_be_read_only(read_only_copy: Path) -> None:
    command = [sys.executable, "-m", "ofc_desk", "verify", "--db", f"sqlite:///{read_only_copy}"]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("root writes any file: this needs setpriv (util-linux) to run as nobody")
        nobody = pwd.getpwnam("nobody")
        as_nobody = ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups"]
        command = as_nobody + command
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("verified: 1 session, 1 event")
    assert result.stderr == "note: the database file is read-only here; it was verified as it stands\n"
    assert sorted(path.name for path in read_only_copy.parent.iterdir()) == ["copy.db"]


def test_names_are_trimmed_and_held_to_one_limit_on_every_database(
    tmp_path: Path, migrated_database_url: str, capsys: Capture
) -> None:
    cases = [
        ([{"name": "Ann ", "buy_in": 100}, {"name": "Ann", "buy_in": 100}], "Ann is seated twice"),
        ([{"name": "Ann\u0000", "buy_in": 100}, {"name": "Bob", "buy_in": 100}], "control character"),
        ([{"name": "A" * 41, "buy_in": 100}, {"name": "Bob", "buy_in": 100}], "at most 40 characters"),
    ]
    for seats, refusal in cases:
        script = write_script(tmp_path, two_seats(seats=seats))
        status, out, err = run_cli(capsys, "replay", str(script), "--db", migrated_database_url)
        assert (status, out) == (2, "") and refusal in err, err
    joined = two_seats(hands=[{"between": [{"op": "join", "player": " Cy  ", "buy_in": 50}]}])
    status, out, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, joined)), "--db", migrated_database_url
    )
    assert (status, err) == (0, "") and json.loads(out)["stacks"] == {"Ann": 100, "Bob": 100, "Cy": 50}


def test_two_first_runs_making_the_same_accounts_both_go_on(
    migrated_database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other run makes the accounts between this run's look at them and its own inserts."""
    database = Database(migrated_database_url)
    users = [{"name": "Sue", "role": "supervisor", "pin": "43214321"}]
    first_look = [True]

    def stale_first_look(db: Database) -> list[Any]:
        if first_look.pop() if first_look else False:
            run_replay(db, two_seats(table="Table 8", users=users), resume=False)  # the other run, now
            return []
        return list_users(db)

    monkeypatch.setattr(replay_accounts, "list_users", stale_first_look)
    output = run_replay(database, two_seats(users=users), resume=False)
    assert output["stacks"] == {"Ann": 100, "Bob": 100}
    assert [account.name for account in list_users(database)] == ["Sue", "replay"]
    verify_database(database)
    database.dispose()
