"""`ofc-desk report --shift`: a room of 8 tables replayed through the session service into one
PostgreSQL, the report read back from the PDF (pdfium) and the CSV, every figure checked
against sums computed here from each session's chip ledger and stored hands."""

from __future__ import annotations

import csv
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, select

from ofc_desk.cli.main import main
from ofc_desk.reports.formatting import chips
from ofc_desk.reports.shift import ShiftWindow, parse_shift_time, shift_report, verified_shift_report
from ofc_desk.service import TableService, chip_ledger, hand_history
from ofc_desk.service.audit import verify, verify_workers
from ofc_desk.service.audit.verify_session import check_session
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.store.pool_ledger import ledger_of
from ofc_desk.service.table.commands import Rebuy, VoidHand
from ofc_desk.storage.audit import utc_now
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, JackpotMove, LedgerRow, TableSession
from ofc_desk.storage.users import sign_in
from tests.helpers.ofc_test_databases import fresh_schema
from tests.helpers.pdf_text import page_texts
from tests.helpers.pooled_schemas import migrated_anew
from tests.helpers.room_scripts import DEALER, DEALER_PIN, RAKES, SUPERVISOR, SUPERVISOR_PIN, table_script

# The room of eight tables is played once, for every test here, on one worker.
pytestmark = [pytest.mark.postgres, pytest.mark.xdist_group("shift-report room")]

# (table, hands, void + correction + cash-out, closed); the first three close before the boundary.
# No check counts on a number of hands: each table plays the fewest its extras allow (4), or
# fewer, and the counts differ from table to table (30 hands; the room was 44 until issue 39).
EARLY = [("T1", 4, True, True), ("T2", 2, False, True), ("T3", 5, True, True)]
LATE = [("T4", 6, True, False), ("T5", 1, False, False), ("T6", 4, True, True), ("T7", 3, False, False)]
LATE += [("T10", 5, True, False)]  # sorts after T7: names are read as numbers


@dataclass(frozen=True)
class Room:
    url: str
    boundary: str
    """A moment after the early tables closed and before the late ones opened (stored form)."""


@pytest.fixture(scope="session")  # not the module's: played once, however the tests are spread
def room(postgres_url: str | None) -> Iterator[Room]:
    if postgres_url is None:
        pytest.skip("no PostgreSQL server answers and no PostgreSQL binaries are installed")
    with fresh_schema(postgres_url, durable=False) as url:
        migrated_anew(url)  # the shift report reads a room; migrating one is tests/storage's
        database = Database(url)
        _replay(database, EARLY, offset=0)
        time.sleep(0.01)
        boundary = utc_now()
        time.sleep(0.01)
        _replay(database, LATE, offset=len(EARLY))
        database.dispose()
        yield Room(url, boundary)


def _replay(database: Database, tables: list[tuple[str, int, bool, bool]], offset: int) -> None:
    for index, (name, hands, extras, close) in enumerate(tables, start=offset):
        script = table_script(name, hands, extras=extras, close=close, rake=RAKES[index % len(RAKES)])
        run_replay(database, script, resume=False)


@dataclass(frozen=True)
class Expected:
    """One table's figures, summed from its ledger and stored hands (not from the report)."""

    table: str
    session: int
    hands: int
    buy_ins: int
    rebuys: int
    cash_outs: int
    rake: int
    jackpot: int
    chips_at_end: int
    voids: int
    corrections: int
    correction_chips: int
    fingerprint: str

    @property
    def drop(self) -> int:
        return self.buy_ins + self.rebuys


