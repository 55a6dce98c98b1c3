"""Where a room's schema stands against the newest migration this program knows (`SchemaState`),
and what to tell a login that cannot use it as it stands (`RoomNotReady`, `schema_sentence`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from sqlalchemy import Connection, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from ofc_desk import __version__
from ofc_desk.i18n import _
from ofc_desk.storage.schema_revision import newest_file, revision_fault, shipped_migrations

INSUFFICIENT_PRIVILEGE = "42501"
STORED_REVISIONS = "SELECT version_num FROM alembic_version"
"""Where Alembic keeps the schema's revision (one row; none before the first migration)."""


@dataclass(frozen=True)
class SchemaState:
    """Where a database's schema stands against the newest migration this program knows."""

    revision: str | None
    """The migration the schema is at; None: no OFC Desk tables yet."""
    newest: str
    known: bool
    """This program knows `revision` (False: a newer OFC Desk migrated the schema)."""

    @property
    def current(self) -> bool:
        return self.revision == self.newest

    def words(self) -> str:
        if self.revision is None:
            return _("no OFC Desk tables yet")
        if self.current:
            return _("revision {revision}, the newest this OFC Desk ({version}) knows").format(
                revision=self.revision, version=__version__
            )
        if self.known:
            return _("revision {revision}, older than this OFC Desk's {newest}").format(
                revision=self.revision, newest=self.newest
            )
        newer = _("newer than this OFC Desk ({version}), which knows up to {newest}").format(
            version=__version__, newest=self.newest
        )
        return _("revision {revision}, {newer}").format(revision=self.revision, newer=newer)


class RoomNotReady(Exception):
    """This login cannot use the database as it stands (a schema to be created or migrated by
    its owner, one newer than this program, tables it may not read); the message says what to do."""


@cache
def _revisions() -> tuple[str, frozenset[str]]:
    """The newest migration shipped with this program and every one it knows, read once a process:
    Alembic reads every migration script again for each upgrade, which most of the time has
    nothing to do."""
    scripts = shipped_migrations()
    newest = scripts.get_current_head()
    assert newest is not None, "the migrations have one head"
    return newest, frozenset(script.revision for script in scripts.walk_revisions())


def newest_revision() -> str:
    """The newest migration this program ships."""
    return _revisions()[0]


def schema_state(connection: Connection) -> SchemaState:
    """Where the schema stands; `RoomNotReady` when this login may not even read where (a card
    room's login before the owner applied the roles)."""
    try:
        revision = _current_revision(connection)
    except DBAPIError as error:
        if not insufficient_privilege(error):
            raise
        raise RoomNotReady(_may_not_read(connection)) from None
    if revision is not None and revision == newest_file():
        return SchemaState(revision, revision, True)  # current: no migration need be read
    newest, known = _revisions()
    return SchemaState(revision, newest, revision is None or revision in known)


def _current_revision(connection: Connection) -> str | None:
    if connection.dialect.name != "postgresql":
        return stored_revision(connection)
    # A refusal rolls back to the savepoint only, so the transaction can still say who was refused.
    with connection.begin_nested():
        return stored_revision(connection)


def stored_revision(connection: Connection) -> str | None:
    """What `alembic_version` holds (None: no such table, or no row), read as Alembic reads it,
    without importing Alembic at each start."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    stored = connection.execute(text(STORED_REVISIONS)).scalars().all()
    if len(stored) > 1:  # Alembic refuses to say one revision, in its own words
        from alembic.runtime.migration import MigrationContext

        return MigrationContext.configure(connection).get_current_revision()
    return str(stored[0]) if stored else None


def insufficient_privilege(error: DBAPIError) -> bool:
    """PostgreSQL refused the statement to this login (a card room's role lacks the grant)."""
    return getattr(error.orig, "sqlstate", None) == INSUFFICIENT_PRIVILEGE


def _login(connection: Connection) -> str:
    return str(connection.scalar(text("SELECT current_user")))


def _may_not_read(connection: Connection) -> str:
    return _(
        "the login {login} may not read the room's tables: the room's owner applies the roles"
        " (`ofc-desk db roles --db URL --apply`) and makes this login a member of"
        " ofc_desk_table (a desk) or ofc_desk_floor (the floor)"
    ).format(login=_login(connection))


def owner_url(url: str) -> str:
    """The URL to give the room's owner: this one with OWNER for the login, no password."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return parsed.render_as_string(hide_password=True)
    return parsed.set(username="OWNER", password=None).render_as_string(hide_password=True)


def upgrade_hint(url: str) -> str:
    return _("ask the room's owner to run `ofc-desk db upgrade --db {url}`").format(url=owner_url(url))


def schema_sentence(state: SchemaState, url: str) -> str:
    """What a schema that is not current means for whoever reads or records in the room through
    `url`, and what to do about it."""
    found = _schema_found(state)
    if not state.known:
        return _("{found}: install the newer OFC Desk here").format(found=found)
    if make_url(url).get_backend_name() == "sqlite":
        return _(
            "{found}: the next desk started on this file makes it so (or `ofc-desk db upgrade --db {url}`)"
        ).format(found=found, url=url)
    return f"{found}: {upgrade_hint(url)}"


def _schema_found(state: SchemaState) -> str:
    if state.revision is None:
        return _("the room's database has no OFC Desk tables yet")
    if not state.known:
        return _("the room's schema is at {state}").format(state=state.words())
    needed = _("this OFC Desk ({version}) needs {newest}").format(version=__version__, newest=state.newest)
    return _("the room's schema is at revision {revision} and {needed}").format(
        revision=state.revision, needed=needed
    )


SCHEMA_PRIVILEGES = """
SELECT coalesce(has_schema_privilege(current_schema(), 'CREATE'), false) AS create,
       coalesce(has_schema_privilege(current_schema(), 'USAGE'), false) AS usage
"""


def check_migratable(connection: Connection, state: SchemaState, url: str) -> None:
    """Refuse, in words, a migration this program or this login must not run."""
    if not state.known:
        raise RoomNotReady(schema_sentence(state, url))
    if state.revision is not None:
        fault = revision_fault(connection)
        if fault is not None:
            raise RoomNotReady(
                _("{fault}; nothing was migrated: the owner must set the revision right first").format(
                    fault=fault
                )
            )
    if connection.dialect.name != "postgresql":
        return
    may = connection.execute(text(SCHEMA_PRIVILEGES)).one()
    if may.create:
        return
    if not may.usage:  # the schema's tables are hidden from this login: none seemed to be there
        raise RoomNotReady(_may_not_read(connection))
    login = _login(connection)
    raise RoomNotReady(
        _("{found}, and the login {login} may not change it: {hint}").format(
            found=_schema_found(state), login=login, hint=upgrade_hint(url)
        )
    )
