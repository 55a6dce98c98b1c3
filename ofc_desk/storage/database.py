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
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import platformdirs
from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from ofc_desk import __version__
from ofc_desk.i18n import _
from ofc_desk.storage.models import give_partial_indexes_their_where
from ofc_desk.storage.schema_revision import alembic_config, newest_file, revision_fault, shipped_migrations

APP_NAME = "ofc-desk"
DEFAULT_FILE = "ofc-desk.db"
MIGRATION_LOCK = 0x0FC0DE5C
ACCOUNTS_LOCK = 0x0FC0DEAC
"""PostgreSQL advisory lock of the accounts chain's appends (`hold_append_lock`)."""
JACKPOT_LOCK = 0x0FC0DEAD
"""PostgreSQL advisory lock of the room's jackpot pool: one change of it at a time (`hold_append_lock`)."""
INSUFFICIENT_PRIVILEGE = "42501"
SQLITE_BUSY_SECONDS = 30
"""How long a SQLite connection waits for a file another desk is writing before it gives up."""
_WAL_RETRY_SECONDS = 0.02
TEST_SYNCHRONOUS_VARIABLE = "OFC_DESK_TEST_SQLITE_SYNCHRONOUS"
EVENTS_CHANNEL = "ofc_desk_events"
"""PostgreSQL's NOTIFY channel: the session id of every table that records an event."""


def default_url() -> str:
    """The SQLite file in the user's data folder (created on first use)."""
    folder = Path(platformdirs.user_data_dir(APP_NAME))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / DEFAULT_FILE}"


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


class Database:
    def __init__(self, url: str | None = None, *, migrate: bool = True, read_only: bool = False) -> None:
        self.url = url or default_url()
        self.read_only = read_only
        """Opened from a SQLite file this user cannot write (a read-only copy): read as it stands."""
        self.engine: Engine = _read_only_engine(self.url) if read_only else _create_engine(self.url)
        give_partial_indexes_their_where(self.engine.dialect.name)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        if migrate:
            self.migrate()

    def migrate(self, revision: str = "head") -> SchemaState:
        """Bring the schema to the newest migration (safe to run on every start; tests of a
        migration stop at the revision before it) and say where it stood before. A login that may
        not create in the schema (a card room's desk or floor) migrates nothing: on a schema that
        is not current it gets `RoomNotReady`, which says to ask the owner for `ofc-desk db
        upgrade`; so does a schema newer than this program knows."""
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
            _check_migratable(connection, before, self.url)
            from alembic import command  # only when there is a migration to run

            try:
                command.upgrade(alembic_config(connection), revision)
            except DBAPIError as error:
                if not insufficient_privilege(error):
                    raise
                cause, hint = failure_cause(error), upgrade_hint(self.url)
                raise RoomNotReady(
                    _("the schema could not be migrated ({cause}): {hint}").format(cause=cause, hint=hint)
                ) from None
        return before

    def schema_revision(self) -> str | None:
        """The migration the schema is at; None when the database holds no OFC Desk schema."""
        with self.engine.connect() as connection:
            return _stored_revision(connection)

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
            return bool(connection.execute(text(_SCHEMA_PRIVILEGES)).one().create)

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


def open_existing(url: str | None, *, new_room: bool = False) -> Database:
    """An existing OFC Desk database, opened only to read (report, verify): never created,
    migrated or otherwise changed, so a mistyped path or someone else's file stays as it was.
    SQLAlchemy's errors (a driver not installed, a server not answering) pass through.
    `new_room` (the floor): a database that holds no tables at all yet is accepted too, a room
    whose schema is still to come (its owner's `ofc-desk db upgrade`, or on a SQLite file the first
    desk); `RoomNotReady` when this login may not read the room's tables."""
    url = url or default_url()
    parsed = make_url(url)
    read_only = False
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        path = Path(str(parsed.database))
        _check_sqlite_file(path, new_room=new_room)
        read_only = not (os.access(path, os.W_OK) and os.access(path.resolve().parent, os.W_OK))
    database = Database(url, migrate=False, read_only=read_only)
    try:
        ours = _holds_a_room(database, new_room=new_room)
    except BaseException:
        database.dispose()
        raise
    if not ours:
        database.dispose()
        raise NotADeskDatabase(
            _("{database} is not an OFC Desk database").format(
                database=parsed.render_as_string(hide_password=True)
            )
        )
    return database


