"""A desk behind the chain at a card room's table login: another writer moved the head after the
desk last read it, just before its event is written. The events' row policy refuses the event,
which no longer follows the head: refused with the words a desk behind the table meets, nothing
of it stored."""

from __future__ import annotations

from typing import Any

import pytest

from ofc_desk.service import ActionRefused, audit_log
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.store.persistence import CHANGED_ELSEWHERE, EventStore, WrittenEvent
from ofc_desk.service.table.commands import StartHand
from ofc_desk.storage.roles import RoomRoles
from ofc_desk.storage.users import sign_in
from tests.helpers.room_logins import a_table_at_the_table_login
from tests.helpers.room_scripts import DEALER, DEALER_PIN

pytestmark = pytest.mark.postgres


def test_a_head_moved_just_before_the_write_is_refused_at_the_table_login(
    migrated_room_url: str, roles: RoomRoles, monkeypatch: pytest.MonkeyPatch
) -> None:
    with a_table_at_the_table_login(migrated_room_url, roles) as desks:
        dealer = sign_in(desks, DEALER, DEALER_PIN)
        first = TableService.resume(desks, 1, dealer)
        behind = TableService.resume(desks, 1, dealer)
        stored = [row.hash for row in audit_log(desks, 1)]
        write = EventStore._write
        moved: list[bool] = []

        def another_desk_writes_first(store: EventStore, *arguments: Any, **named: Any) -> WrittenEvent:
            if not moved:
                moved.append(True)
                first.do(StartHand())
            return write(store, *arguments, **named)

        monkeypatch.setattr(EventStore, "_write", another_desk_writes_first)
        with pytest.raises(ActionRefused) as refused:
            behind.do(StartHand())
        monkeypatch.undo()
        assert moved == [True]
        assert str(refused.value) == str(CHANGED_ELSEWHERE)
        after = [row.hash for row in audit_log(desks, 1)]
        assert after[:-1] == stored and len(after) == len(stored) + 1
        assert behind.snapshot() == first.snapshot()
        verify_database(desks, fork=False)
