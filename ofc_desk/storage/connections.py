"""How each connection to a room's database is made: SQLite in WAL mode with `synchronous=FULL`
and foreign keys on (a test run may lower `synchronous`), a SQLite file this user cannot write read
as it stands, and PostgreSQL's links given libpq's timeouts so a dropped one fails instead of
holding a desk for minutes."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Dialect, Engine, Select, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.engine.cursor import CursorFetchStrategy
from sqlalchemy.types import TypeEngine

SQLITE_BUSY_SECONDS = 30
"""How long a SQLite connection waits for a file another desk is writing before it gives up."""
_WAL_RETRY_SECONDS = 0.02
TEST_SYNCHRONOUS_VARIABLE = "OFC_DESK_TEST_SQLITE_SYNCHRONOUS"
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


def durable_engine(url: str) -> Engine:
    """The engine a desk writes through: SQLite set up at each connection (`_sqlite_pragmas`),
    PostgreSQL with libpq's timeouts (`_link_timeouts`), any other URL as SQLAlchemy makes it."""
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


def connect_read_only(path: Path) -> sqlite3.Connection:
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


def read_only_engine(url: str) -> Engine:
    path = Path(str(make_url(url).database))
    return create_engine("sqlite://", creator=lambda: connect_read_only(path))


SESSION_ID = "session_id"
"""The bound parameter of a statement built once that reads one session's rows: building a select
and having SQLAlchemy match its columns to the cached compiled one's cost about 3 million
instructions a read, six reads a session, as much as `verify`'s whole check of ten hands."""


def driver_rows(
    connection: Connection, query: Select[*tuple[Any, ...]], parameters: Mapping[str, Any] | None = None
) -> Sequence[Any]:
    """`query`'s rows as the database's driver gives them, plain tuples: `verify` reads a
    session's events, marks, signatures and derived rows so, a row object of SQLAlchemy's made for
    each (and each read again into `verify`'s named tuple) having cost 2 % of its work a hand.
    Executed by SQLAlchemy as any query (its compiled form cached, in the connection's transaction,
    so its snapshot); only the rows are fetched from the driver's cursor, where SQLAlchemy would
    hand the driver's values on as they are (no selected column's type converts what it reads, as
    none of those does) and fetches them plainly. Otherwise read by SQLAlchemy: the same rows.
    `parameters`: the values of the query's bound parameters (a statement built once, a session's
    id bound at each read)."""
    dialect = connection.dialect
    if any(_converts(column.type, dialect) for column in query.selected_columns):
        return connection.execute(query, parameters).all()
    result = connection.execute(query, parameters)
    if type(result.cursor_strategy) is not CursorFetchStrategy:  # rows buffered, or none (no cursor)
        return result.all()
    try:
        return result.cursor.fetchall()
    finally:
        result.close()


def _converts(kind: TypeEngine[Any], dialect: Dialect) -> bool:
    return kind.dialect_impl(dialect).result_processor(dialect, None) is not None
