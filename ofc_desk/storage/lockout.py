"""The lockout after wrong PINs, and the chain of PIN checks it is counted from.

Every try is recorded in `sign_in_attempts`, in one hash chain in the order of the rows (each
row's hash covers the one before it, from migration 0008 on), and an accepted PIN is signed by the
account's own key, which only that PIN unseals: no database login can write an accepted try
without it. A name's wait is counted from its checks alone (a try made while it waited is recorded
and neither checked nor counted): after `LOCKOUT_AFTER` wrong PINs since its last accepted one,
30 s, doubling with each further wrong PIN, at most 15 minutes.

The time is the database's (`database_now`), never a clock the caller passes: on PostgreSQL the
server's, which no table login can move. Nothing a login can write shortens a wait: only an
accepted PIN signed by the account's key as it is now ends a count (an accepted try signed by an
older key, which an older PIN unsealed, counts as a wrong one), only refused and accepted tries
are read (a `keyless` or `waiting` row, or one of an outcome no check writes, pushes no wrong PIN
out of the count), the wait runs from the newest wrong PIN's time in the chain's order (a row
dated back moves nothing; one dated ahead takes the time of the row before it, so rows written
ahead keep no one waiting for good), and no wait is longer than `LONGEST_DELAY`.

A check runs in one transaction that holds the name (PostgreSQL: an advisory lock on it; SQLite: the
file's write lock), from reading the wait to recording the outcome, so tries made at once are
checked one after the other: the sixth of sixteen waits like the sixth of one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import text
from sqlalchemy.orm import Session

from ofc_desk.i18n import _
from ofc_desk.storage import keys
from ofc_desk.storage.accounts import AccountsChain
from ofc_desk.storage.audit import GENESIS_HASH, TIME_FORMAT, canonical_json
from ofc_desk.storage.database import Database

LOCKOUT_AFTER = 5
FIRST_DELAY = timedelta(seconds=30)
LONGEST_DELAY = timedelta(minutes=15)
CHECKS_READ = 16
"""A name's newest checks the wait is counted from: more wrong PINs than this wait the longest."""
_NAME_LOCKS = 0x0FC0
"""PostgreSQL advisory locks (two-key form): a name's checks, one at a time."""
_CHAIN_LOCK = 0x0FC0DE5E
"""PostgreSQL advisory lock: the chain of PIN checks takes one row at a time."""
_HOLD_NAME = text("SELECT pg_advisory_xact_lock(:space, hashtext(:name))")
_HOLD_CHAIN = text("SELECT pg_advisory_xact_lock(:key)")


class Attempt(StrEnum):
    """How one PIN check ended, as `sign_in_attempts` records it."""

    ACCEPTED = "accepted"
    REFUSED = "refused"
    WAITING = "waiting"
    """Tried while the name had to wait: not checked, and not counted as a wrong PIN."""
    KEYLESS = "keyless"
    """The right PIN of an account without a key since an upgrade: not usable until a supervisor
    gives it one, so neither accepted nor wrong."""


def lockout_delay(wrong_in_a_row: int) -> timedelta:
    """How long a name waits after this many wrong PINs in a row."""
    if wrong_in_a_row < LOCKOUT_AFTER:
        return timedelta(0)
    doublings = min(wrong_in_a_row - LOCKOUT_AFTER, 16)  # far past the cap already
    return min(FIRST_DELAY * (1 << doublings), LONGEST_DELAY)


def attempt_hash(prev_hash: str, name: str, role: str, outcome: str, at: str) -> str:
    content = canonical_json({"name": name, "role": role, "outcome": outcome, "at": at})
    return hashlib.sha256((prev_hash + content).encode("utf-8")).hexdigest()


@contextmanager
def name_held(database: Database, name: str) -> Iterator[Session]:
    """A session whose transaction holds `name`'s checks until it commits or ends."""
    with database.session() as session:
        connection = session.connection()
        if connection.dialect.name == "sqlite":
            # pysqlite begins lazily, at the first write: take the write lock now, before reading.
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        elif connection.dialect.name == "postgresql":
            connection.execute(_HOLD_NAME, {"space": _NAME_LOCKS, "name": name})
        yield session


_NOW = {
    "postgresql": text("SELECT clock_timestamp()"),
    "sqlite": text("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"),
}
"""The database's clock, as each dialect reads it (another reads SQLite's words)."""


