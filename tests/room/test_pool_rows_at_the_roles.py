"""The room's jackpot pool at the card room's logins (issue 35): a change of the pool is held to its
event by PostgreSQL (its kind, hand, sign and a seed's chips, once per event), and what the
database cannot tell (a drop a table without a drop never made) the walk of the events sets aside."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import text
from sqlalchemy.exc import ProgrammingError

from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.oversight.floor_decisions import seed_at_the_floor
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.room import room_pool as pool_rows_module
from ofc_desk.service.store.pool_ledger import room_pool
from ofc_desk.service.table.commands import Rebuy, SeedJackpot, Settle
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.storage.database import Database
from ofc_desk.storage.roles import RoomRoles
from ofc_desk.storage.roles_state import roles_state
from ofc_desk.storage.users import sign_in
from tests.helpers.jackpot_awards import award_replay_script, show_the_losing_hand
from tests.helpers.pool_attacks import add_a_phantom_row_beside_each_event
from tests.helpers.room_logins import as_login, owner_sets_up_the_room
from tests.helpers.room_scripts import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN

pytestmark = pytest.mark.postgres


@pytest.fixture
def room(migrated_room_url: str, roles: RoomRoles) -> Iterator[str]:
    owner_sets_up_the_room(migrated_room_url, roles)
    yield migrated_room_url


@pytest.fixture
def desk(room: str, roles: RoomRoles) -> Iterator[TableService]:
    """T1 at the table's login, seeded with 1,000 and one award paid (a 4-chip drop), between hands."""
    database = Database(as_login(room, roles.table))
    run_replay(database, award_replay_script("T1", seed=1000), resume=False)
    yield TableService.resume(database, 1, sign_in(database, DEALER, DEALER_PIN))
    database.dispose()


def test_a_phantom_row_beside_a_rebuy_is_refused_at_the_table_role(
    desk: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    pool = room_pool(desk.database)
    add_a_phantom_row_beside_each_event(monkeypatch)
    with pytest.raises(ProgrammingError, match='row-level security policy for table "jackpot_moves"'):
        desk.do(Rebuy("Ann", 50))
    monkeypatch.undo()
    assert room_pool(desk.database) == pool
    assert verify_database(desk.database).set_aside == ()


def test_a_second_drop_beside_a_settlement_is_refused_at_the_table_role(
    desk: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One change of each kind per event: a phantom drop written before the hand's own drop has
    the settlement refused, and the desk settles the hand again without it."""
    desk.do(SeedJackpot(1000, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    show_the_losing_hand(desk)
    add_a_phantom_row_beside_each_event(monkeypatch, kind="drop")
    with pytest.raises(ProgrammingError, match="row-level security"):
        desk.do(Settle())  # the hand's own drop after the phantom: one drop per event
    monkeypatch.undo()
    desk.do(Settle())
    fresh = Database(desk.database.url)
    assert room_pool(desk.database) == room_pool(fresh) < 1000  # the award was paid, once
    fresh.dispose()
    assert verify_database(desk.database).set_aside == ()


def test_the_floor_role_may_not_store_a_seed_other_than_its_event_says(
    room: str, roles: RoomRoles, desk: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, record_moves = room_pool(desk.database), pool_rows_module.record_moves

    def tenfold(session, session_id, event_id, pool, moves):  # type: ignore[no-untyped-def]
        bigger = [type(move)(move.kind, move.chips * 10, move.hand_number) for move in moves]
        return record_moves(session, session_id, event_id, pool, bigger)

    monkeypatch.setattr(pool_rows_module, "record_moves", tenfold)
    floor = Database(as_login(room, roles.floor))
    try:
        # The floor's decisions say the database's refusal in words (`unrecorded`).
        with pytest.raises(ActionRefused, match=r"the database refused it .*row-level security"):
            seed_at_the_floor(floor, 1, 1500, SUPERVISOR, SUPERVISOR_PIN)
    finally:
        floor.dispose()
    assert room_pool(desk.database) == before
    owner = Database(room)
    try:
        with owner.engine.connect() as connection:
            assert roles_state(connection, roles).current
            # The policy as roles applied before issue 35 made it: the event alone.
            connection.execute(text("DROP POLICY ofc_desk_derived ON jackpot_moves"))
            connection.execute(
                text(
                    "CREATE POLICY ofc_desk_derived ON jackpot_moves"
                    f" FOR INSERT TO {roles.table} WITH CHECK (true)"
                )
            )
            assert "the policy on jackpot_moves does not hold a change to its event" in (
                roles_state(connection, roles).words
            )
    finally:
        owner.dispose()
