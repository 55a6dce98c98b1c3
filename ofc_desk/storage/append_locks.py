"""The locks of the room's chains: one transaction at a time appends to a chain (the accounts, the
room's jackpot pool), and a signature names a head no append can slip under."""

from __future__ import annotations

from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

ACCOUNTS_LOCK = 0x0FC0DEAC
"""PostgreSQL advisory lock of the accounts chain's appends (`hold_append_lock`)."""
JACKPOT_LOCK = 0x0FC0DEAD
"""PostgreSQL advisory lock of the room's jackpot pool: one change of it at a time (`hold_append_lock`)."""


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
