"""The room's jackpot pool on the reports (docs/rules.md §11, issue 28): a session's drops, seeds
and awards with their shares and the pool around them, the table-close sum with an award, and the
shift report's reconciliation of the pool, which a tampered pool row does not pass."""

from __future__ import annotations

import io
import shutil
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from ofc_desk.cli.main import main
from ofc_desk.reports.exports import transaction_rows
from ofc_desk.reports.loader import ReportNotVerified, load_session_record
from ofc_desk.reports.session_pdf import write_session_report
from ofc_desk.reports.shift import ShiftWindow, shift_report
from ofc_desk.reports.shift_pdf import write_shift_report
from ofc_desk.reports.table_close_pdf import table_close_figures, write_table_close_report
from ofc_desk.service import TableService
from ofc_desk.service.room import room_pool
from ofc_desk.service.room.room_pool import PoolRow
from ofc_desk.service.store import pool_ledger
from ofc_desk.service.table.commands import CloseSession, SeedJackpot, Settle, VoidHand
from ofc_desk.storage import append_only
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role
from tests.helpers.jackpot_awards import HOUSE_AWARD, open_award_table, show_the_losing_hand
from tests.helpers.migrated_files import MigratedTemplate
from tests.helpers.pdf_text import squeezed_text
from tests.helpers.table_helpers import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN

RAKE = {"mode": "per-player", "amount": 1, "percent": 0, "cap": 4, "jackpot_percent": 100}
"""Each hand drops 4 chips into the room's pool (one from each of the four players)."""


@dataclass(frozen=True)
class Room:
    url: str
    shift_start: datetime
    """After the first table closed, before the two tables of the shift opened."""
    sessions: tuple[int, int, int]