def _holds_a_room(database: Database, *, new_room: bool) -> bool:
    if not new_room:
        return database.schema_revision() is not None
    with database.engine.connect() as connection:
        # Tables first: a migration committing between the two reads shows its tables and its
        # revision together to the second read, never tables without the revision.
        return not inspect(connection).get_table_names() or schema_state(connection).revision is not None


def _check_sqlite_file(path: Path, *, new_room: bool = False) -> None:
    """Refuse a missing file or one that is not ours (with `new_room`, a file with no tables at
    all is a room still to be made), looking without writing: a connection through SQLAlchemy
    would switch any SQLite file to WAL."""
    if not path.is_file():
        raise NotADeskDatabase(_("no database at {path}").format(path=path))
    if not os.access(path, os.R_OK):
        raise NotADeskDatabase(_("{path} cannot be read (permission denied)").format(path=path))
    refused = NotADeskDatabase(_("{path} is not an OFC Desk database").format(path=path))
    try:
        with closing(_connect_read_only(path)) as connection:
            found = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    except sqlite3.DatabaseError:
        raise refused from None
    tables = {name for (name,) in found}
    if "alembic_version" not in tables and (tables or not new_room):
        raise refused


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


def has_table(session: Session, name: str) -> bool:
    """Whether the schema holds table `name`, asked of the database once a session: a report
    asked for each table it read, more queries than the rows it read (a schema changes only by a
    migration, and no session of a desk or a report lives across one)."""
    key = f"has table {name}"
    known = session.info.get(key)
    if known is None:
        known = session.info[key] = inspect(session.connection()).has_table(name)
    return bool(known)


def _current_revision(connection: Connection) -> str | None:
    if connection.dialect.name != "postgresql":
        return _stored_revision(connection)
    # A refusal rolls back to the savepoint only, so the transaction can still say who was refused.
    with connection.begin_nested():
        return _stored_revision(connection)


def _stored_revision(connection: Connection) -> str | None:
    """What `alembic_version` holds (None: no such table, or no row), read as Alembic reads it,
    without importing Alembic at each start."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    stored = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
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


_SCHEMA_PRIVILEGES = """
SELECT coalesce(has_schema_privilege(current_schema(), 'CREATE'), false) AS create,
       coalesce(has_schema_privilege(current_schema(), 'USAGE'), false) AS usage
