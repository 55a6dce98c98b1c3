"""The room's pool is never trusted from its last row (issue 35): every award and seed is worked out
from the changes the room's events give, each tied to its signed event; a row beside them is set
aside and named, and a pool whose stored rows disagree with its events pays nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from ofc_desk.reports.shift import ShiftWindow, shift_report
from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.room.room_pool import PoolWalk
from ofc_desk.service.store import persistence
from ofc_desk.service.store.pool_ledger import pool_reading, room_pool
from ofc_desk.service.table.commands import Rebuy, SeedJackpot, Settle
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.storage import append_only
from ofc_desk.storage.database import Database
from tests.helpers.jackpot_awards import HOUSE_AWARD, open_award_table, show_the_losing_hand
from tests.helpers.pool_attacks import PHANTOM, add_a_phantom_row_beside_each_event
from tests.helpers.table_helpers import SUPERVISOR, SUPERVISOR_PIN, dealer


@pytest.fixture
def seeded(database: Database) -> TableService:
    """An award table whose room pool a supervisor seeded with 1,000."""
    service = open_award_table(database, "Jade 1", **HOUSE_AWARD)
    service.do(SeedJackpot(1000, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    return service


def _second_desk(service: TableService) -> TableService:
    """The table resumed by a desk started afresh (its own process's walk of the pool)."""
    database = Database(service.database.url)
    return TableService.resume(database, service.session_id, dealer(database))


def test_a_row_added_beside_a_rebuy_is_set_aside_and_never_paid(
    seeded: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_a_phantom_row_beside_each_event(monkeypatch)
    seeded.do(Rebuy("Ann", 50))
    monkeypatch.undo()
    assert room_pool(seeded.database) == 1000
    summary = verify_database(seeded.database, fork=False)
    assert summary.set_aside == (
        "jackpot pool row 2 (seed +100,000, event 3) is none the events give: it is not counted",
    )
    pool = shift_report(Database(seeded.database.url), ShiftWindow()).pool
    assert pool is not None  # the phantom row is left out of the shift's pool
    assert (pool.at_end, pool.seeds, pool.difference) == (1000, 1000, 0)
    later = _second_desk(seeded)
    show_the_losing_hand(later)
    later.do(Settle())  # the award is paid from 1,000, not from 101,000
    award = later.machine.hand_awards[1]
    assert award == 1000 and room_pool(later.database) == 0
    assert len(verify_database(later.database, fork=False).set_aside) == 1  # the room still verifies
    later.database.dispose()


def test_an_edited_pool_after_pays_nothing_and_the_desk_says_why(seeded: TableService) -> None:
    with seeded.database.engine.begin() as connection:
        append_only.remove_all(connection)
        connection.execute(text(f"UPDATE jackpot_moves SET pool_after = pool_after + {PHANTOM}"))
    with pytest.raises(VerifyFault, match=r"jackpot pool row \d+ differs from the events"):
        verify_database(seeded.database, fork=False)
    later = _second_desk(seeded)
    assert room_pool(later.database) == 1000  # the events' figure, never the row's
    assert later.jackpot_words(later.pool_shown()) == "room jackpot does not verify: call the floor"
    show_the_losing_hand(later)
    with pytest.raises(ActionRefused) as refusal:
        later.do(Settle())
    assert str(refusal.value) == (
        "the room's jackpot pool does not verify (jackpot pool row 1 differs from the events):"
        " nothing is paid from it; call the floor"
    )
    later.database.dispose()


def test_a_seed_no_supervisor_signed_is_not_counted(seeded: TableService) -> None:
    """The library can record a seed naming a supervisor without their key: it adds nothing."""
    store = persistence.EventStore.load(seeded.database, seeded.session_id)[0]
    machine = seeded.machine
    checked = machine.checked(EventKind.JACKPOT_SEEDED, {"chips": 1_000_000, "supervisor": SUPERVISOR})
    store.append(machine, checked, SUPERVISOR, signers=())
    reading = pool_reading(Database(seeded.database.url))
    assert reading.pool == 1000 and reading.fault is None
    assert reading.set_aside[0] == (
        "event 3's change of the room's jackpot pool is not counted: event 3: no signature of its"
        f" approving supervisor {SUPERVISOR}"
    )
    with pytest.raises(VerifyFault, match=f"no signature of its approving supervisor {SUPERVISOR}"):
        verify_database(seeded.database, fork=False)


def test_the_pool_is_the_events_sum_across_tables(database: Database) -> None:
    """Two tables: a seed at one, the award at the other; each desk reads the same pool."""
    first = open_award_table(database, "Jade 1", **HOUSE_AWARD)
    second = open_award_table(database, "Jade 2", **HOUSE_AWARD)
    first.do(SeedJackpot(600, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    second.do(SeedJackpot(400, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    assert pool_reading(database).pool == 1000
    show_the_losing_hand(first)
    first.do(Settle())
    assert first.machine.hand_awards[1] == 1000
    assert pool_reading(Database(database.url)).pool == 0 == room_pool(database)
    verify_database(database, fork=False)


def test_a_reading_that_fails_half_way_leaves_no_half_walk(
    seeded: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The events were folded when the walk failed (any error): the next reading walks the room
    afresh rather than without their changes."""
    database = Database(seeded.database.url)

    def fails(*_args: object) -> None:
        raise RuntimeError("the connection dropped")

    with monkeypatch.context() as failing:
        failing.setattr(PoolWalk, "walk", fails)
        with pytest.raises(RuntimeError):
            pool_reading(database)
    assert pool_reading(database).pool == 1000
    database.dispose()
