"""Changes to the accounts, each a signed event appended to the accounts chain with its users row.

The room's set-up (`create_accounts`), a new account, a role, a PIN or a first key; each event
records the room's position (`accounts_room.room_position`) and is signed by the supervisor who
approves it (at a room's set-up, by the new key itself).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime

from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ofc_desk.i18n import _, lazy_gettext, ngettext
from ofc_desk.storage import keys, lockout
from ofc_desk.storage.accounts import (
    BUILTIN_REPLAY,
    AccountKind,
    AccountsChain,
    AccountState,
    account_event_hash,
)
from ofc_desk.storage.accounts_room import room_position
from ofc_desk.storage.append_locks import ACCOUNTS_LOCK, hold_append_lock
from ofc_desk.storage.audit import GENESIS_HASH, TIME_FORMAT, canonical_json
from ofc_desk.storage.database import Database
from ofc_desk.storage.lockout import Attempt
from ofc_desk.storage.models import AccountEvent, TableSession, User
from ofc_desk.storage.pins import pin_material
from ofc_desk.storage.users import (
    MIN_PIN_LENGTH,
    SUPERVISOR_PIN_LENGTH,
    Account,
    Role,
    SignInError,
    account_name,
    builtin_replay_account,
    check_pin,
    read_chain,
    short_pin_refusal,
    sign_in,
    weak_key_refusal,
)


def system_clock() -> datetime:
    """The time an account event records (the lockout reads the database's own: `lockout`)."""
    return datetime.now(UTC)


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
            raise SignInError(weak_key_refusal(state.name))
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
    account = check_pin(database, state.name, old_pin, None)
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
    account = check_pin(database, state.name, pin, Role.SUPERVISOR)

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
        raise SignInError(short_pin_refusal(state.name))
    if chain.rotate_from and not state.strong_key and not own_longer_pin:
        raise SignInError(weak_key_refusal(state.name))
    return Account(state.name, Role.SUPERVISOR, approver.key)


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