@pytest.fixture(scope="session")
def expected(room: Room) -> list[Expected]:
    """Each table's figures, summed once for the tests that read the room (none changes it)."""
    database = Database(room.url, migrate=False)
    with database.session() as session:
        heads = select(TableSession.id, TableSession.table_name, TableSession.head_hash)
        sessions = session.execute(heads).all()
    found = []
    for session_id, table, head_hash in sessions:
        ledger = chip_ledger(database, session_id)
        hands = hand_history(database, session_id)
        voided = {entry.hand_number for entry in ledger if entry.kind == "void"}
        standing = [hand for hand in hands if hand.number not in voided]
        raked = [entry for entry in ledger if entry.kind == "rake" and entry.hand_number not in voided]
        taken = -sum(entry.amount for entry in raked)
        jackpot = sum(hand.jackpot for hand in standing)
        kinds: dict[str, int] = {}
        for entry in ledger:
            kinds[entry.kind] = kinds.get(entry.kind, 0) + entry.amount
        corrections = [entry for entry in ledger if entry.kind == "correction"]
        found.append(
            Expected(
                table=table,
                session=session_id,
                hands=len(hands),
                buy_ins=kinds.get("buy_in", 0),
                rebuys=kinds.get("rebuy", 0),
                cash_outs=-kinds.get("cash_out", 0),
                rake=taken - jackpot,
                jackpot=jackpot,
                chips_at_end=sum(entry.amount for entry in ledger),
                voids=len(voided),
                corrections=len(corrections),
                correction_chips=sum(entry.amount for entry in corrections),
                fingerprint=head_hash,
            )
        )
    database.dispose()
    return found


def _row_words(table: Expected) -> list[str]:
    corrections = [str(table.corrections), f"({table.correction_chips:+,})"] if table.corrections else ["0"]
    figures = [table.hands, table.buy_ins, table.rebuys, table.drop, table.cash_outs, table.rake]
    figures += [table.jackpot, table.chips_at_end, table.voids]
    return [table.table, str(table.session), *(chips(figure) for figure in figures), *corrections]


def _pdf_lines(path: Path) -> list[str]:
    return [line for page in page_texts(path) for line in page.splitlines()]


