"""One table, one desk at a card room's logins (issue 34): the desks' role claims a table, takes
it over with a supervisor's PIN and lets it go, which its grants on `desk_holds` allow and nothing
more (no DELETE: a hold let go keeps its row)."""

from __future__ import annotations

import psycopg
import pytest
from psycopg import errors

from ofc_desk.service import list_open_tables
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.room.desk_holds import TableHeld, TakenElsewhere, ThisDesk
from ofc_desk.service.table.commands import HandOver, StartHand
from ofc_desk.storage.roles import RoomRoles
from ofc_desk.storage.users import sign_in
from tests.helpers.room_logins import a_table_at_the_table_login, as_login, libpq
from tests.helpers.room_scripts import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN

pytestmark = pytest.mark.postgres


def test_the_table_role_claims_takes_over_and_lets_go_of_a_table(
    migrated_room_url: str, roles: RoomRoles
) -> None:
    with a_table_at_the_table_login(migrated_room_url, roles) as desks:
        dealer = sign_in(desks, DEALER, DEALER_PIN)
        first = TableService.resume(desks, 1, dealer, ThisDesk("PIT-1", "one"))
        first.do(StartHand())
        with pytest.raises(TableHeld, match="T1 is live at desk PIT-1"):
            TableService.resume(desks, 1, dealer, ThisDesk("PIT-2", "two"))
        second = TableService.take_over(
            desks, 1, dealer, ThisDesk("PIT-2", "two"), SUPERVISOR, SUPERVISOR_PIN
        )
        with pytest.raises(TakenElsewhere):
            first.do(HandOver("Rita"))
        second.release()
        assert list_open_tables(desks)[0].holder is None
        TableService.resume(desks, 1, dealer, ThisDesk("PIT-3", "three"))
        verify_database(desks, fork=False)
    with (
        psycopg.connect(libpq(as_login(migrated_room_url, roles.table))) as c,
        pytest.raises(errors.InsufficientPrivilege),
    ):
        c.execute("DELETE FROM desk_holds")
