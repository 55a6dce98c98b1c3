"""Dealer and floor-supervisor accounts. PINs are stored only as salted scrypt hashes.

Every PIN check is recorded (`sign_in_attempts`, append-only). After `LOCKOUT_AFTER` wrong PINs in
a row for a name, that name waits before its next try: 30 s, doubling with each further wrong PIN,
at most 15 minutes. An unknown name, a wrong PIN and the wrong role get one answer, after the same
scrypt work, so trying names tells nothing about which exist or what a dealer's PIN is.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from ofc_desk.core.names import clean_name
from ofc_desk.storage import keys
from ofc_desk.storage.accounts import BUILTIN_REPLAY, AccountKind, account_event_hash
from ofc_desk.storage.audit import GENESIS_HASH, TIME_FORMAT, canonical_json
from ofc_desk.storage.database import ACCOUNTS_LOCK, Database, hold_append_lock, insufficient_privilege
from ofc_desk.storage.models import NAME_COLUMN, AccountEvent, SignInAttempt, User

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


class AccountExists(SignInError):
    """The name has an account already (perhaps made a moment ago by another desk)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"there is already a user called {name}")
        self.name = name


@dataclass(frozen=True)
class Account:
    name: str
    role: Role
    key: Ed25519PrivateKey | None = field(default=None, compare=False, repr=False)
    """The private key, unsealed by the PIN at sign-in: what signs this account's sign-offs."""
    builtin: bool = False


def hash_pin(pin: str) -> str:
    return _pin_material(pin)[0]


def _pin_material(pin: str) -> tuple[str, bytes]:
    """A new salted PIN hash, and the scrypt output whose second half seals a private key."""
    salt = secrets.token_bytes(16)
    n, r, p = keys.scrypt_cost()
    derived = keys.pin_scrypt(pin, salt, n, r, p)
    digest = derived[: keys.DIGEST_BYTES]
    return f"scrypt${n}${r}${p}${salt.hex()}${digest.hex()}", derived


def _derive(pin: str, stored: str) -> bytes | None:
    """The scrypt output of `pin` under `stored`'s salt when `pin` is the right PIN, else None."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return None
        derived = keys.pin_scrypt(pin, bytes.fromhex(salt), int(n), int(r), int(p))
    except ValueError:
        return None
    return derived if hmac.compare_digest(derived[: keys.DIGEST_BYTES].hex(), digest) else None


def pin_matches(pin: str, stored: str) -> bool:
    return _derive(pin, stored) is not None


def _dummy_hash() -> str:
    """What an unknown name's PIN is checked against: a hash of no PIN, with the parameters a new
    account's takes, so the check does the same scrypt work."""
    salt, digest = secrets.token_hex(16), secrets.token_hex(keys.DIGEST_BYTES)
    n, r, p = keys.scrypt_cost()
    return f"scrypt${n}${r}${p}${salt}${digest}"


def account_name(value: str) -> str:
    """A name as accounts keep it: trimmed, no control characters, at most the one length limit."""
    try:
        return clean_name(value, "a user")
    except ValueError as error:
        raise SignInError(str(error)) from None


def create_user(
    database: Database,
    name: str,
    role: Role | str,
    pin: str,
    *,
    approver: Account | None = None,
    or_same: bool = False,
) -> Account:
    """Add an account, its creation signed by `approver` (a signed-in supervisor); without one,
    only a database's very first account, a supervisor, who signs it themselves. Refuses a taken
    name or a PIN shorter than 4 characters. The account comes back signed in. `or_same`: a name
    taken by the very account asked for (another desk starting at the same moment made it) is
    that account, signed in (`same_account`); a name taken otherwise is still refused."""
    name = account_name(name)
    chosen = Role(role)
    if len(pin) < MIN_PIN_LENGTH:
        raise SignInError(f"a PIN needs at least {MIN_PIN_LENGTH} characters")
    try:
        return _create(database, name, chosen, pin, approver)
    except AccountExists:
        if not or_same:
            raise
    return same_account(database, name, chosen, pin)


def same_account(database: Database, name: str, role: Role, pin: str) -> Account:
    """The account another desk or run made under `name` a moment ago, accepted as the one this
    start asked for when it is the same: it has `role`, and `pin` opens it (checked as a sign-in:
    recorded, and counted towards the lockout, so this is no way round it). Refused in words when
    it differs: the two starts did not agree on the room's accounts."""
    with database.session() as session:
        exists = session.scalar(select(User.id).where(User.name == name)) is not None
    if not exists:
        raise SignInError(
            f"{name} has no account here: another desk or run made this room's first accounts a"
            f" moment ago, without {name}"
        )
    try:
        return sign_in(database, name, pin, role)
    except SignInError:
        raise SignInError(
            f"{name} already has an account here, made a moment ago by another desk or run with"
            " another role or PIN: sign in with that one, or choose another name"
        ) from None