def _play_award_table(database: Database, name: str, seed: int | None) -> TableService:
    """A table whose one hand pays an award: Ann loses all three rows to Bob, Cy and Dee surrender."""
    service = open_award_table(database, name, **HOUSE_AWARD, rake=RAKE)
    if seed:
        service.do(SeedJackpot(seed, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    show_the_losing_hand(service)
    service.do(Settle())
    return service


def _room(path: Path) -> Room:
    """Jade 1 seeds 500, pays it all and closes before the shift; in the shift Jade 2 seeds 1,000
    and pays 1,003 of 1,004, and Jade 3 pays 3 of the 5 left: the pool ends at 2."""
    url = f"sqlite:///{path}"
    database = Database(url)
    create_accounts(
        database, [(SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN), (DEALER, Role.DEALER, DEALER_PIN)]
    )
    early = _play_award_table(database, "Jade 1", seed=500)
    early.do(CloseSession(supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    time.sleep(0.01)
    start = datetime.now(UTC)
    time.sleep(0.01)
    second = _play_award_table(database, "Jade 2", seed=1000).session_id
    third = _play_award_table(database, "Jade 3", seed=None).session_id
    database.dispose()
    return Room(url, start, (early.session_id, second, third))


# The room is played once a worker (module scope): one worker runs them all.
pytestmark = pytest.mark.xdist_group("jackpot reports' room")


@pytest.fixture(scope="module")
def played_room(tmp_path_factory: pytest.TempPathFactory, migrated_template: MigratedTemplate) -> Room:
    """The room played once a module (three tables' hands and awards are most of a test's cost),
    in a copy of the process's migrated file."""
    path = tmp_path_factory.mktemp("jackpot_room") / "room.db"
    migrated_template.copy(path)
    return _room(path)


@pytest.fixture
def room(played_room: Room, tmp_path: Path) -> Room:
    """This test's copy of the played room's file: a test may void a hand or remove a pool row."""
    path = tmp_path / "room.db"
    shutil.copyfile(make_url(played_room.url).database or "", path)
    return replace(played_room, url=f"sqlite:///{path}")


def pdf_text(write: object, *args: object) -> str:
    buffer = io.BytesIO()
    assert callable(write)
    write(args[0], buffer, *args[1:])
    return squeezed_text(buffer.getvalue())


def test_the_session_report_prints_the_seed_the_drop_the_awards_shares_and_the_pool(room: Room) -> None:
    record = load_session_record(room.url, session_id=room.sessions[1])
    printed = pdf_text(write_session_report, record)
    # The hand: the pool before it and after its drop of 4 and its award of 1,003 (P = 1,004).
    assert "Room's jackpot pool: 1,000 before the hand, 1 after it (drop 4)" in printed
    award = (
        "Jackpot award: Ann lost all three rows to Bob; Ann (loser, 50%) 502 · Bob (winner, 25%) 251 ·"
        " Cy (table, 25%) 125 · Dee (table, 25%) 125; 1,003 in all"
    )
    assert award in printed
    # The session's changes of the room's pool, each with the pool after it.
    assert "seed (house chips) +1,000 1,000 signed by Sue" in printed
    assert "jackpot drop +4 1,004" in printed
    assert "jackpot award -1,003 1" in printed
    assert "Pool before this table's first change 0" in printed
    assert "Pool after this table's last change 1" in printed
    assert (
        "The net results add up to the jackpot awards (1,003) less the rake (0) and the jackpot drop (4)."
        in printed
    )


def test_the_table_close_expected_chips_count_the_award(room: Room) -> None:
    record = load_session_record(room.url, session_id=room.sessions[1])
    figures = table_close_figures(record, counted=record.final_stacks_total)
    # 400 bought in, 4 dropped into the room's pool, 1,003 paid onto the stacks from it.
    assert (figures.jackpot_drop, figures.jackpot_awards) == (4, 1003)
    assert figures.expected == 400 - 4 + 1003 == record.final_stacks_total
    assert figures.ledger_mismatch == 0 and figures.variance == 0
    printed = pdf_text(write_table_close_report, record, record.final_stacks_total)
    assert "+ Jackpot awards (the house's, from the room's pool) 1,003" in printed
    assert "= Expected chips on the table 1,399" in printed and "BALANCED" in printed
    assert "signed by Sue" in printed


def test_the_shift_reconciles_the_rooms_pool_of_two_tables(room: Room) -> None:
    database = Database(room.url)
    report = shift_report(database, ShiftWindow(start=room.shift_start))
    database.dispose()
    pool = report.pool
    assert pool is not None
    # 0 at the start (Jade 1 paid out its 504) + 8 dropped + 1,000 seeded − 1,006 paid = 2.
    assert (pool.at_start, pool.drops, pool.seeds, pool.awards, pool.voids, pool.at_end) == (
        0,
        8,
        1000,
        1006,
        0,
        2,
    )
    assert pool.difference == 0
    assert [(t.table, t.jackpot_seeds, t.jackpot_awards) for t in report.tables] == [
        ("Jade 2", 1000, 1003),
        ("Jade 3", 0, 3),
    ]
    # Chips at the end: the buy-ins less the drop, with the award the house put on the table.
    assert [t.chips_on_table for t in report.tables] == [400 - 4 + 1003, 400 - 4 + 3]
    printed = pdf_text(write_shift_report, report)
    for line in (
        "Pool at the start of the shift 0",
        "+ Jackpot drops 8",
        "+ Seeds (house chips) 1,000",
        "− Awards paid 1,006",
        "= Pool at the end, by the tables' changes 2",
        "Pool at the end, as the room's pool stands 2",
        "The room's jackpot pool reconciles.",
    ):
        assert line in printed, line


def test_the_shift_reads_the_pool_rows_back_only_to_its_start(
    room: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read back a row at a time, the stored pool stops at the newest change before the shift:
    Jade 1's earlier changes are not read, and the pool reconciles as when read in one go."""
    monkeypatch.setattr(pool_ledger, "_ROWS_BACK", 1)
    read: list[int] = []
    newest_first = room_pool.rows_newest_first

    def counted(*arguments: Any) -> list[tuple[int, PoolRow]]:
        rows = newest_first(*arguments)
        read.extend(number for number, _row in rows)
        return rows

    monkeypatch.setattr(pool_ledger, "rows_newest_first", counted)
    database = Database(room.url)
    report = shift_report(database, ShiftWindow(start=room.shift_start))
    with database.snapshot() as session:
        jade_1 = session.execute(
            text("SELECT id FROM jackpot_moves WHERE session_id = :session ORDER BY id"),
            {"session": room.sessions[0]},
        ).scalars()
        before_the_shift = list(jade_1)
    database.dispose()
    assert report.pool is not None
    assert (report.pool.at_start, report.pool.at_end, report.pool.difference) == (0, 2, 0)
    assert len(before_the_shift) > 1 and set(read) & set(before_the_shift) == {before_the_shift[-1]}


def _remove_pool_row(url: str, session_id: int, kind: str) -> None:
    database = Database(url)
    with database.engine.begin() as connection:
        append_only.remove_all(connection)
        connection.execute(
            text("DELETE FROM jackpot_moves WHERE session_id = :session AND kind = :kind"),
            {"session": session_id, "kind": kind},
        )
    database.dispose()


def test_a_pool_row_removed_before_the_shift_does_not_reconcile(
    room: Room, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Jade 1's award removed: the pool stored at the start of the shift reads 504 where the tables'
    changes since give 2 at the end; the report says so, and `report --shift` verifies first."""
    _remove_pool_row(room.url, room.sessions[0], "award")
    database = Database(room.url)
    report = shift_report(database, ShiftWindow(start=room.shift_start))
    database.dispose()
    assert report.pool is not None and report.pool.at_start == 504 and report.pool.difference == -504
    printed = pdf_text(write_shift_report, report)
    assert "The room's jackpot pool does NOT reconcile" in printed and "by -504 chips" in printed
    assert "reconciles." not in printed
    out = tmp_path / "shift.pdf"
    status = main(["report", "--db", room.url, "--shift", "--out", str(out)])
    assert status == 1 and not out.exists()
    assert "no shift report was written" in capsys.readouterr().out


def test_a_pool_row_of_a_table_in_the_shift_removed_refuses_its_reports(room: Room) -> None:
    _remove_pool_row(room.url, room.sessions[1], "seed")
    with pytest.raises(ReportNotVerified, match="rows of the room's jackpot pool differ from its events"):
        load_session_record(room.url, session_id=room.sessions[1])
    database = Database(room.url)
    with pytest.raises(ReportNotVerified):
        shift_report(database, ShiftWindow(start=room.shift_start))
    database.dispose()


def test_a_void_gives_the_award_back_on_the_csv_and_in_the_shifts_reconciliation(room: Room) -> None:
    """Jade 3's hand voided: its award of 3 goes back to the pool and its drop of 4 out of it."""
    database = Database(room.url)
    service = TableService.resume(database, room.sessions[2], DEALER)
    service.do(VoidHand(1, "misdeal", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    report = shift_report(database, ShiftWindow(start=room.shift_start))
    database.dispose()
    assert report.pool is not None
    assert (report.pool.voids, report.pool.at_end, report.pool.difference) == (-1, 1, 0)
    assert [t.jackpot_awards for t in report.tables] == [1003, 0]
    record = load_session_record(room.url, session_id=room.sessions[2])
    rows = list(transaction_rows(record))
    awards = [(row["player"], row["amount"]) for row in rows if row["kind"] == "jackpot award"]
    assert awards == [("Ann", 2), ("Bob", 1), ("Ann", -2), ("Bob", -1)]
    # The void's reversal of Ann's transfers leaves her award to its own row.
    (hand,) = record.hands
    won = sum(t.paid for t in hand.transfers if t.payee == "Ann") - sum(
        t.paid for t in hand.transfers if t.payer == "Ann"
    )
    reversed_ann = [
        row["amount"] for row in rows if row["kind"] == "void reversal" and row["player"] == "Ann"
    ]
    assert won != 0 and reversed_ann == [-won]
    assert record.jackpot_awards == 0 and record.final_stacks_total == 400
