"""`Database`: one place that turns a URL into a migrated, durable SQLAlchemy engine.

Default: a SQLite file in the user's data folder, in WAL mode with `synchronous=FULL` so a commit
survives a power cut; foreign keys on (only a test run may lower `synchronous`: see
`connections.sqlite_synchronous`). Any SQLAlchemy URL works, e.g. `postgresql+psycopg://…`.
Each call opens its own short session (`with database.session() as s:`) and hands plain or
detached objects out, so nothing holds a connection between a dealer's actions. How a connection
is made is `connections`'; where the schema stands and what a login is told, `room_schema`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs
from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import DBAPIError

from ofc_desk.i18n import _
from ofc_desk.storage.connections import durable_engine, read_only_engine
from ofc_desk.storage.partial_indexes import give_partial_indexes_their_where
from ofc_desk.storage.room_schema import (
    SCHEMA_PRIVILEGES,
    STORED_REVISIONS,
    RoomNotReady,
    SchemaState,
    check_migratable,
    insufficient_privilege,
    schema_state,
    stored_revision,
    upgrade_hint,
)
from ofc_desk.storage.schema_revision import newest_file, upgrade

if TYPE_CHECKING:  # the ORM loads with the first session: opening a database reads without it
    from sqlalchemy.orm import Session, sessionmaker

APP_NAME = "ofc-desk"
DEFAULT_FILE = "ofc-desk.db"
MIGRATION_LOCK = 0x0FC0DE5C


def default_url() -> str:
    """The SQLite file in the user's data folder (created on first use)."""
    folder = Path(platformdirs.user_data_dir(APP_NAME))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / DEFAULT_FILE}"


class Database:
    def __init__(self, url: str | None = None, *, migrate: bool = True, read_only: bool = False) -> None:
        self.url = url or default_url()
        self.read_only = read_only
        """Opened from a SQLite file this user cannot write (a read-only copy): read as it stands."""
        self.engine: Engine = read_only_engine(self.url) if read_only else durable_engine(self.url)
        give_partial_indexes_their_where(self.engine.dialect.name)
        self._sessions: sessionmaker[Session] | None = None
        if migrate:
            self.migrate()

    def migrate(self, revision: str = "head") -> SchemaState:
        """Bring the schema to the newest migration (safe to run on every start; tests of a
        migration stop at the revision before it) and say where it stood before. A login that may
        not create in the schema (a card room's desk or floor) migrates nothing: on a schema that
        is not current it gets `RoomNotReady`, which says to ask the owner for `ofc-desk db
        upgrade`; so does a schema newer than this program knows."""
        if revision == "head":
            current = self._current_at_a_glance()
            if current is not None:
                return current
        with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # Desks starting together on a new card-room database: one migrates at a time, and
                # the others find the schema current once they get the lock.
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            elif connection.dialect.name == "sqlite":
                # pysqlite runs CREATE TABLE outside any transaction: a crash between two would
                # leave a schema no start could finish. One write transaction makes the schema
                # all or nothing and lets two desks starting together migrate one after the other.
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            before = schema_state(connection)
            if revision == "head" and before.current:
                return before
            check_migratable(connection, before, self.url)
            try:
                upgrade(connection, revision)
            except DBAPIError as error:
                if not insufficient_privilege(error):
                    raise
                cause, hint = failure_cause(error), upgrade_hint(self.url)
                raise RoomNotReady(
                    _("the schema could not be migrated ({cause}): {hint}").format(cause=cause, hint=hint)
                ) from None
        return before

    def _current_at_a_glance(self) -> SchemaState | None:
        """The schema's state if it is at the newest migration, read by one statement without the
        migration's lock (what nearly every start finds); None for anything else, which the locked
        check answers and says in words. A migration commits the schema and its revision in one
        transaction, so a revision read as the newest is one that no other start is still making."""
        with self.engine.connect() as connection:
            try:
                stored = connection.execute(text(STORED_REVISIONS)).scalars().all()
            except DBAPIError as error:  # no such table yet, or not this login's to read
                if error.connection_invalidated:
                    raise  # the database is out of reach: trying again would wait as long again
                return None
        newest = newest_file()
        return SchemaState(newest, newest, True) if stored == [newest] else None

    def schema_revision(self) -> str | None:
        """The migration the schema is at; None when the database holds no OFC Desk schema."""
        with self.engine.connect() as connection:
            return stored_revision(connection)

    def schema_state(self) -> SchemaState:
        """Where the schema stands against the newest migration this program knows."""
        with self.engine.connect() as connection:
            return schema_state(connection)

    def may_change_schema(self) -> bool:
        """Whether this login may create and migrate the schema: any writer of a SQLite file; on
        PostgreSQL, who may create in the schema (its owner, not a card room's desk or floor)."""
        with self.engine.connect() as connection:
            if connection.dialect.name != "postgresql":
                return True
            return bool(connection.execute(text(SCHEMA_PRIVILEGES)).one().create)

    @contextmanager
    def snapshot(self) -> Iterator[Session]:
        """A session whose every read sees the database as it stood at the first one, however much
        other desks record meanwhile: what checking a whole history needs. It writes nothing."""
        with self.engine.connect() as connection:
            if connection.dialect.name == "postgresql":
                connection = connection.execution_options(isolation_level="REPEATABLE READ")
            elif connection.dialect.name == "sqlite":
                # pysqlite reads outside any transaction, each statement afresh, unless told.
                connection.exec_driver_sql("BEGIN")
            from sqlalchemy.orm import Session

            with Session(bind=connection) as session:
                yield session

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A short session; commit explicitly, anything else is rolled back on exit."""
        if self._sessions is None:  # two threads at once make two alike: either serves
            from sqlalchemy.orm import sessionmaker

            self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        with self._sessions() as session:
            yield session

    def dispose(self) -> None:
        self.engine.dispose()


def failure_cause(error: Exception) -> str:
    """The database driver's own words for a failure when there are some (first line only), else
    SQLAlchemy's: what a person reads, without class names and web links."""
    return str(getattr(error, "orig", None) or error).splitlines()[0]


def has_table(session: Session, name: str) -> bool:
    """Whether the schema holds table `name`, asked of the database once a session: a report
    asked for each table it read, more queries than the rows it read (a schema changes only by a
    migration, and no session of a desk or a report lives across one)."""
    key = f"has table {name}"
    known = session.info.get(key)
    if known is None:
        known = session.info[key] = inspect(session.connection()).has_table(name)
    return bool(known)