def builtin_replay_account(database: Database) -> Account | None:
    """The built-in `replay` dealer, signed in, if this database has it (only it has no PIN)."""
    with database.session() as session:
        user = session.scalar(select(User).where(User.name == BUILTIN_REPLAY))
    return _unsealed(user, "") if user is not None else None


def create_accounts(
    database: Database, accounts: Sequence[tuple[str, Role, str]], *, builtin: bool = False
) -> list[Account]:
    """A new database's first accounts, in one transaction under the accounts chain's lock, so
    that another run starting on the same new database finds all of them or none: the built-in
    replay dealer if asked, then the supervisors (the first signing their own creation and
    approving the rest), then the dealers. When another run made the room's accounts first (desks
    starting together on a new room), each of these is accepted if it is the same account
    (`same_account`: there, with its role, opened by its PIN) and refused in words if not."""
    ordered = sorted(accounts, key=lambda account: account[1] is not Role.SUPERVISOR)
    for _, _, pin in ordered:
        if len(pin) < MIN_PIN_LENGTH:
            raise SignInError(f"a PIN needs at least {MIN_PIN_LENGTH} characters")
    named = [(account_name(name), role, pin) for name, role, pin in ordered]
    created: list[Account] = []
    with _made_by_the_owner(), database.session() as session:
        hold_append_lock(session, ACCOUNTS_LOCK)
        if session.scalar(select(User.id).limit(1)) is None:
            if builtin:
                created.append(_create_in(session, BUILTIN_REPLAY, Role.DEALER, "", None, builtin=True))
            approver: Account | None = None
            for name, role, pin in named:
                account = _create_in(session, name, role, pin, approver)
                approver = approver or account
                created.append(account)
            session.commit()
            return created
    if builtin:
        replay = builtin_replay_account(database)
        if replay is None:
            raise SignInError(
                "another desk or run made this room's first accounts a moment ago, without the"
                " built-in replay dealer"
            )
        created.append(replay)
    return created + [same_account(database, name, role, pin) for name, role, pin in named]


def _create(database: Database, name: str, role: Role, pin: str, approver: Account | None) -> Account:
    with _made_by_the_owner(), database.session() as session:
        account = _create_in(session, name, role, pin, approver)
        session.commit()
    return account


@contextmanager
def _made_by_the_owner() -> Iterator[None]:
    """A card room's desk and floor logins may not make accounts (their roles insert no users):
    said in words rather than as the server's refusal."""
    try:
        yield
    except DBAPIError as error:
        if not insufficient_privilege(error):
            raise
        raise SignInError("this database login may not make accounts: the room's owner makes them") from None


def _create_in(
    session: Session, name: str, role: Role, pin: str, approver: Account | None, *, builtin: bool = False
) -> Account:
    """The account's event and row, under the accounts chain's lock (held until the session
    ends): whether the name is taken and whether this is the database's first account are read
    after every account committed before, so two desks never make one name twice."""
    key = keys.new_private_key()
    pin_hash, derived = _pin_material(pin)
    payload: dict[str, object] = {
        "role": role.value,
        "pin_hash": pin_hash,
        "public_key": keys.public_hex(key),
        "sealed_key": keys.seal(key, derived),
    }
    if builtin:
        payload["builtin"] = True
    hold_append_lock(session, ACCOUNTS_LOCK)
    if session.scalar(select(User.id).where(User.name == name)) is not None:
        raise AccountExists(name)
    # The built-in replay dealer approves nothing, so a database it opened can still get its
    # first supervisor.
    first = session.scalar(select(User.id).where(User.name != BUILTIN_REPLAY).limit(1)) is None
    if approver is None and not first:
        raise SignInError("a floor supervisor must approve a new account")
    if approver is None and role is not Role.SUPERVISOR and not builtin:
        raise SignInError("a database's first account is its floor supervisor")
    signer = _approving(approver) if approver is not None else Account(name, role, key)
    event = _append_event(session, AccountKind.CREATED, name, signer, payload)
    session.add(
        User(
            name=name,
            role=role.value,
            pin_hash=pin_hash,
            created_at=event.at,
            public_key=payload["public_key"],
            sealed_key=payload["sealed_key"],
            account_seq=event.seq,
        )
    )
    session.flush()
    return Account(name, role, key, builtin)


def change_role(database: Database, name: str, role: Role, approver: Account) -> None:
    """Make an account a dealer or a supervisor, signed by the approving supervisor."""
    with database.session() as session:
        user = _user_or_refuse(session, name)
        payload = {"role": role.value}
        event = _append_event(session, AccountKind.ROLE_CHANGED, user.name, _approving(approver), payload)
        user.role, user.account_seq = role.value, event.seq
        session.commit()