"""


def _check_migratable(connection: Connection, state: SchemaState, url: str) -> None:
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
    may = connection.execute(text(_SCHEMA_PRIVILEGES)).one()
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


def hold_append_lock(session: Session, key: int) -> None:
    """Make this session's transaction the only one appending to a chain until it ends, before it
    reads the chain's last link: two desks appending at once would otherwise both follow the same
    link and one would die on the primary key. PostgreSQL: a transaction-scoped advisory lock on
    `key` (taking it again holds it still). SQLite: the database's write lock, taken now (BEGIN
    IMMEDIATE) rather than at the first INSERT, so every read after it sees every commit before
    it. Either waits while another writer holds it."""
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})
    # pysqlite opens a transaction only before its first INSERT or UPDATE, which takes the write
    # lock: a transaction already open here holds it.
    elif connection.dialect.name == "sqlite" and not _in_transaction(connection):
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def share_append_lock(session: Session, key: int) -> None:
    """Hold off appends to a chain (`hold_append_lock`) while this transaction reads its head and
    until it ends, without holding off other readers: what a signature at a table takes before it
    names the accounts head, so that an account event recording the room's position never misses
    an event signed under the head before it. PostgreSQL: a shared transaction-scoped advisory
    lock. SQLite: the write lock, which a signing transaction holds already (its event is
    flushed)."""
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock_shared(:key)"), {"key": key})


def _in_transaction(connection: Connection) -> bool:
    return bool(getattr(connection.connection.dbapi_connection, "in_transaction", False))


CONNECT_TIMEOUT_SECONDS = 10
"""How long a new connection to PostgreSQL may take before the desk says the database did not
answer (libpq's `connect_timeout`; it counts at least 2 s). Read at each new connection."""
KEEPALIVE_IDLE_SECONDS = 10
KEEPALIVE_INTERVAL_SECONDS = 5
KEEPALIVE_PROBES = 3
"""An idle link is probed after 10 s, every 5 s, and given up after 3 probes unanswered."""
TCP_USER_TIMEOUT_MILLISECONDS = 30_000
"""Data sent and not acknowledged for 30 s drops the link (Linux; libpq 12 and later)."""
_TCP_USER_TIMEOUT_LIBPQ = 120000


def _create_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        engine = create_engine(url, pool_pre_ping=True)
        event.listen(engine, "do_connect", _link_timeouts)
        return engine
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_SECONDS})
    event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        _enter_wal(cursor)
        cursor.execute(f"PRAGMA synchronous={sqlite_synchronous()}")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def _enter_wal(cursor: sqlite3.Cursor) -> None:
    """Put the file in WAL mode (it stays so: later connections find it there). Desks opening a new
    file together each try the switch, and SQLite answers a switch that would deadlock with 'database
    is locked' at once, without waiting its busy timeout: such an answer is tried again until the
    timeout has passed, as any other wait for the file is."""
    deadline = time.monotonic() + SQLITE_BUSY_SECONDS
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() >= deadline:
                raise
            time.sleep(_WAL_RETRY_SECONDS)


def sqlite_synchronous() -> str:
    """FULL: each commit is on the disk before the action is acknowledged. A test suite may set
    OFC_DESK_TEST_SQLITE_SYNCHRONOUS to OFF or NORMAL, which a process dying cannot tell apart
    but a power cut can: most tests check what is recorded, not that it survives the machine, and
    on a disk slow to sync, waiting for it is most of a suite's time. The tests of dying processes
    keep FULL."""
    lowered = os.environ.get(TEST_SYNCHRONOUS_VARIABLE, "").strip().upper()
    return lowered if lowered in ("OFF", "NORMAL") else "FULL"


def _link_timeouts(dialect: Any, _record: Any, _args: Any, settings: dict[str, Any]) -> None:
    """libpq's settings that keep a dropped link from holding a desk for minutes, given to each new
    connection: one that does not answer in time, and one that went silent, fail. A URL's own
    settings (already in `settings`) stand."""
    wanted = {
        "connect_timeout": CONNECT_TIMEOUT_SECONDS,
        "keepalives": 1,
        "keepalives_idle": KEEPALIVE_IDLE_SECONDS,
        "keepalives_interval": KEEPALIVE_INTERVAL_SECONDS,
        "keepalives_count": KEEPALIVE_PROBES,
    }
    if _libpq_version(dialect.dbapi) >= _TCP_USER_TIMEOUT_LIBPQ:
        wanted["tcp_user_timeout"] = TCP_USER_TIMEOUT_MILLISECONDS
    for name, value in wanted.items():
        settings.setdefault(name, value)


def _libpq_version(driver: Any) -> int:
    """The version of the libpq the driver (psycopg or psycopg2) uses, as libpq numbers it; 0 when
    it does not say."""
    pq = getattr(driver, "pq", None)
    if pq is not None:
        return int(pq.version())
    return int(getattr(driver, "__libpq_version__", 0))
