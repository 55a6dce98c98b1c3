"""`Database`: one place that turns a URL into a migrated, durable SQLAlchemy engine.

Default: a SQLite file in the user's data folder, in WAL mode with `synchronous=FULL` so a commit
survives a power cut; foreign keys on (only a test run may lower `synchronous`: see
`sqlite_synchronous`). Any SQLAlchemy URL works, e.g. `postgresql+psycopg://…`.
Each call opens its own short session (`with database.session() as s:`) and hands plain or
detached objects out, so nothing holds a connection between a dealer's actions.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import platformdirs
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

APP_NAME = "ofc-desk"
DEFAULT_FILE = "ofc-desk.db"
MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATION_LOCK = 0x0FC0DE5C
TEST_SYNCHRONOUS_VARIABLE = "OFC_DESK_TEST_SQLITE_SYNCHRONOUS"
EVENTS_CHANNEL = "ofc_desk_events"
"""PostgreSQL's NOTIFY channel: the session id of every table that records an event."""


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
        self.engine: Engine = _read_only_engine(self.url) if read_only else _create_engine(self.url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        if migrate:
            self.migrate()

    def migrate(self, revision: str = "head") -> None:
        """Bring the schema to the newest migration (safe to run on every start); tests of a
        migration stop at the revision before it."""
        config = _alembic_config()
        with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # Two desks starting together on a new card-room database: one migrates at a time.
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            elif connection.dialect.name == "sqlite":
                # pysqlite runs CREATE TABLE outside any transaction: a crash between two would
                # leave a schema no start could finish. One write transaction makes the schema
                # all or nothing and lets two desks starting together migrate one after the other.
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            if revision == "head" and _at_head(connection):
                return
            config.attributes["connection"] = connection
            command.upgrade(config, revision)

    def schema_revision(self) -> str | None:
        """The migration the schema is at; None when the database holds no OFC Desk schema."""
        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()

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
            with Session(bind=connection) as session:
                yield session

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A short session; commit explicitly, anything else is rolled back on exit."""
        with self._sessions() as session:
            yield session

    def dispose(self) -> None:
        self.engine.dispose()


def notify_table_changed(session: Session, session_id: int) -> None:
    """On PostgreSQL, tell listeners (the floor view) that table `session_id` recorded an event.
    NOTIFY is transactional: it is delivered when the event commits, and never if it rolls back.
    The payload is "schema:session": a channel is heard across the whole server, and two rooms
    (or a room and its training copy) may share one."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(
            text("SELECT pg_notify(:channel, current_schema() || ':' || :session_id)"),
            {"channel": EVENTS_CHANNEL, "session_id": str(session_id)},
        )


def failure_cause(error: Exception) -> str:
    """The database driver's own words for a failure when there are some (first line only), else
    SQLAlchemy's: what a person reads, without class names and web links."""
    return str(getattr(error, "orig", None) or error).splitlines()[0]


class NotADeskDatabase(Exception):
    """There is no OFC Desk database where a command that only reads was pointed."""


def open_existing(url: str | None) -> Database:
    """An existing OFC Desk database, opened only to read (report, verify): never created,
    migrated or otherwise changed, so a mistyped path or someone else's file stays as it was.
    SQLAlchemy's errors (a driver not installed, a server not answering) pass through."""
    url = url or default_url()
    parsed = make_url(url)
    read_only = False
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        path = Path(str(parsed.database))
        _check_sqlite_file(path)
        read_only = not (os.access(path, os.W_OK) and os.access(path.resolve().parent, os.W_OK))
    database = Database(url, migrate=False, read_only=read_only)
    if database.schema_revision() is None:
        database.dispose()
        raise NotADeskDatabase(f"{parsed.render_as_string(hide_password=True)} is not an OFC Desk database")
    return database


def _check_sqlite_file(path: Path) -> None:
    """Refuse a missing file or one that is not ours, looking without writing: a connection
    through SQLAlchemy would switch any SQLite file to WAL."""
    if not path.is_file():
        raise NotADeskDatabase(f"no database at {path}")
    if not os.access(path, os.R_OK):
        raise NotADeskDatabase(f"{path} cannot be read (permission denied)")
    try:
        with closing(_connect_read_only(path)) as connection:
            found = connection.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
            ).fetchone()
    except sqlite3.DatabaseError:
        found = None
    if found is None:
        raise NotADeskDatabase(f"{path} is not an OFC Desk database")


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot write. A WAL database in a folder this user cannot write cannot
    make the shared-memory file even a reader needs: such a copy is read as immutable (nothing can
    be writing it, as nobody here can)."""
    uri = f"{path.resolve().as_uri()}?mode=ro"
    connection = sqlite3.connect(uri, uri=True)
    try:
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        connection.close()
        connection = sqlite3.connect(f"{uri}&immutable=1", uri=True)
    return connection


def _read_only_engine(url: str) -> Engine:
    path = Path(str(make_url(url).database))
    return create_engine("sqlite://", creator=lambda: _connect_read_only(path))


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@cache
def _head_revisions() -> frozenset[str]:
    """The newest migrations shipped with this program, read once a process: Alembic reads every
    migration script again for each upgrade, which most of the time has nothing to do."""
    return frozenset(ScriptDirectory.from_config(_alembic_config()).get_heads())


def _at_head(connection: Connection) -> bool:
    """Whether the schema stands at the newest migrations already, so the upgrade is skipped."""
    return frozenset(MigrationContext.configure(connection).get_current_heads()) == _head_revisions()


def _create_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"timeout": 30})
    event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={sqlite_synchronous()}")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def sqlite_synchronous() -> str:
    """FULL: each commit is on the disk before the action is acknowledged. A test suite may set
    OFC_DESK_TEST_SQLITE_SYNCHRONOUS to OFF or NORMAL, which a process dying cannot tell apart
    but a power cut can: most tests check what is recorded, not that it survives the machine, and
    on a disk slow to sync, waiting for it is most of a suite's time. The tests of dying processes
    keep FULL."""
    lowered = os.environ.get(TEST_SYNCHRONOUS_VARIABLE, "").strip().upper()
    return lowered if lowered in ("OFF", "NORMAL") else "FULL"
