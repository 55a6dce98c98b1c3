"""Module functions the faces call: open or resume a table, list open tables, read history."""

from __future__ import annotations

from ofc_desk.service.front.table_service import Dealer, FoldedTable, TableService
from ofc_desk.service.room.desk_holds import ThisDesk
from ofc_desk.service.store.record_reads import read_audit, read_hands, read_ledger, read_open_tables
from ofc_desk.service.store.records import AuditRecord, HandRecord, LedgerRecord, OpenTable
from ofc_desk.service.terms.setup import TableSetup
from ofc_desk.storage.database import Database


def open_table(
    database: Database, setup: TableSetup, actor: Dealer, desk: ThisDesk | None = None
) -> TableService:
    """Open a new table session run by the signed-in dealer `actor` (held by `desk`, if given)."""
    return TableService.open(database, setup, actor, desk)


def resume_table(
    database: Database,
    session_id: int,
    actor: Dealer,
    desk: ThisDesk | None = None,
    entries_now: bool = True,
) -> TableService:
    """Pick up a stored session exactly where it stopped (after a crash, or the next shift); with
    a desk, refused while a desk on another machine holds it (`desk_holds.TableHeld`). Without
    `entries_now`, the entries' marks are checked by `TableService.find_foreign_entry` later."""
    return TableService.resume(database, session_id, actor, desk, entries_now)


def read_table(database: Database, session_id: int) -> FoldedTable:
    """A stored session folded, held by no desk and recording nothing (`TableService.read`): what
    a desk may do while its dealer still signs in."""
    return TableService.read(database, session_id)


def take_up_table(
    folded: FoldedTable, actor: Dealer, desk: ThisDesk | None = None, entries_now: bool = True
) -> TableService:
    """The table `read_table` read, now held by `desk` and dealt by the signed-in `actor`: the rest
    of `resume_table` (`TableService.take_up`)."""
    return TableService.take_up(folded, actor, desk, entries_now)


def list_open_tables(database: Database) -> list[OpenTable]:
    """Sessions not yet closed, most recently active first (what the desk offers to resume)."""
    return read_open_tables(database)


def hand_history(database: Database, session_id: int) -> list[HandRecord]:
    """Every settled hand of a session in order, voided ones marked."""
    return read_hands(database, session_id)


def chip_ledger(database: Database, session_id: int) -> list[LedgerRecord]:
    """Every chip movement of a session in order."""
    return read_ledger(database, session_id)


def audit_log(database: Database, session_id: int | None = None) -> list[AuditRecord]:
    """The hash-chained event log (of one session, or all) in order."""
    return read_audit(database, session_id)