def test_the_shift_report_of_eight_tables_adds_up_to_their_ledgers(
    room: Room, expected: list[Expected], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pdf, table_csv = tmp_path / "shift.pdf", tmp_path / "shift.csv"
    # Both from one verified read of the room (`--out FILE.csv` alone: test_a_shift_counts_only_...).
    shift = ["report", "--db", room.url, "--shift", "--room", "Casino Nord", "--out", str(pdf)]
    status = main([*shift, "--csv", str(table_csv)])
    assert status == 0, capsys.readouterr().err
    assert len(expected) == 8 and all(table.hands for table in expected)
    assert sum(table.rake for table in expected) > 0 and sum(table.jackpot for table in expected) > 0

    lines = [line.split() for line in _pdf_lines(pdf)]
    rows = [words for words in lines if words and words[0] in {t.table for t in expected}]
    by_table = {words[0]: words for words in rows if len(words) >= 11}
    for table in expected:
        assert by_table[table.table] == _row_words(table), table.table
    order = [words[0] for words in rows if len(words) >= 11]
    assert order == ["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T10"]

    totals = next(words for words in lines if words[:2] == ["Room", "total"])
    summed = [sum(getattr(t, name) for t in expected) for name in _TOTALLED]
    corrections = sum(t.corrections for t in expected), sum(t.correction_chips for t in expected)
    assert totals[2:] == [*(chips(n) for n in summed), str(corrections[0]), f"({corrections[1]:+,})"]

    text = "\n".join(" ".join(words) for words in lines)
    for table in expected:
        assert table.fingerprint in text.replace(" ", "")
    assert "Floor supervisor" in text and "Shift manager" in text and "Casino Nord" in text
    pages = re.findall(r"Page (\d+) of (\d+)", text)
    assert pages == [(str(page), str(len(pages))) for page in range(1, len(pages) + 1)]

    with table_csv.open(encoding="utf-8", newline="") as handle:
        read = list(csv.DictReader(handle))
    assert [row["table"] for row in read] == [*order, "ROOM TOTAL"]
    by_name = {table.table: table for table in expected}
    for row in read[:-1]:
        table = by_name[row["table"]]
        assert [int(row[name]) for name in _CSV_FIGURES] == [getattr(table, name) for name in _TOTALLED]
        assert (row["session"], row["fingerprint"]) == (str(table.session), table.fingerprint)
    assert [int(read[-1][name]) for name in _CSV_FIGURES] == summed


_TOTALLED = ("hands", "buy_ins", "rebuys", "drop", "cash_outs", "rake", "jackpot", "chips_at_end", "voids")
_CSV_FIGURES = (
    "hands_dealt", "buy_ins", "rebuys", "drop", "cash_outs", "rake", "jackpot_drop", "chips_on_table",
    "hands_voided",
)  # fmt: skip


def test_a_shift_counts_only_what_happened_in_it(
    room: Room, expected: list[Expected], tmp_path: Path
) -> None:
    before, after = tmp_path / "before.csv", tmp_path / "after.csv"
    boundary = room.boundary.replace("T", " ").removesuffix("Z")
    assert main(["report", "--db", room.url, "--shift", "--to", boundary, "--out", str(before)]) == 0
    assert main(["report", "--db", room.url, "--shift", "--from", boundary, "--csv", str(after)]) == 0
    early = _read(before)
    late = _read(after)
    assert [row["table"] for row in early] == ["T1", "T2", "T3", "ROOM TOTAL"]
    assert [row["table"] for row in late] == ["T4", "T5", "T6", "T7", "T10", "ROOM TOTAL"]
    whole = {table.table: table for table in expected}
    for row in early[:-1] + late[:-1]:
        assert int(row["hands_dealt"]) == whole[row["table"]].hands
        assert int(row["chips_on_table"]) == whole[row["table"]].chips_at_end
    assert int(early[-1]["drop"]) + int(late[-1]["drop"]) == sum(t.drop for t in whole.values())


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_shift_options_are_refused_in_one_line(
    room: Room, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "s.pdf")
    backwards = ["--from", "2026-11-23 18:00", "--to", "2026-11-23 10:00"]
    cases = [
        (["--shift"], "--shift needs --out FILE.pdf (or FILE.csv) and/or --csv FILE.csv"),
        (
            ["--shift", "--from", "yesterday", "--out", out],
            "--from is not a time: write it as 2026-11-23 18:00 (UTC)",
        ),
        (["--csv", out], "--csv, --from and --to go with --shift (the shift report)"),
        (
            ["--shift", "--table", "T1", "--out", out],
            "--shift reports the whole room: leave out --table, --session and session outputs",
        ),
        (
            ["--shift", *backwards, "--out", out],
            "--to must come after --from: the shift ends before it starts",
        ),
    ]
    for args, message in cases:
        assert main(["report", "--db", room.url, *args]) == 2
        assert capsys.readouterr().err == f"ofc-desk report: {message}\n"
    assert not Path(out).exists()


def test_chips_at_the_end_of_a_shift_are_the_ledger_up_to_then(
    migrated_room_url: str, tmp_path: Path
) -> None:
    """A void and a rebuy after the shift ended change nothing in its chips at the end; they are
    the next shift's."""
    database = Database(migrated_room_url)
    # A rake on every hand (1 chip a player): the voided hand's rake was taken when the shift ended.
    run_replay(database, table_script("T1", 3, extras=False, close=False, rake=RAKES[1]), resume=False)
    time.sleep(0.01)
    boundary = utc_now()
    time.sleep(0.01)
    service = TableService.resume(database, 1, sign_in(database, DEALER, DEALER_PIN))
    service.do(VoidHand(2, "misdeal", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    service.do(Rebuy("Ann", 10))
    with database.session() as session:
        ledger_then = session.scalar(
            select(func.sum(LedgerRow.amount))
            .join(Event, Event.id == LedgerRow.event_id)
            .where(Event.at < boundary)
        )
        ledger_now = session.scalar(select(func.sum(LedgerRow.amount)))
    database.dispose()
    moment = boundary.replace("T", " ").removesuffix("Z")
    before, after = tmp_path / "before.csv", tmp_path / "after.csv"
    assert main(["report", "--db", migrated_room_url, "--shift", "--to", moment, "--out", str(before)]) == 0
    assert main(["report", "--db", migrated_room_url, "--shift", "--from", moment, "--out", str(after)]) == 0
    shift, next_shift = _read(before)[0], _read(after)[0]
    assert ledger_then != ledger_now
    assert int(shift["chips_on_table"]) == ledger_then
    assert int(next_shift["chips_on_table"]) == ledger_now
    assert (shift["hands_dealt"], shift["hands_voided"], shift["rebuys"]) == ("3", "0", "0")
    assert (next_shift["hands_dealt"], next_shift["hands_voided"], next_shift["rebuys"]) == ("0", "1", "10")


def test_a_shift_when_no_table_was_open_says_so(room: Room, tmp_path: Path) -> None:
    pdf, table_csv = tmp_path / "quiet.pdf", tmp_path / "quiet.csv"
    window = ["--from", "2000-01-01 18:00", "--to", "2000-01-02 02:00"]
    assert (
        main(["report", "--db", room.url, "--shift", *window, "--out", str(pdf), "--csv", str(table_csv)])
        == 0
    )
    text = " ".join(" ".join(_pdf_lines(pdf)).split())
    assert "No table was open during this shift." in text
    assert "from 2000-01-01 18:00 UTC to 2000-01-02 02:00 UTC" in text
    assert "Page 1 of 1" in text and "Shift manager" in text
    assert [row["table"] for row in _read(table_csv)] == ["ROOM TOTAL"]


def test_the_room_is_read_once_however_many_tables_the_shift_holds(room: Room) -> None:
    """The tables of a shift are read in one snapshot: the room's accounts chain and newest event
    once for them all, not again for each table (they were most of a report's queries)."""
    database = Database(room.url, migrate=False)
    statements: list[str] = []

    def sent(_connection: object, _cursor: object, statement: str, *_: object) -> None:
        statements.append(statement)

    shift_report(database, ShiftWindow())  # the process's pool ledger reads the accounts once too
    event.listen(database.engine, "before_cursor_execute", sent)
    room_reads = []
    for window in (ShiftWindow(end=parse_shift_time(room.boundary)), ShiftWindow()):
        statements.clear()
        report = shift_report(database, window)
        accounts = [s for s in statements if "FROM account_events" in s or "FROM users" in s]
        room_reads.append((len(report.tables), len(accounts)))
    database.dispose()
    (early, early_reads), (everyone, all_reads) = room_reads
    assert (early, everyone) == (len(EARLY), len(EARLY) + len(LATE))
    assert all_reads == early_reads


def test_the_verified_report_checks_each_table_once_and_reads_what_the_report_reads(
    room: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`verify` over the room with the shift's tables read in its walk: each session is folded
    once (the shift's were folded by `verify`, then again by the report's read, and the pool's
    tables by this process's walk of the pool), and the report is the one `shift_report` reads."""
    folded: list[int] = []

    def counted(snapshot: Any, row: TableSession, *args: Any, **options: Any) -> Any:
        folded.append(row.id)
        return check_session(snapshot, row, *args, **options)

    for module in (verify, verify_workers):
        monkeypatch.setattr(module, "check_session", counted)
    database = Database(room.url, migrate=False)
    window = ShiftWindow(start=parse_shift_time(room.boundary))
    printed = datetime(2030, 1, 1, tzinfo=UTC)
    verified = verified_shift_report(database, window, "Main", now=lambda: printed)
    with database.session() as session:
        sessions = list(session.scalars(select(TableSession.id).order_by(TableSession.id)))
    assert sorted(folded) == sessions
    assert len(verified.tables) == len(LATE) and verified.pool is not None and verified.pool.touched
    with database.session() as session:
        pool_rows = list(session.scalars(select(JackpotMove.id)))
    assert ledger_of(database).given(pool_rows) == set()  # the process walked no table of the pool
    assert verified == shift_report(database, window, "Main", now=lambda: printed)
    assert ledger_of(database).given(pool_rows) == set(pool_rows)
    database.dispose()
