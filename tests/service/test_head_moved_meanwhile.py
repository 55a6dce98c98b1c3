"""Another writer moving the chain's head after a desk last read it: the append is refused with the
words a desk behind the table meets (`CHANGED_ELSEWHERE`), nothing of it stored, the chain whole.
No read of the head comes first: the event's unique number refuses it, and the head moves only from
where the store left it."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import event, func, select

from ofc_desk.service import ActionRefused, TableService, audit_log
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.store.entry_marks import DeskMarks
from ofc_desk.service.store.persistence import CHANGED_ELSEWHERE, EventStore, WrittenEvent
from ofc_desk.service.table.commands import StartHand
from ofc_desk.service.terms.events import EventKind
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import EntryMark, Event, HandRow, LedgerRow, Signature, TableSession, TransferRow
from tests.helpers.table_helpers import dealer, open_test_table, play_hand

WRITTEN_WITH_AN_EVENT = (Event, HandRow, TransferRow, LedgerRow, Signature, EntryMark)
"""Every table a settlement signed and marked writes a row to."""


def _stored_head(database: Database, session_id: int) -> tuple[int, str]:
    with database.session() as session:
        row = session.execute(
            select(TableSession.head_seq, TableSession.head_hash).where(TableSession.id == session_id)
        ).one()
    return row.head_seq, row.head_hash


def _row_counts(database: Database) -> dict[str, int]:
    with database.session() as session:
        return {
            model.__tablename__: session.scalar(select(func.count()).select_from(model)) or 0
            for model in WRITTEN_WITH_AN_EVENT
        }


def test_a_head_moved_just_before_the_write_refuses_the_append(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    second = TableService.resume(database, first.session_id, dealer(database))
    write = EventStore._write
    moved: list[bool] = []

    def another_desk_writes_first(store: EventStore, *arguments: Any, **named: Any) -> WrittenEvent:
        if not moved:  # nothing was written since `second` read the table, until now
            moved.append(True)
            first.do(StartHand())  # another desk, its own transaction, committed now
        return write(store, *arguments, **named)

    monkeypatch.setattr(EventStore, "_write", another_desk_writes_first)
    with pytest.raises(ActionRefused) as refused:
        second.do(StartHand())
    assert str(refused.value) == str(CHANGED_ELSEWHERE)
    monkeypatch.undo()
    assert moved == [True]
    stored = audit_log(database, first.session_id)
    assert [row.kind for row in stored] == ["table_opened", "hand_started"]
    assert _stored_head(database, first.session_id) == (2, stored[-1].hash)
    assert second.snapshot() == first.snapshot()  # it holds the table as stored
    verify_database(database)


def test_the_head_is_moved_only_from_where_the_store_left_it(database: Database) -> None:
    first = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    behind = EventStore.load(database, first.session_id)[0]
    first.do(StartHand())
    head = _stored_head(database, first.session_id)
    # The UPDATE at the end of `behind`'s write, reached with the head moved since it was read: no
    # row is changed, and the append is refused (its transaction, here this one, rolled back).
    next_event = WrittenEvent(0, behind.head_seq + 1, "hand_started", "Bob", "now", "{}", "0" * 64)
    with database.session() as session:
        with pytest.raises(ActionRefused) as refused:
            behind._move_head(session.connection(), EventKind.HAND_STARTED, next_event, False)
        session.rollback()
    assert str(refused.value) == str(CHANGED_ELSEWHERE)
    assert _stored_head(database, first.session_id) == head


def test_a_store_whose_next_number_is_free_but_whose_head_is_not_stored_writes_nothing(
    database: Database,
) -> None:
    """The stored head behind the store's (a database put back from an older copy than the desk
    remembers): the event's number is free, so its INSERT and every row beside it go through, and
    the head's conditional UPDATE refuses the append; none of those rows is left."""
    table = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    play_hand(table, {}, settle=False)
    store, machine = EventStore.load(database, table.session_id)
    store.head_seq += 1
    remembered, head = len(store.history), _stored_head(database, table.session_id)
    rows = _row_counts(database)
    account = dealer(database)
    marks = DeskMarks.for_dealer(account)
    assert marks is not None
    sent: list[str] = []

    def inserted(_connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if statement.startswith("INSERT INTO "):
            sent.append(statement.split()[2])

    event.listen(database.engine, "before_cursor_execute", inserted)
    try:
        with pytest.raises(ActionRefused) as refused:
            settled = machine.checked(EventKind.HAND_SETTLED, {})
            store.append(machine, settled, account.name, [account], marks.stamp())
    finally:
        event.remove(database.engine, "before_cursor_execute", inserted)
    assert str(refused.value) == str(CHANGED_ELSEWHERE)
    assert set(sent) == {model.__tablename__ for model in WRITTEN_WITH_AN_EVENT}
    assert (store.head_seq, len(store.history)) == (head[0] + 1, remembered)  # left where it was
    assert _stored_head(database, table.session_id) == head
    assert _row_counts(database) == rows
    verify_database(database)
