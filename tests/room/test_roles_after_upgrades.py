"""A card room's roles after an upgrade: PIN checks recorded before their chain (migration 0008)
stop no login from signing in, and the roles' SQL, run by an administrator with psql or applied
by the owner, leaves nothing the other cannot run again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import text

from ofc_desk.service.verify import verify_database
from ofc_desk.storage.database import Database
from ofc_desk.storage.roles import RoomRoles, apply_roles, room_roles_sql
from ofc_desk.storage.roles_state import roles_state
from ofc_desk.storage.users import Role, create_accounts, sign_in
from tests.helpers.room_logins import as_login
from tests.helpers.room_scripts import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN

pytestmark = pytest.mark.postgres

OLD_CHECKS = (
    "INSERT INTO sign_in_attempts (name, role, outcome, at) VALUES"
    " ('Dana', 'dealer', 'refused', '2026-11-24T10:00:00.000000Z'),"
    " ('Dana', 'dealer', 'accepted', '2026-11-24T10:00:05.000000Z')"
)
"""Two PIN checks as a desk of migration 0005 to 0007 recorded them: no hash, no signature."""


def _apply(url: str, roles: RoomRoles) -> None:
    owner = Database(url, migrate=False)
    try:
        with owner.engine.connect() as connection:
            apply_roles(connection, room_roles_sql(connection, roles))
    finally:
        owner.dispose()


@pytest.fixture
def upgraded_room(room_url: str, roles: RoomRoles) -> Iterator[str]:
    """A room whose PIN checks began at migration 0007, upgraded to the newest schema, its
    accounts made and its roles applied."""
    owner = Database(room_url, migrate=False)
    try:
        owner.migrate("0007")
        with owner.engine.begin() as connection:
            connection.execute(text(OLD_CHECKS))
        owner.migrate()
        create_accounts(
            owner, [(SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN), (DEALER, Role.DEALER, DEALER_PIN)]
        )
    finally:
        owner.dispose()
    _apply(room_url, roles)
    yield room_url


def test_every_role_signs_in_after_pin_checks_from_before_their_chain(
    upgraded_room: str, roles: RoomRoles
) -> None:
    """The first chained check follows the genesis hash, in Python and in the row policy alike
    (before, the policy took the old row's empty hash for the head and refused every login)."""
    for login, name, pin in ((roles.table, DEALER, DEALER_PIN), (roles.floor, SUPERVISOR, SUPERVISOR_PIN)):
        desk = Database(as_login(upgraded_room, login))
        try:
            assert sign_in(desk, name, pin).name == name
        finally:
            desk.dispose()
    owner = Database(upgraded_room, migrate=False)
    try:
        assert verify_database(owner).set_aside == ()
        with owner.engine.connect() as connection:
            assert roles_state(connection, roles).current
    finally:
        owner.dispose()


def test_db_status_names_a_sign_in_policy_that_follows_an_unchained_check(
    upgraded_room: str, roles: RoomRoles
) -> None:
    owner = Database(upgraded_room, migrate=False)
    try:
        with owner.engine.begin() as connection:
            connection.execute(text("ALTER POLICY ofc_desk_chained ON sign_in_attempts WITH CHECK (true)"))
            state = roles_state(connection, roles)
    finally:
        owner.dispose()
    assert state.words == (
        "not current: the policy on sign_in_attempts does not follow the newest chained PIN check"
    )