def database_now(session: Session) -> datetime:
    """The time as the database tells it: what the lockout counts in and records, never a clock
    the caller of the library passes (one moved ahead would end every wait)."""
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        now = connection.scalar(_NOW["postgresql"])
        assert isinstance(now, datetime)
        return now.astimezone(UTC)
    return datetime.fromisoformat(str(connection.scalar(_NOW["sqlite"])))  # its "Z" is UTC


_COUNTED = (Attempt.ACCEPTED.value, Attempt.REFUSED.value)
"""The only outcomes a wait is counted from: no other row a login writes moves the count."""
_COUNTED_SQL = ", ".join(f"'{outcome}'" for outcome in _COUNTED)

# The statements of a check, written as SQL: one SQLAlchemy builds is compiled again by each new
# engine (a desk's first sign-in, each test's database), milliseconds for the larger ones; SQL
# text is not. Both dialects read them as written.
_NAMES_CHECKS = text(
    "SELECT id, outcome, at, role, prev_hash, hash, signature,"
    # Where an accepted one must link on (looked up for those only: `_accepted_holds`).
    f" CASE WHEN outcome = '{Attempt.ACCEPTED.value}' THEN (SELECT earlier.hash FROM sign_in_attempts"
    " earlier WHERE earlier.id < sign_in_attempts.id ORDER BY earlier.id DESC LIMIT 1) END AS hash_before"
    " FROM sign_in_attempts WHERE name = :name"
    f" AND outcome IN ({_COUNTED_SQL})"
    " AND hash <> ''"  # tries from before the chain (migration 0008) are not counted
    f" ORDER BY id DESC LIMIT {CHECKS_READ}"
)
_TIMES_BETWEEN = text("SELECT at FROM sign_in_attempts WHERE id >= :first_id AND id <= :last_id ORDER BY id")
_TIMES_BEFORE = text(
    f"SELECT id, at FROM sign_in_attempts WHERE id < :row_id ORDER BY id DESC LIMIT {CHECKS_READ}"
)
# The newest chained check: tries from before migration 0008 have no hash and link nothing
# (roles.CHAINED_CHECK, the row policy a role's insert meets, says the same).
_CHAIN_HEAD = text("SELECT id, hash FROM sign_in_attempts WHERE hash <> '' ORDER BY id DESC LIMIT 1")
_APPEND = text(
    "INSERT INTO sign_in_attempts (name, role, outcome, at, prev_hash, hash, signature)"
    " VALUES (:name, :role, :outcome, :at, :prev_hash, :hash, :signature)"
)


def wait_left(session: Session, name: str, chain: AccountsChain) -> timedelta:
    """How long `name` must still wait, counted from its checks since its last accepted PIN whose
    signature holds (an accepted try anyone else wrote counts as a wrong one). The database's time
    is read only when there are enough wrong PINs to wait for."""
    rows = session.connection().execute(_NAMES_CHECKS, {"name": name}).all()
    wrong, first_id, last_id = 0, None, None
    for row in rows:
        if row.outcome == Attempt.ACCEPTED and _accepted_holds(name, row, chain):
            break
        wrong += 1
        first_id, last_id = row.id, last_id or row.id
    if first_id is None or last_id is None or lockout_delay(wrong) <= timedelta(0):
        return timedelta(0)  # the newest wrong PIN is never after now: nothing to wait
    now = database_now(session)
    return min(_newest_wrong_at(session, first_id, last_id, now) + lockout_delay(wrong) - now, LONGEST_DELAY)


def _newest_wrong_at(session: Session, first_id: int, last_id: int, now: datetime) -> datetime:
    """When the newest counted wrong PIN (row `last_id`) was made, as the chain's order tells it
    from the oldest counted one (`first_id`) on: no row is earlier than the one before it (a row
    dated back moves no wait), and a row dated ahead of the database's time, or not dated at all,
    takes the time of the one before it (so rows written ahead lock no one out for good)."""
    times = session.connection().scalars(_TIMES_BETWEEN, {"first_id": first_id, "last_id": last_id}).all()
    newest = _last_time_before(session, first_id, now)
    for at in times:
        recorded = _parsed(at)
        if recorded is not None and recorded <= now:
            newest = recorded if newest is None else max(newest, recorded)
        elif newest is None:
            newest = now  # nothing dated before it in the whole chain
    return newest or now


def _last_time_before(session: Session, row_id: int, now: datetime) -> datetime | None:
    """The time of the newest row before `row_id` that has one, not ahead of the database's (read
    a page at a time: past rows written ahead, however many)."""
    while True:
        page = session.connection().execute(_TIMES_BEFORE, {"row_id": row_id}).all()
        for row in page:
            recorded = _parsed(row.at)
            if recorded is not None and recorded <= now:
                return recorded
        if len(page) < CHECKS_READ:
            return None
        row_id = page[-1].id


