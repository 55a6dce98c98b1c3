"""The same room under another login: PostgreSQL's own URL for psycopg, a role's URL, and the
owner's set-up that lets the desks' and the floor's logins in."""

from __future__ import annotations

from urllib.parse import quote, urlencode

from sqlalchemy.engine import make_url

from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.roles import RoomRoles, apply_roles, room_roles_sql
from ofc_desk.storage.users import Role
from tests.helpers.room_scripts import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN


def libpq(url: str) -> str:
    """The URL as libpq reads it. Its query is spelt again with `%20` for a space: SQLAlchemy spells
    one `+`, which libpq keeps as a `+` (a durable test's two `options` became one search_path)."""
    parsed = make_url(url).set(drivername="postgresql")
    base = parsed.set(query={}).render_as_string(hide_password=False)
    query = urlencode(parsed.query, doseq=True, quote_via=quote)
    return f"{base}?{query}" if query else base


def as_login(url: str, login: str) -> str:
    return make_url(url).set(username=login).render_as_string(hide_password=False)


def owner_sets_up_the_room(url: str, roles: RoomRoles, *, times: int = 1) -> None:
    """The owner, at `url` (a migrated room), creates the supervisor's and the dealer's accounts,
    then applies the roles `times` times (the roles' SQL runs again as it ran first)."""
    owner = Database(url)
    create_accounts(owner, [(SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN), (DEALER, Role.DEALER, DEALER_PIN)])
    with owner.engine.connect() as connection:
        for _ in range(times):
            apply_roles(connection, room_roles_sql(connection, roles))
    owner.dispose()
