"""Entries bound to their table's desk at the card room's table login (issue 35): PostgreSQL cannot
tell one desk from another (they share the login), so an entry appended to another table's live
hand is stored, and `verify` names it by its missing mark; a mark is held to its event's own
transaction, so none can be added to an entry later."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from psycopg import errors
from sqlalchemy.engine import make_url

from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.table.commands import StartHand
from ofc_desk.service.table.games.chinese.commands import Show
from ofc_desk.storage.database import Database
from ofc_desk.storage.roles import RoomRoles
from ofc_desk.storage.users import sign_in
from tests.helpers.chinese_hands import ROWS
from tests.helpers.jackpot_awards import LOSER, WINNER, award_replay_script
from tests.helpers.room_logins import as_login, owner_sets_up_the_room
from tests.helpers.room_scripts import DEALER, DEALER_PIN

pytestmark = pytest.mark.postgres


@pytest.fixture
def desk(migrated_room_url: str, roles: RoomRoles) -> Iterator[TableService]:
    """T1 at the table's login, its second hand dealt and Ann's hand shown."""
    owner_sets_up_the_room(migrated_room_url, roles)
    database = Database(as_login(migrated_room_url, roles.table))
    run_replay(database, award_replay_script("T1", seed=None), resume=False)
    service = TableService.resume(database, 1, sign_in(database, DEALER, DEALER_PIN))
    service.do(StartHand())
    service.do(Show("Ann", LOSER, ROWS))
    yield service
    database.dispose()


def test_a_showdown_appended_at_another_table_login_is_named(desk: TableService) -> None:
    verify_database(desk.database)
    elsewhere = TableService.resume(Database(desk.database.url), desk.session_id, DEALER)
    elsewhere.do(Show("Bob", WINNER, ROWS))
    with pytest.raises(VerifyFault, match="shown by Dana carries no mark of the desk that holds the table"):
        verify_database(desk.database)
    elsewhere.database.dispose()


def test_a_mark_is_refused_but_in_its_entry_s_own_transaction(desk: TableService) -> None:
    """The table's login may not mark an entry already stored: a mark comes with its entry."""
    as_the_table = make_url(desk.database.url).set(drivername="postgresql")
    with (
        psycopg.connect(as_the_table.render_as_string(hide_password=False)) as connection,
        pytest.raises(errors.InsufficientPrivilege, match="row-level security"),
    ):
        connection.execute(
            "INSERT INTO entry_marks (session_id, event_id, seq, mark)"
            " SELECT session_id, id, seq, repeat('ab', 32) FROM events WHERE kind = 'shown'"
        )
