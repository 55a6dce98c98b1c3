"""The same room under another login: PostgreSQL's own URL for psycopg, a role's URL, and the
owner's set-up that lets the desks' and the floor's logins in."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote, urlencode

import psycopg
from sqlalchemy.engine import make_url

from ofc_desk.service.replays.replay import run_replay
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.roles import RoomRoles, apply_roles, room_roles_sql
from ofc_desk.storage.users import Role
from tests.helpers.room_scripts import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN, table_script


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


@contextmanager
def a_table_at_the_table_login(url: str, roles: RoomRoles) -> Iterator[Database]:
    """The room its owner set up at `url`, with table T1 recorded through the desks' login a hand
    in and still open: that login's database, disposed of afterwards."""
    owner_sets_up_the_room(url, roles)
    desks = Database(as_login(url, roles.table))
    try:
        run_replay(desks, table_script("T1", 1, extras=False, close=False), resume=False)
        yield desks
    finally:
        desks.dispose()


@contextmanager
def own_roles(server_url: str) -> Iterator[RoomRoles]:
    """The room's two roles under names of their own (roles are cluster-wide), for one test or
    one module's tests; dropped afterwards with every grant they hold in `server_url`'s database."""
    unique = f"ofc_test_{uuid.uuid4().hex[:10]}"
    names = RoomRoles(f"{unique}_table", f"{unique}_floor")
    try:
        yield names
    finally:
        with psycopg.connect(libpq(server_url), autocommit=True) as connection:
            for name in (names.table, names.floor):
                if connection.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (name,)).fetchone():
                    connection.execute(f"DROP OWNED BY {name}")
                    connection.execute(f"DROP ROLE {name}")