def change_pin(database: Database, name: str, old_pin: str, new_pin: str, approver: Account) -> None:
    """A new PIN for an account (its key pair kept, sealed again), signed by the approving
    supervisor; the old PIN must open the key."""
    if len(new_pin) < MIN_PIN_LENGTH:
        raise SignInError(f"a PIN needs at least {MIN_PIN_LENGTH} characters")
    with database.session() as session:
        user = _user_or_refuse(session, name)
    account = _unsealed(user, old_pin)
    if account is None or account.key is None:
        raise SignInError("wrong name or PIN")
    pin_hash, derived = _pin_material(new_pin)
    payload = {"pin_hash": pin_hash, "sealed_key": keys.seal(account.key, derived)}
    with database.session() as session:
        user = _user_or_refuse(session, name)
        event = _append_event(session, AccountKind.PIN_CHANGED, user.name, _approving(approver), payload)
        user.pin_hash, user.sealed_key, user.account_seq = pin_hash, payload["sealed_key"], event.seq
        session.commit()


def _approving(approver: Account) -> Account:
    if approver.role is not Role.SUPERVISOR or approver.key is None or approver.builtin:
        raise SignInError("a floor supervisor, signed in, must approve this")
    return approver


def _user_or_refuse(session: Session, name: str) -> User:
    user = session.scalar(select(User).where(User.name == name.strip()))
    if user is None:
        raise SignInError(f"there is no user called {name.strip()}")
    return user


def _append_event(
    session: Session, kind: AccountKind, name: str, signer: Account, payload: Mapping[str, object]
) -> AccountEvent:
    """The next account event, signed by `signer`, flushed. The chain's lock is held from here to
    the session's end, so a second desk appending at the same moment follows this event once it
    is committed, never the same link."""
    hold_append_lock(session, ACCOUNTS_LOCK)
    last = session.scalars(select(AccountEvent).order_by(AccountEvent.seq.desc()).limit(1)).first()
    seq, previous = (last.seq + 1, last.hash) if last is not None else (1, GENESIS_HASH)
    at, text = system_clock().strftime(TIME_FORMAT), canonical_json(payload)
    digest = account_event_hash(previous, seq, kind.value, name, signer.name, at, text)
    assert signer.key is not None
    event = AccountEvent(
        seq=seq,
        kind=kind.value,
        name=name,
        approved_by=signer.name,
        at=at,
        payload=text,
        prev_hash=previous,
        hash=digest,
        signature=keys.sign(signer.key, keys.account_message(seq, digest)),
    )
    session.add(event)
    session.flush()
    return event


def _unsealed(user: User, pin: str) -> Account | None:
    """The account with its private key when `pin` is its PIN (an imported account without a key
    yet comes back without one)."""
    derived = _derive(pin, user.pin_hash)
    if derived is None:
        return None
    key = keys.unseal(user.sealed_key, derived) if user.sealed_key else None
    if user.sealed_key and key is None:
        return None
    # Only the built-in replay dealer has an empty PIN: a person's has at least 4 characters.
    return Account(user.name, Role(user.role), key, builtin=pin == "")


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
        account = _unsealed(user, pin) if user is not None else None
        if user is None:
            pin_matches(pin, _dummy_hash())
        accepted = account is not None and (role is None or account.role is role)
        _record(session, typed, role, Attempt.ACCEPTED if accepted else Attempt.REFUSED, now)
    if account is None or not accepted:
        raise SignInError(refusal(role))
    return account if account.key is not None else _add_key(database, account, pin)


def _add_key(database: Database, account: Account, pin: str) -> Account:
    """An account imported from before sign-offs gets its key pair at its first sign-in, the one
    moment its PIN is known: the event is signed by the new key."""
    key = keys.new_private_key()
    pin_hash, derived = _pin_material(pin)
    sealed = keys.seal(key, derived)
    payload = {"public_key": keys.public_hex(key), "pin_hash": pin_hash, "sealed_key": sealed}
    keyed = Account(account.name, account.role, key)
    with database.session() as session:
        hold_append_lock(session, ACCOUNTS_LOCK)
        user = _user_or_refuse(session, account.name)
        if user.public_key:  # another desk signed this account in first and gave it its key
            opened = _unsealed(user, pin)
            if opened is None:
                raise SignInError(refusal(None))
            return opened
        event = _append_event(session, AccountKind.KEY_ADDED, account.name, keyed, payload)
        user.public_key, user.sealed_key, user.pin_hash = payload["public_key"], sealed, pin_hash
        user.account_seq = event.seq
        session.commit()
    return keyed


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
