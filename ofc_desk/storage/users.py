"""Dealer and floor-supervisor accounts. PINs are stored only as salted scrypt hashes.

Every PIN check is recorded (`sign_in_attempts`, append-only). After `LOCKOUT_AFTER` wrong PINs in
a row for a name, that name waits before its next try: 30 s, doubling with each further wrong PIN,
at most 15 minutes. An unknown name, a wrong PIN and the wrong role get one answer, after the same
scrypt work, so trying names tells nothing about which exist or what a dealer's PIN is.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from functools import cache

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ofc_desk.core.names import clean_name
from ofc_desk.storage.audit import TIME_FORMAT
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import NAME_COLUMN, SignInAttempt, User

_SCRYPT_N, _SCRYPT_R, _SCRYPT_P, _KEY_BYTES = 2**14, 8, 1, 32
MIN_PIN_LENGTH = 4
LOCKOUT_AFTER = 5
FIRST_DELAY = timedelta(seconds=30)
LONGEST_DELAY = timedelta(minutes=15)

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


class Role(StrEnum):
    DEALER = "dealer"
    SUPERVISOR = "supervisor"


class Attempt(StrEnum):
    """How one PIN check ended, as `sign_in_attempts` records it."""

    ACCEPTED = "accepted"
    REFUSED = "refused"
    WAITING = "waiting"
    """Tried while the name had to wait: not checked, and not counted as a wrong PIN."""


class SignInError(Exception):
    """A wrong name, PIN or role; the message is the one the desk shows."""


@dataclass(frozen=True)
class Account:
    name: str
    role: Role


def hash_pin(pin: str) -> str:
    salt = secrets.token_bytes(16)
    digest = _scrypt(pin, salt, _SCRYPT_N, _SCRYPT_R, _SCRYPT_P)
    return f"scrypt${_SCRYPT_N}${_SCRYPT_R}${_SCRYPT_P}${salt.hex()}${digest.hex()}"


def pin_matches(pin: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    candidate = _scrypt(pin, bytes.fromhex(salt), int(n), int(r), int(p))
    return hmac.compare_digest(candidate.hex(), digest)


@cache
def _dummy_hash() -> str:
    """What an unknown name's PIN is checked against: the same scrypt work as a real account."""
    return hash_pin(secrets.token_hex(8))


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=_KEY_BYTES)


def account_name(value: str) -> str:
    """A name as accounts keep it: trimmed, no control characters, at most the one length limit."""
    try:
        return clean_name(value, "a user")
    except ValueError as error:
        raise SignInError(str(error)) from None


def create_user(database: Database, name: str, role: Role | str, pin: str) -> Account:
    """Add an account; refuses a taken name or a PIN shorter than 4 characters."""
    name = account_name(name)
    chosen = Role(role)
    if len(pin) < MIN_PIN_LENGTH:
        raise SignInError(f"a PIN needs at least {MIN_PIN_LENGTH} characters")
    taken = SignInError(f"there is already a user called {name}")
    with database.session() as session:
        if session.scalar(select(User.id).where(User.name == name)) is not None:
            raise taken
        created_at = system_clock().strftime(TIME_FORMAT)
        session.add(User(name=name, role=chosen.value, pin_hash=hash_pin(pin), created_at=created_at))
        try:
            session.commit()
        except IntegrityError:  # made by another desk or run since the look above
            raise taken from None
    return Account(name, chosen)


def refusal(role: Role | None) -> str:
    """The one answer to a failed sign-in, whatever failed: the name, the PIN or the role."""
    return "wrong name or PIN" if role is None else f"wrong name or PIN, or not a {role.value}"


def sign_in(
    database: Database, name: str, pin: str, role: Role | None = None, *, clock: Clock = system_clock
) -> Account:
    """Check a name and PIN (and, if given, that the account has `role`); every try is recorded."""
    typed = _as_recorded(name)
    now = clock()
    with database.session() as session:
        wait = _wait_left(session, typed, now)
        if wait > timedelta(0):
            _record(session, typed, role, Attempt.WAITING, now)
            raise SignInError(f"too many wrong PINs for this name: try again in {_spoken(wait)}")
        user = session.scalar(select(User).where(User.name == typed)) if typed == name.strip() else None
        matches = pin_matches(pin, user.pin_hash if user is not None else _dummy_hash())
        accepted = user is not None and matches and (role is None or user.role == role.value)
        _record(session, typed, role, Attempt.ACCEPTED if accepted else Attempt.REFUSED, now)
    if not accepted or user is None:
        raise SignInError(refusal(role))
    return Account(user.name, Role(user.role))


def lockout_delay(wrong_in_a_row: int) -> timedelta:
    """How long a name waits after this many wrong PINs in a row."""
    if wrong_in_a_row < LOCKOUT_AFTER:
        return timedelta(0)
    doublings = min(wrong_in_a_row - LOCKOUT_AFTER, 16)  # far past the cap already
    return min(FIRST_DELAY * (1 << doublings), LONGEST_DELAY)


def _as_recorded(typed: str) -> str:
    """A typed name as the attempts record it: no name with a control character or longer than
    the column is an account's, but its tries are recorded (and locked out) all the same."""
    kept = "".join(char for char in typed.strip() if char.isprintable())
    return kept[:NAME_COLUMN]


def _wait_left(session: Session, name: str, now: datetime) -> timedelta:
    wrong = 0
    last_wrong_at: datetime | None = None
    recent = session.execute(
        select(SignInAttempt.outcome, SignInAttempt.at)
        .where(SignInAttempt.name == name)
        .order_by(SignInAttempt.id.desc())
        .limit(64)
    )
    for outcome, at in recent:
        if outcome == Attempt.ACCEPTED:
            break
        if outcome == Attempt.REFUSED:
            wrong += 1
            last_wrong_at = last_wrong_at or datetime.strptime(str(at), TIME_FORMAT).replace(tzinfo=UTC)
    if last_wrong_at is None:
        return timedelta(0)
    return last_wrong_at + lockout_delay(wrong) - now


def _record(session: Session, name: str, role: Role | None, outcome: Attempt, now: datetime) -> None:
    session.add(
        SignInAttempt(
            name=name,
            role=role.value if role is not None else "",
            outcome=outcome.value,
            at=now.strftime(TIME_FORMAT),
        )
    )
    session.commit()


def _spoken(wait: timedelta) -> str:
    seconds = max(1, int(wait.total_seconds() + 0.999))
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes} min {seconds} s" if minutes else f"{seconds} s"


def list_users(database: Database) -> list[Account]:
    with database.session() as session:
        rows = session.execute(select(User.name, User.role).order_by(User.name)).all()
    return [Account(name, Role(role)) for name, role in rows]
