"""One fold, one reader (issue 27): the desk's reads of a session and the reports' verified read
give the same records, and the fold a desk resumes by leaves the stacks a report prints."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from ofc_desk.service.audit.verified_read import read_verified_session
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.store.record_reads import read_audit, read_hands, read_ledger
from ofc_desk.service.table.fold import REFUSALS, FoldHooks, fold, folded, pinned_machine
from ofc_desk.service.terms.outcome import Outcome
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event
from tests.helpers.replay_helpers import load_example


def _example(database_url: str) -> Database:
    database = Database(database_url)
    run_replay(database, load_example(), resume=False)
    return database


def test_the_desk_and_a_report_read_a_session_alike(migrated_database_url: str) -> None:
    database = _example(migrated_database_url)
    verified = read_verified_session(database, 1)
    desk_hands = read_hands(database, 1)
    assert len(desk_hands) == 12 and all(hand.dealers for hand in desk_hands)
    assert desk_hands == verified.hands
    assert read_ledger(database, 1) == verified.ledger
    assert read_audit(database, 1) == verified.events
    database.dispose()


def test_the_stacks_a_report_prints_are_the_resumed_table_s(migrated_database_url: str) -> None:
    database = _example(migrated_database_url)
    with database.session() as session:
        events = session.scalars(select(Event).where(Event.session_id == 1).order_by(Event.seq)).all()
    machine = folded(events)
    last = read_verified_session(database, 1).stacks_after[12]
    assert sorted(last) == sorted((seat.name, seat.stack) for seat in machine.seats)
    assert sum(chips for _, chips in last) > 0
    database.dispose()


def test_the_fold_stops_at_the_first_event_the_rules_refuse(migrated_database_url: str) -> None:
    database = _example(migrated_database_url)
    with database.session() as session:
        events = session.scalars(select(Event).where(Event.session_id == 1).order_by(Event.seq)).all()
    database.dispose()
    seen: list[int] = []

    class Seen(FoldHooks[Event]):
        def folded(self, event: Event, outcome: Outcome) -> None:
            seen.append(event.seq)

        def refused(self, event: Event, error: Exception) -> None:
            seen.append(-event.seq)

    again = [*events[:6], events[5], *events[6:]]  # the sixth event twice: the rules refuse it
    assert not fold(pinned_machine(again), again, Seen())
    assert seen == [1, 2, 3, 4, 5, 6, -6]
    with pytest.raises(REFUSALS):
        fold(pinned_machine(again), again)  # a plain fold raises what refused it
