"""Accounts as events: a hash chain of its own (`account_events`), each event signed by the floor
supervisor who approved it, and the `users` table derived from it.

- `account_imported`: an account that existed before sign-offs (migration 0006), unsigned and
  keyless (its payload is its role and PIN hash, nothing else); only at the start of the chain.
- `signoffs_started`: written once by migration 0006 after the imports: table sessions numbered
  above its `sessions_before` must carry their dealers' and supervisors' signatures.
- `account_created`: signed by a supervisor holding that role then. The room's set-up is the one
  exception: its first supervisor signs their own creation, when the chain holds no account but
  the built-in `replay` dealer (whose key is sealed with no PIN, so it can deal but never sign a
  supervisor's action), and before any signed table session (checked with the room:
  `service.signoffs`).
- `role_changed`, `pin_changed`: signed by a supervisor.
- `key_added`: an imported account's key pair. Before the mark below, signed by that new key at
  the account's first sign-in (the rule migration 0006 shipped with).
- `approvals_required`: written once by migration 0008. From it on: a `key_added` is signed by a
  supervisor who holds a key (only the room's set-up, when no supervisor has ever held one, lets a
  supervisor sign their own); a supervisor's PIN has at least 8 characters (`long_pin` in the
  payload that set it: a new supervisor, a supervisor's new PIN or key, a dealer made supervisor);
  a supervisor whose PIN is shorter approves nothing but their own change to a longer one.
- `keys_rotate`: written once by migration 0012, with the room's position then (`room`). From it
  on: every PIN change gives the account a new key pair (`public_key` in its payload), so each key
  is sealed under one PIN only; a key ever sealed under a PIN shorter than a supervisor's (before
  the mark) is never a supervisor's: such a supervisor approves nothing but their own change to a
  longer PIN, and such a dealer is promoted only after one.

Every account event the library writes records the room's position as it stood (`room`: the
newest session and the head of every open one), read under the accounts chain's lock, which each
signature at a table takes (shared) to read the accounts head it names: so an event at a table
after that position was signed under that account event or a later one (`AccountsChain.floor`),
and a signature naming an older one was made with a key or role it no longer had (backdated).

`fold_accounts` replays the chain and checks every hash and signature: what sign-in trusts, what
`verify` runs, and what the users table must equal.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from sqlalchemy import and_, func, select, text
from sqlalchemy.orm import Session

from ofc_desk.i18n import _
from ofc_desk.storage.audit import GENESIS_HASH, canonical_json
from ofc_desk.storage.keys import account_message, signature_holds
from ofc_desk.storage.models import AccountEvent, Event, TableSession, User

BUILTIN_REPLAY = "replay"
SUPERVISOR = "supervisor"
IMPORTED_FIELDS = frozenset({"pin_hash", "role"})
"""All an `account_imported` payload holds: migration 0006 imported accounts without keys."""


class AccountKind(StrEnum):
    CREATED = "account_created"
    ROLE_CHANGED = "role_changed"
    PIN_CHANGED = "pin_changed"
    IMPORTED = "account_imported"
    KEY_ADDED = "key_added"
    SIGNOFFS_STARTED = "signoffs_started"
    APPROVALS_REQUIRED = "approvals_required"
    KEYS_ROTATE = "keys_rotate"


MIGRATION_MARKS = (AccountKind.SIGNOFFS_STARTED, AccountKind.APPROVALS_REQUIRED, AccountKind.KEYS_ROTATE)
"""Unsigned events only the migrations write."""


class AccountsFault(Exception):
    """The first thing wrong with the accounts chain or the users table."""


@dataclass(frozen=True)
class KeySpan:
    """One key pair an account held, from the account event that gave it on."""

    since: int
    public_key: str
    strong: bool
    """Every PIN that ever sealed it had a supervisor's length: only such a key is a supervisor's
    after the `keys_rotate` mark (a key once sealed under a short PIN can be unsealed offline)."""


@dataclass(frozen=True)
class RoomPosition:
    """Where the room's tables stood when an account event was written: the newest session, and
    the head of each session open then. An event at a table beyond it came after that account
    event."""

    since: int
    newest_session: int
    open_heads: dict[int, int]

    def precedes(self, session_id: int, seq: int) -> bool:
        if session_id > self.newest_session:
            return True
        head = self.open_heads.get(session_id)
        return head is not None and seq > head


def room_position(session: Session) -> dict[str, object]:
    """The `room` field of an account event (`RoomPosition`), as stored: read under the accounts
    chain's lock, which every signature at a table takes (shared) before it reads the accounts head,
    so no event signed under an older head can come after the position read here."""
    newest = session.scalar(select(func.coalesce(func.max(TableSession.id), 0)))
    heads = session.execute(
        select(TableSession.id, TableSession.head_seq)
        .where(TableSession.closed_at.is_(None))
        .order_by(TableSession.id)
    ).all()
    return {"newest_session": int(newest or 0), "open": {str(row.id): int(row.head_seq) for row in heads}}


@dataclass
class AccountState:
    name: str
    role: str
    pin_hash: str
    public_key: str
    sealed_key: str
    seq: int
    builtin: bool = False
    created_at: str = ""
    long_pin: bool = False
    """The PIN that seals the key has a supervisor's length (said by the event that set it)."""
    keyed_seq: int = 0
    """The account event that gave it its key (0: none yet)."""
    roles: list[tuple[str, str]] = field(default_factory=list)
    """(from time, role): what the account could sign when."""
    roles_by_seq: list[tuple[int, str]] = field(default_factory=list)
    """(from account event, role): what the account could sign under which accounts head."""
    keys: list[KeySpan] = field(default_factory=list)
    """Every key pair it held, in order: a signature is checked against the one valid under the
    accounts head it names."""

    def role_at(self, at: str) -> str | None:
        held = [role for since, role in self.roles if since <= at]
        return held[-1] if held else None

    def role_under(self, accounts_seq: int) -> str | None:
        """Its role as the accounts chain stood at event `accounts_seq`."""
        held = [role for since, role in self.roles_by_seq if since <= accounts_seq]
        return held[-1] if held else None

    def set_role(self, event: AccountEvent, role: str) -> None:
        self.role = role
        self.roles.append((event.at, role))
        self.roles_by_seq.append((event.seq, role))

    def key_under(self, accounts_seq: int) -> KeySpan | None:
        """The key pair it held as the accounts chain stood at event `accounts_seq`."""
        held = [span for span in self.keys if span.since <= accounts_seq]
        return held[-1] if held else None

    def set_key(self, event: AccountEvent, public_key: str, strong: bool) -> None:
        self.public_key = public_key
        self.keys.append(KeySpan(event.seq, public_key, strong))

    @property
    def created_keyed(self) -> bool:
        """Made with a key (not imported without one): it never had a right PIN without a key."""
        return bool(self.keys) and self.keys[0].since == self.roles_by_seq[0][0]

    @property
    def strong_key(self) -> bool:
        """Its key was only ever sealed under PINs of a supervisor's length."""
        return bool(self.keys) and self.keys[-1].strong


