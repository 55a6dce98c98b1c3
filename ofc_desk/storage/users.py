"""Signing in to dealer and floor-supervisor accounts, read from the accounts chain.

PINs are stored only as salted scrypt hashes. Every sign-in and account change (`account_changes`)
reads the accounts chain (`accounts_fold.fold_accounts`), never the users table: a PIN is checked
against the hash the chain holds and must open the key the chain names. Every PIN check is counted
by the lockout and recorded in its chain (`lockout`). An unknown name, a wrong PIN and the wrong role
get one answer, after the same scrypt work, so trying names tells nothing about which exist or what a
dealer's PIN is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from enum import StrEnum

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from ofc_desk.core.names import clean_name
from ofc_desk.i18n import _
from ofc_desk.storage import keys, lockout
from ofc_desk.storage.accounts import BUILTIN_REPLAY, AccountsChain, AccountsFault, AccountState
from ofc_desk.storage.accounts_fold import fold_accounts
from ofc_desk.storage.accounts_room import room_fault
from ofc_desk.storage.database import Database
from ofc_desk.storage.lockout import Attempt
from ofc_desk.storage.models import NAME_COLUMN, AccountEvent, User
from ofc_desk.storage.pins import derive, dummy_hash, pin_matches

MIN_PIN_LENGTH = 4
SUPERVISOR_PIN_LENGTH = 8
"""A supervisor's key signs voids and chip corrections: at 8 characters, trying every PIN of
digits alone against a stolen copy of the database takes weeks (docs/decisions.md)."""


class Role(StrEnum):
    DEALER = "dealer"
    SUPERVISOR = "supervisor"


class SignInError(Exception):
    """A wrong name, PIN or role; the message is the one the desk shows."""


@dataclass(frozen=True)
class Account:
    """A signed-in account: its name and role, and its key once unsealed."""

    name: str
    role: Role
    key: Ed25519PrivateKey | None = field(default=None, compare=False, repr=False)
    """The private key, unsealed by the PIN at sign-in: what signs this account's sign-offs."""
    builtin: bool = False


def account_name(value: str) -> str:
    """A name as accounts keep it: trimmed, no control characters, at most the one length limit."""
    try:
        return clean_name(value, _("a user"))
    except ValueError as error:
        raise SignInError(str(error)) from None


_CHECKED: dict[tuple[str, int, str], AccountsChain] = {}
"""Chains this process has checked, by database and head: the head's hash covers every event before
it, so a chain that ends there is the one checked (a row edited behind it is not read again)."""
_CHECKED_KEPT = 32
_HEAD = text("SELECT seq, hash FROM account_events ORDER BY seq DESC LIMIT 1")
"""The accounts chain's head, read by every sign-in: SQL text, which a new engine (a desk's first
sign-in) does not compile again as it does a statement SQLAlchemy builds (`lockout`'s are alike)."""
_IN_ORDER = select(AccountEvent).from_statement(
    text(f"SELECT {', '.join(AccountEvent.__table__.columns.keys())} FROM account_events ORDER BY seq")
)
"""The chain's events, what a sign-in folds when its head is new to this process (SQL text too)."""


def read_chain(session: Session) -> AccountsChain:
    """The accounts chain, checked (its hashes, signatures and rules, and against the room's tables):
    what every sign-in and account change trusts, never the users table, which anyone with the
    database file could edit."""
    head = session.connection().execute(_HEAD).first()
    key = (str(session.get_bind().engine.url), *head) if head is not None else None
    if key is not None and key in _CHECKED:
        return _CHECKED[key]
    try:
        chain = fold_accounts(session.scalars(_IN_ORDER).all())
    except AccountsFault:
        chain = None
    if chain is None or room_fault(session, chain) is not None:
        raise SignInError(
            _(
                "the room's accounts do not verify (ofc-desk verify says why): nobody signs in until"
                " they are mended"
            )
        )
    if key is not None:
        if len(_CHECKED) >= _CHECKED_KEPT:
            _CHECKED.clear()
        _CHECKED[key] = chain
    return chain


def builtin_replay_account(database: Database) -> Account | None:
    """The built-in `replay` dealer, signed in, if this database has it (only it has no PIN)."""
    with database.session() as session:
        state = read_chain(session).accounts.get(BUILTIN_REPLAY)
    return _opened(state, "") if state is not None and state.builtin else None


def supervisor_holds_a_key(database: Database) -> bool:
    """Whether the room is set up: some supervisor holds a key, or the room has no account yet."""
    with database.session() as session:
        chain = read_chain(session)
    return chain.supervisor_keyed or not any(not state.builtin for state in chain.accounts.values())


def weak_key_refusal(name: str) -> str:
    """Why a supervisor whose key was once sealed under a short PIN approves nothing (yet)."""
    return _(
        "{name}'s key was once sealed under a PIN shorter than {count} characters: a new PIN (Settings →"
        " Change an account's PIN…) gives a floor supervisor's key"
    ).format(name=name, count=SUPERVISOR_PIN_LENGTH)


