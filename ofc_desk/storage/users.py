"""Dealer and floor-supervisor accounts. PINs are stored only as salted scrypt hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import select

from ofc_desk.storage.audit import utc_now
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import User

_SCRYPT_N, _SCRYPT_R, _SCRYPT_P, _KEY_BYTES = 2**14, 8, 1, 32
MIN_PIN_LENGTH = 4


class Role(StrEnum):
    DEALER = "dealer"
    SUPERVISOR = "supervisor"


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


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=_KEY_BYTES)


def create_user(database: Database, name: str, role: Role | str, pin: str) -> Account:
    """Add an account; refuses a taken name or a PIN shorter than 4 characters."""
    name = name.strip()
    chosen = Role(role)
    if not name:
        raise SignInError("a user needs a name")
    if len(pin) < MIN_PIN_LENGTH:
        raise SignInError(f"a PIN needs at least {MIN_PIN_LENGTH} characters")
    with database.session() as session:
        if session.scalar(select(User.id).where(User.name == name)) is not None:
            raise SignInError(f"there is already a user called {name}")
        session.add(User(name=name, role=chosen.value, pin_hash=hash_pin(pin), created_at=utc_now()))
        session.commit()
    return Account(name, chosen)


def sign_in(database: Database, name: str, pin: str, role: Role | None = None) -> Account:
    """Check a name and PIN (and, if given, that the account has `role`)."""
    with database.session() as session:
        user = session.scalar(select(User).where(User.name == name.strip()))
    if user is None or not pin_matches(pin, user.pin_hash):
        raise SignInError(f"wrong name or PIN for {name}")
    account = Account(user.name, Role(user.role))
    if role is not None and account.role is not role:
        raise SignInError(f"{account.name} is not a {role.value}")
    return account


def list_users(database: Database) -> list[Account]:
    with database.session() as session:
        rows = session.execute(select(User.name, User.role).order_by(User.name)).all()
    return [Account(name, Role(role)) for name, role in rows]