def account_event_hash(
    prev_hash: str, seq: int, kind: str, name: str, approved_by: str, at: str, payload: str
) -> str:
    content = canonical_json(
        {"seq": seq, "kind": kind, "name": name, "approved_by": approved_by, "at": at, "payload": payload}
    )
    return hashlib.sha256((prev_hash + content).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class AccountsChain:
    accounts: dict[str, AccountState]
    sessions_before: int
    """Sessions numbered up to this were opened before sign-offs and carry no signatures."""
    signoffs_at: str = ""
    """When sign-offs began (migration 0006): every session before them opened earlier."""
    founded_at: str = ""
    """When the room's first supervisor signed their own creation ("" when none did)."""
    strict_from: int = 0
    """The `approvals_required` mark's event number (0: the chain has none, an older schema)."""
    hashes: tuple[str, ...] = ()
    """Every event's hash, by event number (the first at index 0)."""
    supervisor_keyed: bool = False
    """Some supervisor has held a key: the room is set up (never by a self-signed key again)."""
    rotate_from: int = 0
    """The `keys_rotate` mark's event number (0: the chain has none, an older schema)."""
    positions: tuple[RoomPosition, ...] = ()
    """The room's position each account event recorded (those from before the mark record none)."""

    def ever_supervisors(self) -> set[str]:
        """Every name that held the supervisor's role at some point of the chain."""
        return {
            name
            for name, state in self.accounts.items()
            if any(role == SUPERVISOR for _since, role in state.roles_by_seq)
        }

    def floor(self, session_id: int, seq: int) -> int:
        """The newest account event written before event `seq` of session `session_id` was
        recorded: a signature on that event names it or a later one (0: none known)."""
        return max(
            (position.since for position in self.positions if position.precedes(session_id, seq)), default=0
        )

    @property
    def head(self) -> tuple[int, str]:
        """The newest event's number and hash: what a sign-off or an anchor names."""
        return (len(self.hashes), self.hashes[-1]) if self.hashes else (0, GENESIS_HASH)

    def holds(self, seq: int, digest: str) -> bool:
        """Whether event `seq` is still there with hash `digest`."""
        return 0 < seq <= len(self.hashes) and self.hashes[seq - 1] == digest


@dataclass
class _Fold:
    accounts: dict[str, AccountState] = field(default_factory=dict)
    sessions_before: int | None = None
    signoffs_at: str = ""
    founded_at: str = ""
    strict_from: int = 0
    supervisor_keyed: bool = False
    """Some supervisor has held a key: the room's set-up is done."""
    rotate_from: int = 0
    positions: list[RoomPosition] = field(default_factory=list)

    def note_keys(self, name: str) -> None:
        """After an event for `name`: whether a supervisor now holds a key."""
        state = self.accounts.get(name)
        if state is not None and state.public_key and state.role == SUPERVISOR and not state.builtin:
            self.supervisor_keyed = True


def fold_accounts(events: Sequence[AccountEvent]) -> AccountsChain:
    """Every account as the chain leaves it; AccountsFault on the first broken link or signature."""
    fold = _Fold()
    previous, hashes = GENESIS_HASH, []
    for position, event in enumerate(events, start=1):
        where = _("account event {seq}").format(seq=event.seq)
        if event.seq != position:
            raise AccountsFault(_("accounts: an event is missing before {where}").format(where=where))
        digest = account_event_hash(
            previous, event.seq, event.kind, event.name, event.approved_by, event.at, event.payload
        )
        if event.prev_hash != previous or event.hash != digest:
            raise AccountsFault(_("{where} was altered").format(where=where))
        try:
            payload = json.loads(event.payload)
            _fold_one(fold, event, payload, where)
            _note_position(fold, event, payload)
        except (ValueError, KeyError, TypeError) as error:
            raise AccountsFault(
                _("{where} cannot be read: {error}").format(where=where, error=error)
            ) from None
        fold.note_keys(event.name)
        previous = event.hash
        hashes.append(event.hash)
    if fold.sessions_before is None:
        raise AccountsFault(_("accounts: the chain does not record where sign-offs start (migration 0006)"))
    return AccountsChain(
        fold.accounts,
        fold.sessions_before,
        fold.signoffs_at,
        fold.founded_at,
        fold.strict_from,
        tuple(hashes),
        fold.supervisor_keyed,
        fold.rotate_from,
        tuple(fold.positions),
    )


def _note_position(fold: _Fold, event: AccountEvent, payload: dict[str, Any]) -> None:
    """The room's position the event recorded: every event from the `keys_rotate` mark on has one
    (before it, none is read: the rules of the chain then did not ask for it)."""
    if not fold.rotate_from:
        return
    room = payload.get("room")
    if not isinstance(room, dict):
        raise AccountsFault(
            _("account event {seq} does not say where the room stood when it was written").format(
                seq=event.seq
            )
        )
    heads = {int(key): int(value) for key, value in dict(room["open"]).items()}
    fold.positions.append(RoomPosition(event.seq, int(room["newest_session"]), heads))


def _fold_one(fold: _Fold, event: AccountEvent, payload: dict[str, Any], where: str) -> None:
    kind = AccountKind(event.kind)
    if fold.sessions_before is None:
        if kind is AccountKind.SIGNOFFS_STARTED:
            fold.sessions_before, fold.signoffs_at = int(payload["sessions_before"]), event.at
        elif kind is AccountKind.IMPORTED:
            if set(payload) != IMPORTED_FIELDS:
                raise AccountsFault(
                    _("{where}: an imported account holds its role and PIN hash, no key").format(where=where)
                )
            _new(fold.accounts, event, payload, where)
        else:
            raise AccountsFault(
                _("{where}: the accounts chain does not start as migration 0006 wrote it").format(where=where)
            )
    elif kind is AccountKind.APPROVALS_REQUIRED and not fold.strict_from:
        fold.strict_from = event.seq
    elif kind is AccountKind.KEYS_ROTATE and fold.strict_from and not fold.rotate_from:
        fold.rotate_from = event.seq
    elif kind in (AccountKind.IMPORTED, *MIGRATION_MARKS):
        raise AccountsFault(
            _("{where}: only a migration writes {kind}, once, at its place in the chain").format(
                where=where, kind=kind.value
            )
        )
    elif kind is AccountKind.KEY_ADDED:
        _add_key(fold, event, payload, where)
    else:
        _apply(fold, event, kind, payload, where)


def _add_key(fold: _Fold, event: AccountEvent, payload: dict[str, Any], where: str) -> None:
    state = _existing(fold.accounts, event.name, where)
    if state.public_key:
        raise AccountsFault(_("{where}: {name} has a key already").format(where=where, name=event.name))
    if not fold.strict_from:
        if event.approved_by != event.name:
            raise AccountsFault(
                _("{where}: only an imported account without a key adds its own").format(where=where)
            )
        _check_signature(event, payload["public_key"], where)
    elif event.approved_by == event.name:
        # The room's set-up after an upgrade that left no supervisor with a key: done once.
        if fold.supervisor_keyed or state.role != SUPERVISOR:
            raise AccountsFault(
                _("{where}: {name} cannot give themselves a key: a supervisor approves it").format(
                    where=where, name=event.name
                )
            )
        _check_signature(event, payload["public_key"], where)
    else:
        _check_signature(event, _approver(fold, event, where).public_key, where)
    if fold.strict_from and state.role == SUPERVISOR and payload.get("long_pin") is not True:
        raise AccountsFault(_("{where}: a supervisor's PIN has at least 8 characters").format(where=where))
    state.sealed_key = payload["sealed_key"]
    state.pin_hash, state.long_pin = payload["pin_hash"], payload.get("long_pin") is True
    state.set_key(event, str(payload["public_key"]), state.long_pin)
    state.keyed_seq = state.seq = event.seq


def _apply(fold: _Fold, event: AccountEvent, kind: AccountKind, payload: dict[str, Any], where: str) -> None:
    accounts = fold.accounts
    first = all(state.builtin for state in accounts.values())
    self_made = first and event.approved_by == event.name and kind is AccountKind.CREATED
    if self_made and not (payload["role"] == SUPERVISOR or payload.get("builtin") is True):
        raise AccountsFault(
            _("{where}: a database's first account is a supervisor or the built-in replay").format(
                where=where
            )
        )
    if self_made:
        _check_signature(event, payload["public_key"], where)
        if payload["role"] == SUPERVISOR:
            fold.founded_at = event.at
    else:
        own_longer_pin = (
            kind is AccountKind.PIN_CHANGED
            and event.approved_by == event.name
            and payload.get("long_pin") is True
        )
        _check_signature(event, _approver(fold, event, where, own_longer_pin).public_key, where)
    if kind is AccountKind.CREATED:
        if fold.strict_from and payload["role"] == SUPERVISOR and payload.get("long_pin") is not True:
            raise AccountsFault(
                _("{where}: a supervisor's PIN has at least 8 characters").format(where=where)
            )
        _new(accounts, event, payload, where)
        return
    state = _existing(accounts, event.name, where)
    if kind is AccountKind.ROLE_CHANGED:
        if fold.strict_from and payload["role"] == SUPERVISOR and not state.long_pin:
            raise AccountsFault(
                _("{where}: {name}'s PIN is shorter than a supervisor's (8 characters)").format(
                    where=where, name=event.name
                )
            )
        if fold.rotate_from and payload["role"] == SUPERVISOR and not state.strong_key:
            raise AccountsFault(_weak_key(where, event.name))
        state.set_role(event, payload["role"])
    else:
        if fold.strict_from and state.role == SUPERVISOR and payload.get("long_pin") is not True:
            raise AccountsFault(
                _("{where}: a supervisor's PIN has at least 8 characters").format(where=where)
            )
        _new_pin(fold, event, state, payload, where)
    state.seq = event.seq


def _new_pin(
    fold: _Fold, event: AccountEvent, state: AccountState, payload: dict[str, Any], where: str
) -> None:
    """A PIN change: from the `keys_rotate` mark on, with a new key pair (the old one stays valid
    for what it signed before); before it, the same key sealed again, strong only if every PIN
    that sealed it was."""
    state.pin_hash, state.sealed_key = payload["pin_hash"], payload["sealed_key"]
    state.long_pin = payload.get("long_pin") is True
    if "public_key" in payload and fold.rotate_from:
        state.set_key(event, str(payload["public_key"]), state.long_pin)
    elif fold.rotate_from:
        raise AccountsFault(
            _("{where}: a PIN change gives the account a new key (migration 0012)").format(where=where)
        )
    elif state.keys:
        state.keys[-1] = replace(state.keys[-1], strong=state.keys[-1].strong and state.long_pin)


def _weak_key(where: str, name: str) -> str:
    return _(
        "{where}: {name}'s key was once sealed under a PIN shorter than a supervisor's: it is no"
        " supervisor's key (a new PIN gives a new one)"
    ).format(where=where, name=name)


def _approver(fold: _Fold, event: AccountEvent, where: str, own_longer_pin: bool = False) -> AccountState:
    """The supervisor who approved `event`, as the chain stands before it."""
    approver = fold.accounts.get(event.approved_by)
    if approver is None or approver.builtin or approver.role != SUPERVISOR or not approver.public_key:
        who = event.approved_by or _("no one")
        raise AccountsFault(
            _("{where}: {who} is not a supervisor who could approve it").format(where=where, who=who)
        )
    if fold.strict_from and not approver.long_pin and not own_longer_pin:
        raise AccountsFault(
            _("{where}: {name}'s PIN is shorter than a supervisor's: it approves nothing").format(
                where=where, name=approver.name
            )
        )
    if fold.rotate_from and not approver.strong_key and not own_longer_pin:
        raise AccountsFault(_weak_key(where, approver.name))
    return approver


def _new(accounts: dict[str, AccountState], event: AccountEvent, payload: dict[str, Any], where: str) -> None:
    if event.name in accounts:
        raise AccountsFault(_("{where}: {name} already has an account").format(where=where, name=event.name))
    role = str(payload["role"])
    public_key = str(payload.get("public_key") or "")
    state = AccountState(
        event.name,
        role,
        str(payload["pin_hash"]),
        public_key,
        str(payload.get("sealed_key") or ""),
        event.seq,
        builtin=payload.get("builtin") is True,
        created_at=event.at,
        long_pin=payload.get("long_pin") is True,
        keyed_seq=event.seq if public_key else 0,
    )
    state.set_role(event, role)
    if public_key:
        state.set_key(event, public_key, state.long_pin)
    accounts[event.name] = state


def _existing(accounts: dict[str, AccountState], name: str, where: str) -> AccountState:
    state = accounts.get(name)
    if state is None:
        raise AccountsFault(_("{where}: {name} has no account").format(where=where, name=name))
    return state


def _check_signature(event: AccountEvent, public_key: str, where: str) -> None:
    message = account_message(event.seq, event.hash)
    if not public_key or not signature_holds(public_key, message, event.signature):
        raise AccountsFault(_("{where}: its signature does not hold").format(where=where))


APPROVALS_REVISION = "0008"
"""The migration that writes the accounts chain's `approvals_required` mark, names the accounts head
in every sign-off and chains the PIN checks."""
ROTATION_REVISION = "0012"
"""The migration that writes the accounts chain's `keys_rotate` mark."""


def anchors_accounts(session: Session) -> bool:
    """Whether the schema is of migration 0008 or later (remembered for the session): a copy of an
    older one, read only (`verify`, a report), has neither the sign-offs' accounts columns nor the
    chain of PIN checks, and is read as it stands."""
    return _at_least(session, APPROVALS_REVISION)


def _at_least(session: Session, wanted: str) -> bool:
    known = session.info.get(wanted)
    if known is None:
        revision = session.scalar(text("SELECT max(version_num) FROM alembic_version"))
        known = session.info[wanted] = revision is not None and str(revision) >= wanted
    return bool(known)


def room_fault(session: Session, chain: AccountsChain) -> str | None:
    """Where the accounts chain disagrees with the room's tables and schema, said in words: where
    it says sign-offs began must agree with the tables (a session linked into the room chain, which
    came after sign-offs, or opened after they began, cannot be one from before them); the room's
    set-up (its first supervisor signing their own creation) comes before any signed session; a
    schema of migration 0008 has its mark in the chain. A session is judged by its opening event
    (its row is checked against it)."""
    before = chain.sessions_before
    openings = select(func.min(TableSession.id)).join(
        Event, and_(Event.session_id == TableSession.id, Event.seq == 1)
    )
    early = TableSession.id <= before
    linked = session.scalar(openings.where(early, Event.prev_hash != GENESIS_HASH))
    later = session.scalar(openings.where(early, Event.at > chain.signoffs_at))
    if linked is not None or later is not None:
        return _(
            "accounts: session {session} was opened after sign-offs began, yet the accounts chain says"
            " sessions up to {before} carry none: its start was rewritten"
        ).format(session=linked or later, before=before)
    # Sessions are numbered in the order they open (the room chain links each to the one before).
    first_signed = select(func.min(TableSession.id)).where(~early).scalar_subquery()
    signed = chain.founded_at and session.scalar(
        openings.where(TableSession.id == first_signed, Event.at < chain.founded_at)
    )
    if signed:
        return _(
            "accounts: a supervisor signed their own creation after session {signed} was recorded: only"
            " a room's set-up does that, before any table"
        ).format(signed=signed)
    if not chain.strict_from and anchors_accounts(session):
        return _("accounts: the chain lacks the mark migration 0008 wrote: it was cut or rewritten")
    if not chain.rotate_from and _at_least(session, ROTATION_REVISION):
        return _("accounts: the chain lacks the mark migration 0012 wrote: it was cut or rewritten")
    return None


def check_users_table(accounts: dict[str, AccountState], users: Sequence[User]) -> None:
    """The users table must be exactly what the accounts chain gives."""
    by_name = {user.name: user for user in users}
    for name, state in accounts.items():
        user = by_name.pop(name, None)
        if user is None:
            raise AccountsFault(_("users: {name}'s account is missing").format(name=name))
        stored = (
            user.role,
            user.pin_hash,
            user.public_key,
            user.sealed_key,
            user.account_seq,
            user.created_at,
        )
        chained = (
            state.role,
            state.pin_hash,
            state.public_key,
            state.sealed_key,
            state.seq,
            state.created_at,
        )
        if stored != chained:
            raise AccountsFault(_("users: {name}'s row differs from the accounts chain").format(name=name))
    if by_name:
        raise AccountsFault(_("users: {name} has no account event").format(name=min(by_name)))
