"""Another writer moving the chain's head after an append checked it: the append is refused with
the same words as a head found moved by the check, nothing of it stored, the chain whole."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from ofc_desk.service import ActionRefused, TableService, audit_log
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.store.persistence import CHANGED_ELSEWHERE, EventStore, WrittenEvent
from ofc_desk.service.table.commands import StartHand
from ofc_desk.service.terms.events import EventKind
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import TableSession
from tests.helpers.table_helpers import dealer, open_test_table


def _stored_head(database: Database, session_id: int) -> tuple[int, str]:
    with database.session() as session:
        row = session.execute(
            select(TableSession.head_seq, TableSession.head_hash).where(TableSession.id == session_id)
        ).one()
    return row.head_seq, row.head_hash


def test_a_head_moved_after_the_check_refuses_the_append_as_the_check_does(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    second = TableService.resume(database, first.session_id, dealer(database))
    check_head = EventStore._check_head
    moved: list[bool] = []

    def another_desk_writes_after_the_check(store: EventStore, session: Session) -> None:
        check_head(store, session)  # passes: nothing was written since `second` read the table
        if not moved:
            moved.append(True)
            first.do(StartHand())  # another desk, its own transaction, committed now

    monkeypatch.setattr(EventStore, "_check_head", another_desk_writes_after_the_check)
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
    # The UPDATE at the end of `behind`'s write, reached with the head moved since its check: no
    # row is changed, and the append is refused (its transaction, here this one, rolled back).
    next_event = WrittenEvent(0, behind.head_seq + 1, "hand_started", "Bob", "now", "{}", "0" * 64)
    with database.session() as session:
        with pytest.raises(ActionRefused) as refused:
            behind._move_head(session.connection(), EventKind.HAND_STARTED, next_event, False)
        session.rollback()
    assert str(refused.value) == str(CHANGED_ELSEWHERE)
    assert _stored_head(database, first.session_id) == head
