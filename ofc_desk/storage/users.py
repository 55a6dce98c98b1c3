"""Dealer and floor-supervisor accounts. PINs are stored only as salted scrypt hashes.

Every sign-in and account change reads the accounts chain (`accounts.fold_accounts`), never the
users table: a PIN is checked against the hash the chain holds and must open the key the chain
names. Every PIN check is counted by the lockout and recorded in its chain (`lockout`). An unknown
name, a wrong PIN and the wrong role get one answer, after the same scrypt work, so trying names
tells nothing about which exist or what a dealer's PIN is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ofc_desk.core.names import clean_name
from ofc_desk.i18n import _, lazy_gettext, ngettext
from ofc_desk.storage import keys, lockout
from ofc_desk.storage.accounts import (
    BUILTIN_REPLAY,
    AccountKind,
    AccountsChain,
    AccountsFault,
    AccountState,
    account_event_hash,
    fold_accounts,
    room_fault,
    room_position,
)
from ofc_desk.storage.audit import GENESIS_HASH, TIME_FORMAT, canonical_json
from ofc_desk.storage.database import ACCOUNTS_LOCK, Database, hold_append_lock
from ofc_desk.storage.lockout import Attempt
from ofc_desk.storage.models import NAME_COLUMN, AccountEvent, TableSession, User
from ofc_desk.storage.pins import derive, dummy_hash, pin_matches, pin_material

MIN_PIN_LENGTH = 4
SUPERVISOR_PIN_LENGTH = 8
"""A supervisor's key signs voids and chip corrections: at 8 characters, trying every PIN of
digits alone against a stolen copy of the database takes weeks (docs/decisions.md)."""


def system_clock() -> datetime:
    return datetime.now(UTC)


class Role(StrEnum):
    DEALER = "dealer"
    SUPERVISOR = "supervisor"


class SignInError(Exception):
    """A wrong name, PIN or role; the message is the one the desk shows."""


@dataclass(frozen=True)
class Account:
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


def read_chain(session: Session) -> AccountsChain:
    """The accounts chain, checked (its hashes, signatures and rules, and against the room's tables):
    what every sign-in and account change trusts, never the users table, which anyone with the
    database file could edit."""
    head = session.execute(
        select(AccountEvent.seq, AccountEvent.hash).order_by(AccountEvent.seq.desc()).limit(1)
    ).first()
    key = (str(session.get_bind().engine.url), *head) if head is not None else None
    if key is not None and key in _CHECKED:
        return _CHECKED[key]
    try:
        chain = fold_accounts(session.scalars(select(AccountEvent).order_by(AccountEvent.seq)).all())
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


def _chain_to_write(session: Session) -> AccountsChain:
    """The accounts chain, for a change to it; refused to a card room's desk or floor login, which
    may not write accounts (`roles`): the room's owner sets up and changes them. The chain's lock
    is taken first (`hold_append_lock`), so the chain read is the one the change is appended to,
    whatever other desk writes to it at the same moment."""
    hold_append_lock(session, ACCOUNTS_LOCK)
    if session.get_bind().dialect.name == "postgresql" and not session.scalar(
        text("SELECT has_table_privilege('account_events', 'INSERT')")
    ):
        raise SignInError(
            _(
                "this desk's database login records tables, not accounts: the room's owner sets up and"
                " changes accounts (start ofc-desk once with the owner's login)"
            )
        )
    return read_chain(session)


def _check_new_pin(role: Role, pin: str) -> None:
    shortest = SUPERVISOR_PIN_LENGTH if role is Role.SUPERVISOR else MIN_PIN_LENGTH
    if len(pin) < shortest:
        if role is Role.SUPERVISOR:
            needs = ngettext(
                "a floor supervisor's PIN needs at least {count} character",
                "a floor supervisor's PIN needs at least {count} characters",
                shortest,
            )
        else:
            needs = ngettext(
                "a PIN needs at least {count} character", "a PIN needs at least {count} characters", shortest
            )
        raise SignInError(needs.format(count=shortest))


def create_user(database: Database, name: str, role: Role | str, pin: str, *, approver: Account) -> Account:
    """Add an account, its creation signed by `approver`, a signed-in supervisor (a room's first
    accounts are its set-up: `create_accounts`). Refuses a taken name or a PIN too short for the
    role. The account comes back signed in."""
    name = account_name(name)
    chosen = Role(role)
    _check_new_pin(chosen, pin)
    with database.session() as session:
        signer = _approving(_chain_to_write(session), approver)
        account = _create_in(session, name, chosen, pin, signer)
        _commit_new(session, _("there is already a user called {name}").format(name=name))
    return account


def builtin_replay_account(database: Database) -> Account | None:
    """The built-in `replay` dealer, signed in, if this database has it (only it has no PIN)."""
    with database.session() as session:
        state = read_chain(session).accounts.get(BUILTIN_REPLAY)
    return _opened(state, "") if state is not None and state.builtin else None


def create_accounts(
    database: Database, accounts: Sequence[tuple[str, Role, str]], *, builtin: bool = False
) -> list[Account]:
    """The room's set-up: its first accounts, in one transaction, so that another run starting on
    the same new database finds all of them or none: the built-in replay dealer if asked, then the
    supervisors (the first signing their own creation and approving the rest), then the dealers.
    Only in a database whose accounts chain holds no account yet, before any signed session.

    When another desk or run set the room up a moment ago (desks starting together on a new room),
    each account asked for is accepted if it is the same one (`same_account`: there, with its role,
    opened by its PIN) and refused in words if not."""
    ordered = sorted(accounts, key=lambda account: account[1] is not Role.SUPERVISOR)
    for _name, role, pin in ordered:
        _check_new_pin(role, pin)
    if ordered and ordered[0][1] is not Role.SUPERVISOR:
        raise SignInError(_("a database's first account is its floor supervisor"))
    created: list[Account] = []
    with database.session() as session:
        chain = _chain_to_write(session)
        if chain.accounts and (builtin or not _only_replay(chain)):
            session.rollback()
            return _same_accounts(database, ordered, builtin=builtin)
        _refuse_unless_new(session, chain)
        if builtin:
            created.append(_create_in(session, BUILTIN_REPLAY, Role.DEALER, "", None, builtin=True))
        approver: Account | None = None
        for name, role, pin in ordered:
            account = _create_in(session, account_name(name), role, pin, approver)
            approver = approver or account
            created.append(account)
        _commit_new(session, _("another run created accounts here at the same time"))
    return created


def _same_accounts(
    database: Database, accounts: Sequence[tuple[str, Role, str]], *, builtin: bool
) -> list[Account]:
    """The accounts another start made a moment ago, each accepted when it is the one asked for."""
    same: list[Account] = []
    if builtin:
        replay = builtin_replay_account(database)
        if replay is None:
            raise SignInError(
                _(
                    "this room has accounts already, without the built-in replay dealer: a floor"
                    " supervisor approves each new one"
                )
            )
        same.append(replay)
    return same + [same_account(database, account_name(name), role, pin) for name, role, pin in accounts]


def same_account(database: Database, name: str, role: Role, pin: str) -> Account:
    """The account another desk or run made under `name` a moment ago, accepted as the one this
    start asked for when it is the same: it has `role`, and `pin` opens it (checked as a sign-in:
    recorded, and counted by the lockout, so this is no way round it). Refused in words otherwise,
    without telling whether the name exists (a sign-in's one answer)."""
    try:
        return sign_in(database, name, pin, role)
    except SignInError:
        raise SignInError(
            _(
                "this room has accounts already, and these are not among them as given: sign in, or a"
                " floor supervisor approves each new account"
            )
        ) from None


def _only_replay(chain: AccountsChain) -> bool:
    """Whether the built-in replay dealer is the room's only account (a replay into an empty
    database): nobody signs in there yet, so the room is still to be set up."""
    return bool(chain.accounts) and all(state.builtin for state in chain.accounts.values())


def _refuse_unless_new(session: Session, chain: AccountsChain) -> None:
    """A room is set up once: before any account, and before any table signed its record; or
    where only the built-in replay dealer was made, whose key is all its replayed tables hold."""
    if _only_replay(chain):
        return
    if chain.accounts:
        raise SignInError(_("this room has accounts already: a floor supervisor approves each new one"))
    signed = session.scalar(select(TableSession.id).where(TableSession.id > chain.sessions_before).limit(1))
    if signed is not None:
        raise SignInError(_("this room has recorded tables already: its accounts cannot be set up again"))


def _commit_new(session: Session, taken: str) -> None:
    try:
        session.commit()
    except IntegrityError:  # made by another desk or run since the look before
        raise SignInError(taken) from None


def _create_in(
    session: Session, name: str, role: Role, pin: str, approver: Account | None, *, builtin: bool = False
) -> Account:
    """One new account; without an approver it signs its own creation (the room's set-up)."""
    key = keys.new_private_key()
    pin_hash, derived = pin_material(pin)
    payload: dict[str, object] = {
        "role": role.value,
        "pin_hash": pin_hash,
        "public_key": keys.public_hex(key),
        "sealed_key": keys.seal(key, derived),
        **_pin_length(pin),
    }
    if builtin:
        payload["builtin"] = True
    if session.scalar(select(User.id).where(User.name == name)) is not None:
        raise SignInError(_("there is already a user called {name}").format(name=name))
    signer = approver if approver is not None else Account(name, role, key)
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


def _pin_length(pin: str) -> dict[str, object]:
    """What an account event says of a new PIN: whether it has a supervisor's length."""
    return {"long_pin": True} if len(pin) >= SUPERVISOR_PIN_LENGTH else {}


def change_role(database: Database, name: str, role: Role, approver: Account) -> None:
    """Make an account a dealer or a supervisor, signed by the approving supervisor. A supervisor's
    PIN has at least 8 characters: a dealer with a shorter one changes it first."""
    with database.session() as session:
        chain = _chain_to_write(session)
        signer = _approving(chain, approver)
        state = _state_or_refuse(chain, name)
        if role is Role.SUPERVISOR and not state.long_pin:
            raise SignInError(
                _(
                    "{name}'s PIN has fewer than {count} characters, too few for a floor supervisor: "
                    "change it first"
                ).format(name=state.name, count=SUPERVISOR_PIN_LENGTH)
            )
        if role is Role.SUPERVISOR and chain.rotate_from and not state.strong_key:
            raise SignInError(_weak_key_refusal(state.name))
        user = _user_or_refuse(session, state.name)
        payload = {"role": role.value}
        event = _append_event(session, AccountKind.ROLE_CHANGED, user.name, signer, payload)
        user.role, user.account_seq = role.value, event.seq
        session.commit()


def change_pin(database: Database, name: str, old_pin: str, new_pin: str, approver: Account) -> None:
    """A new PIN for an account, with a new key pair sealed under it (the old key stays valid for
    what it signed before: each key is sealed under one PIN only), signed by the approving
    supervisor; the old PIN, checked as a sign-in is, must open the key. An account an upgrade
    left without a key gets one this way (`key_added`, the supervisor's signature on it). A
    supervisor may approve their own change to a PIN of a supervisor's length."""
    with database.session() as session:
        state = _state_or_refuse(read_chain(session), name)
    _check_new_pin(Role(state.role), new_pin)
    account = _check(database, state.name, old_pin, None)
    own = approver.name == state.name and len(new_pin) >= SUPERVISOR_PIN_LENGTH and account.key is not None
    _seal_again(database, account, new_pin, lambda chain: _approving(chain, approver, own_longer_pin=own))


_NO_SECOND_SET_UP = lazy_gettext(
    "a supervisor holds a key already: another supervisor approves this account's new PIN"
)


def set_up_first_key(database: Database, name: str, pin: str, new_pin: str) -> Account:
    """The set-up of a room an upgrade left with no supervisor holding a key: a supervisor, with
    their PIN, gives themselves a key pair sealed with a new PIN of a supervisor's length, signing
    it with that key. Only once: never when any supervisor holds a key."""
    _check_new_pin(Role.SUPERVISOR, new_pin)
    with database.session() as session:
        chain = read_chain(session)
    state = _state_or_refuse(chain, name)
    if chain.supervisor_keyed or state.role != Role.SUPERVISOR.value or state.public_key:
        raise SignInError(str(_NO_SECOND_SET_UP))
    account = _check(database, state.name, pin, Role.SUPERVISOR)

    def itself(chain: AccountsChain) -> Account | None:
        if chain.supervisor_keyed:
            raise SignInError(str(_NO_SECOND_SET_UP))
        return None  # the new key signs its own event

    return _seal_again(database, account, new_pin, itself)


def _seal_again(
    database: Database, account: Account, new_pin: str, signer: Callable[[AccountsChain], Account | None]
) -> Account:
    """A new key pair for `account`, sealed with `new_pin` (`key_added` for an account without one:
    a PIN change otherwise), the event signed by whom `signer` names as the chain stands (None: the
    new key itself). The old key is never sealed under the new PIN: a key once sealed under a short
    PIN could be unsealed from the record whatever PIN came after."""
    pin_hash, derived = pin_material(new_pin)
    kind = AccountKind.PIN_CHANGED if account.key is not None else AccountKind.KEY_ADDED
    with database.session() as session:
        chain = _chain_to_write(session)
        # A schema from before migration 0012 (a test of an upgrade) seals the same key again.
        key = keys.new_private_key() if chain.rotate_from or account.key is None else account.key
        keyed = Account(account.name, account.role, key)
        payload: dict[str, object] = {
            "pin_hash": pin_hash,
            "public_key": keys.public_hex(key),
            "sealed_key": keys.seal(key, derived),
            **_pin_length(new_pin),
        }
        approving = signer(chain) or keyed
        user = _user_or_refuse(session, account.name)
        event = _append_event(session, kind, user.name, approving, payload)
        user.pin_hash, user.sealed_key, user.account_seq = pin_hash, str(payload["sealed_key"]), event.seq
        user.public_key = str(payload["public_key"])
        session.commit()
    # The old PIN was just checked and the new key made: an accepted PIN signed by the new key
    # ends the count of wrong PINs (one signed by an older key no longer does: `lockout`).
    with lockout.name_held(database, account.name) as session:
        lockout.record(session, account.name, "", Attempt.ACCEPTED, key)
    return keyed


def supervisor_holds_a_key(database: Database) -> bool:
    """Whether the room is set up: some supervisor holds a key, or the room has no account yet."""
    with database.session() as session:
        chain = read_chain(session)
    return chain.supervisor_keyed or not any(not state.builtin for state in chain.accounts.values())


def _approving(chain: AccountsChain, approver: Account, *, own_longer_pin: bool = False) -> Account:
    """The approver as the accounts chain knows them: a supervisor now, their key the chain's, a PIN
    of a supervisor's length (or their own change to one). An Account built by hand with another
    key is refused here, before anything is signed."""
    state = chain.accounts.get(approver.name)
    if (
        approver.key is None
        or state is None
        or state.builtin
        or state.role != Role.SUPERVISOR.value
        or keys.public_hex(approver.key) != state.public_key
    ):
        raise SignInError(_("a floor supervisor, signed in, must approve this"))
    if not state.long_pin and not own_longer_pin:
        raise SignInError(_short_supervisor_pin(state.name))
    if chain.rotate_from and not state.strong_key and not own_longer_pin:
        raise SignInError(_weak_key_refusal(state.name))
    return Account(state.name, Role.SUPERVISOR, approver.key)


def _weak_key_refusal(name: str) -> str:
    return _(
        "{name}'s key was once sealed under a PIN shorter than {count} characters: a new PIN (Settings →"
        " Change an account's PIN…) gives a floor supervisor's key"
    ).format(name=name, count=SUPERVISOR_PIN_LENGTH)


def _short_supervisor_pin(name: str) -> str:
    return _(
        "{name}'s PIN has fewer than {count} characters: a floor supervisor changes it"
        " (Settings → Change an account's PIN…) before approving anything"
    ).format(name=name, count=SUPERVISOR_PIN_LENGTH)


def _state_or_refuse(chain: AccountsChain, name: str) -> AccountState:
    state = chain.accounts.get(name.strip())
    if state is None or state.builtin:
        raise SignInError(_("there is no user called {name}").format(name=name.strip()))
    return state


def _user_or_refuse(session: Session, name: str) -> User:
    user = session.scalar(select(User).where(User.name == name.strip()))
    if user is None:
        raise SignInError(_("there is no user called {name}").format(name=name.strip()))
    return user


def _append_event(
    session: Session, kind: AccountKind, name: str, signer: Account, payload: Mapping[str, object]
) -> AccountEvent:
    """The next account event, signed by `signer`, flushed (a second desk appending the same
    number at once fails on the primary key); under the chain's lock, which the change took
    before reading the chain (taking it again holds it still)."""
    hold_append_lock(session, ACCOUNTS_LOCK)
    last = session.scalars(select(AccountEvent).order_by(AccountEvent.seq.desc()).limit(1)).first()
    seq, previous = (last.seq + 1, last.hash) if last is not None else (1, GENESIS_HASH)
    at = system_clock().strftime(TIME_FORMAT)
    text = canonical_json({**payload, "room": room_position(session)})
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
    PIN (before migration 0012), must change it before approving."""
    account = _check(database, name, pin, role)
    if account.key is None:
        raise SignInError(
            _(
                "this account has no key since an upgrade: a floor supervisor approves a new PIN for it"
                " (Settings → Change an account's PIN…), which gives it one"
            )
        )
    if role is Role.SUPERVISOR and len(pin) < SUPERVISOR_PIN_LENGTH:
        raise SignInError(_short_supervisor_pin(account.name))
    if role is Role.SUPERVISOR:
        with database.session() as session:
            chain = read_chain(session)
        state = chain.accounts.get(account.name)
        if chain.rotate_from and (state is None or not state.strong_key):
            raise SignInError(_weak_key_refusal(account.name))
    return account


def _check(database: Database, name: str, pin: str, role: Role | None) -> Account:
    """One PIN check, counted by the lockout and recorded in its chain, in one transaction that
    holds the name; the account (maybe without a key) or SignInError. The lockout's time is the
    database's (`lockout.database_now`): no caller passes a clock."""
    typed = _as_recorded(name)
    asked = role.value if role is not None else ""
    account: Account | None = None
    with lockout.name_held(database, typed) as session:
        chain = read_chain(session)
        wait = lockout.wait_left(session, typed, lockout.database_now(session), chain)
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
            return account
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