def _parsed(at: object) -> datetime | None:
    try:
        return datetime.strptime(str(at), TIME_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        return None


def _accepted_holds(name: str, row: Any, chain: AccountsChain) -> bool:
    """An accepted try signed by the account's key as it is now (an older one, which an older PIN
    unsealed, may be known to someone who cracked that PIN offline), in its place in the chain
    (`hash_before`: the hash of the row before it, read with it)."""
    account = chain.accounts.get(name)
    return (
        account is not None
        and row.prev_hash == (row.hash_before or GENESIS_HASH)
        and row.hash == attempt_hash(row.prev_hash, name, row.role, row.outcome, row.at)
        and keys.signature_holds(account.public_key, keys.sign_in_message(row.hash), row.signature)
    )


def record(
    session: Session, name: str, role: str, outcome: Attempt, key: Ed25519PrivateKey | None = None
) -> None:
    """Append one try to the chain and commit; an accepted one is signed with `key`. Its time is
    the database's, read once the chain is held, so the chain's times never go back."""
    connection = session.connection()  # SQL run as it is: no ORM unit of work for one row
    if connection.dialect.name == "postgresql":
        connection.execute(_HOLD_CHAIN, {"key": _CHAIN_LOCK})
    last = connection.execute(_CHAIN_HEAD).first()
    previous = last.hash if last is not None else GENESIS_HASH
    at = database_now(session).strftime(TIME_FORMAT)
    digest = attempt_hash(previous, name, role, outcome.value, at)
    signed = outcome is Attempt.ACCEPTED and key is not None
    values = {"name": name, "role": role, "outcome": outcome.value, "at": at, "prev_hash": previous}
    signature = keys.sign(key, keys.sign_in_message(digest)) if signed and key else ""
    connection.execute(_APPEND, {**values, "hash": digest, "signature": signature})
    session.commit()


def chain_fault(rows: Sequence[Any], chain: AccountsChain, set_aside: list[str]) -> str | None:
    """The first PIN check (rows in `id` order) that breaks the chain, said in words; None when
    the chain holds. Tries from before the chain (migration 0008) may only come before it. An
    accepted try its account's key did not sign breaks nothing: any login that records PIN checks
    may chain one, and the lockout counts it as a wrong PIN; it is named in `set_aside`."""
    previous: str | None = None
    previous_at: str | None = None
    outcomes = {attempt.value for attempt in Attempt}
    for row in rows:
        where = _("sign-in attempt {id}").format(id=row.id)
        if not row.hash:
            if previous is not None:
                return _("{where} is outside the chain of PIN checks: it was added by hand").format(
                    where=where
                )
            continue
        if row.prev_hash != (previous or GENESIS_HASH):
            return _("{where} does not follow the one before it: a PIN check was removed or inserted").format(
                where=where
            )
        if row.outcome not in outcomes or row.hash != attempt_hash(
            row.prev_hash, row.name, row.role, row.outcome, row.at
        ):
            return _("{where} was altered").format(where=where)
        account = chain.accounts.get(row.name)
        if row.outcome == Attempt.ACCEPTED and (
            account is None
            or not any(
                keys.signature_holds(span.public_key, keys.sign_in_message(row.hash), row.signature)
                for span in account.keys
            )
        ):
            set_aside.append(
                _(
                    "{where} records an accepted PIN that {name}'s key did not sign: it proves nothing, and"
                    " the lockout counts it as a wrong PIN"
                ).format(where=where, name=row.name)
            )
        elif row.outcome == Attempt.KEYLESS and (account is None or account.created_keyed):
            set_aside.append(
                _(
                    "{where} records the right PIN of an account without a key, but {name} always had one:"
                    " written to reset the count of wrong PINs, which it does not"
                ).format(where=where, name=row.name)
            )
        if previous_at is not None and str(row.at) < previous_at:
            set_aside.append(
                _(
                    "{where} is dated before the PIN check before it: one of the two was written to move a"
                    " wait, which it does not"
                ).format(where=where)
            )
        previous_at = str(row.at)
        previous = row.hash
    return None


def chain_head(session: Session) -> tuple[int, str] | None:
    """The newest chained PIN check (its id and hash), for an anchor; None before any."""
    row = session.connection().execute(_CHAIN_HEAD).first()
    return None if row is None else (row.id, row.hash)