def short_pin_refusal(name: str) -> str:
    """Why a supervisor whose PIN is shorter than a supervisor's approves nothing (yet)."""
    return _(
        "{name}'s PIN has fewer than {count} characters: a floor supervisor changes it"
        " (Settings → Change an account's PIN…) before approving anything"
    ).format(name=name, count=SUPERVISOR_PIN_LENGTH)


def _opened(state: AccountState, pin: str) -> Account | None:
    """The account with its private key when `pin` is its PIN, as the accounts chain holds it (an
    account an upgrade left without a key comes back without one)."""
    derived = derive(pin, state.pin_hash)
    if derived is None:
        return None
    key = keys.unseal(state.sealed_key, derived) if state.sealed_key else None
    if state.sealed_key and (key is None or keys.public_hex(key) != state.public_key):
        return None
    return Account(state.name, Role(state.role), key, builtin=state.builtin)


def refusal(role: Role | None) -> str:
    """The one answer to a failed sign-in, whatever failed: the name, the PIN or the role."""
    if role is None:
        return _("wrong name or PIN")
    return (
        _("wrong name or PIN, or not a dealer")
        if role is Role.DEALER
        else _("wrong name or PIN, or not a supervisor")
    )


def sign_in(database: Database, name: str, pin: str, role: Role | None = None) -> Account:
    """Check a name and PIN (and, if given, that the account has `role`) against the accounts
    chain; every try is recorded (`lockout`). The account comes back with its key unsealed. A
    supervisor whose PIN is shorter than a supervisor's, or whose key was ever sealed under such a
    PIN (before migration 0012), must change it before approving: judged by the chain the PIN was
    checked against, in the check's own transaction."""
    account, chain = _checked_pin(database, name, pin, role)
    if account.key is None:
        raise SignInError(
            _(
                "this account has no key since an upgrade: a floor supervisor approves a new PIN for it"
                " (Settings → Change an account's PIN…), which gives it one"
            )
        )
    if role is Role.SUPERVISOR and len(pin) < SUPERVISOR_PIN_LENGTH:
        raise SignInError(short_pin_refusal(account.name))
    if role is Role.SUPERVISOR:
        state = chain.accounts.get(account.name)
        if chain.rotate_from and (state is None or not state.strong_key):
            raise SignInError(weak_key_refusal(account.name))
    return account


def check_pin(database: Database, name: str, pin: str, role: Role | None) -> Account:
    """One PIN check, counted by the lockout and recorded in its chain, in one transaction that
    holds the name; the account (maybe without a key) or SignInError. The lockout's time is the
    database's (`lockout.database_now`): no caller passes a clock."""
    return _checked_pin(database, name, pin, role)[0]


def _checked_pin(database: Database, name: str, pin: str, role: Role | None) -> tuple[Account, AccountsChain]:
    """`check_pin`'s account, and the accounts chain it was checked against."""
    typed = _as_recorded(name)
    asked = role.value if role is not None else ""
    account: Account | None = None
    with lockout.name_held(database, typed) as session:
        chain = read_chain(session)
        wait = lockout.wait_left(session, typed, chain)
        if wait > timedelta(0):
            lockout.record(session, typed, asked, Attempt.WAITING)
            raise SignInError(
                _("too many wrong PINs for this name: try again in {wait}").format(wait=_spoken(wait))
            )
        state = chain.accounts.get(typed) if typed == name.strip() else None
        # An empty PIN never signs in, whatever is stored (the built-in replay dealer's is empty:
        # its key is the replay's to use, nobody's to sign in with); the same work is done.
        opens = state is not None and pin != "" and not state.builtin
        account = _opened(state, pin) if state is not None and opens else None
        if not opens:
            pin_matches(pin, dummy_hash())
        accepted = account is not None and (role is None or account.role is role)
        if account is not None and accepted:
            outcome = Attempt.ACCEPTED if account.key is not None else Attempt.KEYLESS
            lockout.record(session, typed, asked, outcome, account.key)
            return account, chain
        lockout.record(session, typed, asked, Attempt.REFUSED)
    raise SignInError(refusal(role))


def _as_recorded(typed: str) -> str:
    """A typed name as the attempts record it: no name with a control character or longer than
    the column is an account's, but its tries are recorded (and locked out) all the same."""
    kept = "".join(char for char in typed.strip() if char.isprintable())
    return kept[:NAME_COLUMN]


def _spoken(wait: timedelta) -> str:
    seconds = max(1, int(wait.total_seconds() + 0.999))
    minutes, seconds = divmod(seconds, 60)
    if minutes:
        return _("{minutes} min {seconds} s").format(minutes=minutes, seconds=seconds)
    return _("{seconds} s").format(seconds=seconds)


def nobody_signs_in(database: Database) -> bool:
    """Whether the room has no account a person signs in with: none at all, or only the built-in
    replay dealer (`ofc-desk replay --db FILE` into an empty file). Its first accounts are then
    made as in an empty room (`create_accounts`)."""
    names = {account.name for account in list_users(database)}
    if not names:
        return True
    return names == {BUILTIN_REPLAY} and builtin_replay_account(database) is not None


def list_users(database: Database) -> list[Account]:
    with database.session() as session:
        rows = session.execute(select(User.name, User.role).order_by(User.name)).all()
    return [Account(name, Role(role)) for name, role in rows]
