"""The accounts chain replayed and checked, every hash, signature and rule of `accounts` (`fold_accounts`).

What sign-in trusts, what `verify` runs, and what the users table must equal.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ofc_desk.i18n import _
from ofc_desk.storage.accounts import (
    MIGRATION_MARKS,
    SUPERVISOR,
    AccountKind,
    AccountsChain,
    AccountsFault,
    AccountState,
    RoomPosition,
    account_event_hash,
)
from ofc_desk.storage.audit import GENESIS_HASH
from ofc_desk.storage.keys import account_message, signature_holds
from ofc_desk.storage.models import AccountEvent

IMPORTED_FIELDS = frozenset({"pin_hash", "role"})
"""All an `account_imported` payload holds: migration 0006 imported accounts without keys."""


@dataclass
class _Fold:
    """What the fold of the accounts chain has gathered so far."""

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
