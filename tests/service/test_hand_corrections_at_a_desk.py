"""A correction (docs/rules.md §12) beside the merged work of integ: at a table one desk holds
(issue 34: the hold is checked in the correction's append, a desk whose table was taken over is
refused and stores nothing), a correction whose transaction fails (the faults' restore: the desk
holds the table as stored, every hand's trace too, and the correction is stored once when tried
again), and the settlement panel's preview (issue 36) beside a correction previewed and made."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from ofc_desk.service import TableService
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.room.desk_holds import TakenElsewhere, ThisDesk
from ofc_desk.service.store.persistence import EventStore
from ofc_desk.service.table.commands import Scripted, Settle
from ofc_desk.service.table.correction_view import preview
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.snapshot import Phase
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event
from ofc_desk.storage.users import sign_in
from tests.helpers.corrections import swap_rows
from tests.helpers.table_helpers import (
    BOB_PLAIN,
    CY_PLAIN,
    DEALER,
    DEALER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    Plan,
    open_test_table,
    play_hand,
)

PIT_1 = ThisDesk("PIT-1", "desk-one")
PIT_2 = ThisDesk("PIT-2", "desk-two")
ANN_PLAIN = Plan("Qh Td 2c", "Ah Kh 9h 4h 2h", "7s 7d 7c 3s 3d")
PLANS = {"Ann": ANN_PLAIN, "Bob": BOB_PLAIN, "Cy": CY_PLAIN}


def held_at_pit_1(database: Database) -> TableService:
    """A table held by desk PIT-1, its first hand settled."""
    opened = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    desk = TableService.resume(database, opened.session_id, sign_in(database, DEALER, DEALER_PIN), PIT_1)
    play_hand(desk, PLANS)
    return desk


def kinds(database: Database, session_id: int) -> list[str]:
    with database.session() as session:
        return list(
            session.scalars(select(Event.kind).where(Event.session_id == session_id).order_by(Event.seq))
        )


def correct(desk: TableService, entries: Sequence[Any], reason: str = "Ann's rows") -> None:
    raw = {"hand": 1, "entries": entries, "reason": reason}
    desk.do(Scripted(event=EventKind.HAND_CORRECTED, payload=raw, approved=(SUPERVISOR, SUPERVISOR_PIN)))


def trace_of(desk: TableService) -> tuple[object, ...]:
    trace = desk.machine.hand_traces[1]
    return (trace.entries, trace.net, trace.owed_next, trace.corrections)


def test_a_correction_at_a_held_table_and_refused_once_another_desk_took_it(database: Database) -> None:
    desk_one = held_at_pit_1(database)
    recorded = list(desk_one.machine.hand_traces[1].entries)
    corrected = swap_rows(recorded, "Ann")
    correct(desk_one, corrected)
    assert kinds(database, desk_one.session_id)[-1] == EventKind.HAND_CORRECTED
    assert desk_one.machine.hand_traces[1].corrections == 1

    desk_two = TableService.take_over(database, desk_one.session_id, "Rex", PIT_2, SUPERVISOR, SUPERVISOR_PIN)
    before, snapshot, trace = kinds(database, desk_one.session_id), desk_one.snapshot(), trace_of(desk_one)
    with pytest.raises(TakenElsewhere):
        correct(desk_one, recorded, "back as recorded")
    assert kinds(database, desk_one.session_id) == before
    assert trace_of(desk_one) == trace and desk_one.snapshot().seats == snapshot.seats

    correct(desk_two, recorded, "back as recorded")  # the desk that holds it now
    assert kinds(database, desk_two.session_id)[-1] == EventKind.HAND_CORRECTED
    assert desk_two.machine.hand_traces[1].corrections == 2
    assert list(desk_two.machine.hand_traces[1].entries) == recorded
    verify_database(database, fork=False)


def test_a_correction_whose_transaction_fails_leaves_the_table_as_stored(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    desk = held_at_pit_1(database)
    corrected = swap_rows(list(desk.machine.hand_traces[1].entries), "Ann")
    before, snapshot, trace = kinds(database, desk.session_id), desk.snapshot(), trace_of(desk)
    changes = {hand: dict(chips) for hand, chips in desk.machine.hand_changes.items()}
    write = EventStore._write

    def disk_failing(*_args: object, **_kwargs: object) -> Event:
        # After the machine folded the correction in: it holds an event that is not stored.
        raise OperationalError("INSERT", None, sqlite3.OperationalError("disk I/O error"))

    monkeypatch.setattr(EventStore, "_write", disk_failing)
    with pytest.raises(OperationalError):
        correct(desk, corrected)
    assert kinds(database, desk.session_id) == before
    assert desk.snapshot() == snapshot
    assert trace_of(desk) == trace
    assert desk.machine.hand_changes == changes

    monkeypatch.setattr(EventStore, "_write", write)
    correct(desk, corrected)  # tried again once the database answers: stored once
    assert kinds(database, desk.session_id) == [*before, EventKind.HAND_CORRECTED]
    assert desk.machine.hand_traces[1].corrections == 1
    resumed = TableService.resume(database, desk.session_id, sign_in(database, DEALER, DEALER_PIN), PIT_1)
    assert resumed.snapshot() == desk.snapshot()
    assert trace_of(resumed) == trace_of(desk)
    verify_database(database, fork=False)


def test_the_settlement_preview_beside_a_correction(database: Database) -> None:
    desk = held_at_pit_1(database)
    corrected = swap_rows(list(desk.machine.hand_traces[1].entries), "Ann")
    correct(desk, corrected)
    play_hand(desk, {}, settle=False)  # hand 2, awaiting its settlement
    assert desk.snapshot().phase is Phase.AWAITING_SETTLEMENT
    shown = desk.settlement_preview(desk.pool_shown())
    assert shown is not None

    # A correction of hand 1 looked at meanwhile (as the floor would be asked) changes nothing.
    preview(desk.machine, 1, swap_rows(corrected, "Bob"))
    assert desk.snapshot().phase is Phase.AWAITING_SETTLEMENT
    assert desk.settlement_preview(desk.pool_shown()) == shown

    settled = desk.do(Settle())
    assert tuple((seat.name, seat.stack) for seat in settled.seats) == shown.stacks_after
    verify_database(database, fork=False)
