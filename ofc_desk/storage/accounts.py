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

`fold_accounts` replays the chain and checks every hash and signature: what sign-in trusts, what
`verify` runs, and what the users table must equal.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
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


MIGRATION_MARKS = (AccountKind.SIGNOFFS_STARTED, AccountKind.APPROVALS_REQUIRED)
"""Unsigned events only the migrations write."""


class AccountsFault(Exception):
    """The first thing wrong with the accounts chain or the users table."""


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
            _fold_one(fold, event, json.loads(event.payload), where)
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
    )


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
    state.public_key, state.sealed_key = payload["public_key"], payload["sealed_key"]
    state.pin_hash, state.long_pin = payload["pin_hash"], payload.get("long_pin") is True
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
        state.set_role(event, payload["role"])
    else:
        if fold.strict_from and state.role == SUPERVISOR and payload.get("long_pin") is not True:
            raise AccountsFault(
                _("{where}: a supervisor's PIN has at least 8 characters").format(where=where)
            )
        state.pin_hash, state.sealed_key = payload["pin_hash"], payload["sealed_key"]
        state.long_pin = payload.get("long_pin") is True
    state.seq = event.seq


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


def anchors_accounts(session: Session) -> bool:
    """Whether the schema is of migration 0008 or later (remembered for the session): a copy of an
    older one, read only (`verify`, a report), has neither the sign-offs' accounts columns nor the
    chain of PIN checks, and is read as it stands."""
    known = session.info.get(APPROVALS_REVISION)
    if known is None:
        revision = session.scalar(text("SELECT max(version_num) FROM alembic_version"))
        known = session.info[APPROVALS_REVISION] = (
            revision is not None and str(revision) >= APPROVALS_REVISION
        )
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
