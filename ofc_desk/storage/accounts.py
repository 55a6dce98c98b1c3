"""Accounts as events: a hash chain of its own (`account_events`), each event signed by the floor
supervisor who approved it, and the `users` table derived from it.

- `account_created`: signed by a supervisor holding that role then; the very first account of a
  database is a supervisor signing their own creation, or the built-in `replay` dealer (whose key
  is sealed with no PIN, so it can deal but never sign a supervisor's action).
- `role_changed`, `pin_changed`: signed by a supervisor.
- `account_imported`: an account that existed before sign-offs (migration 0006), unsigned and
  keyless; only at the start of the chain. `key_added`: such an account's first sign-in gives it a
  key pair, the event signed by that new key.
- `signoffs_started`: written once by migration 0006 after the imports: table sessions numbered
  above its `sessions_before` must carry their dealers' and supervisors' signatures.

`fold_accounts` replays the chain and checks every hash and signature: what `verify` runs, and
what the users table must equal.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ofc_desk.storage.audit import GENESIS_HASH, canonical_json
from ofc_desk.storage.keys import account_message, signature_holds
from ofc_desk.storage.models import AccountEvent, User

BUILTIN_REPLAY = "replay"
SUPERVISOR = "supervisor"


class AccountKind(StrEnum):
    CREATED = "account_created"
    ROLE_CHANGED = "role_changed"
    PIN_CHANGED = "pin_changed"
    IMPORTED = "account_imported"
    KEY_ADDED = "key_added"
    SIGNOFFS_STARTED = "signoffs_started"


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
    roles: list[tuple[str, str]] = field(default_factory=list)
    """(from time, role): what the account could sign when."""

    def role_at(self, at: str) -> str | None:
        held = [role for since, role in self.roles if since <= at]
        return held[-1] if held else None


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


def fold_accounts(events: Sequence[AccountEvent]) -> AccountsChain:
    """Every account as the chain leaves it; AccountsFault on the first broken link or signature."""
    accounts: dict[str, AccountState] = {}
    previous, sessions_before = GENESIS_HASH, None
    for position, event in enumerate(events, start=1):
        where = f"account event {event.seq}"
        if event.seq != position:
            raise AccountsFault(f"accounts: an event is missing before {where}")
        digest = account_event_hash(
            previous, event.seq, event.kind, event.name, event.approved_by, event.at, event.payload
        )
        if event.prev_hash != previous or event.hash != digest:
            raise AccountsFault(f"{where} was altered")
        starting = sessions_before is None
        try:
            payload = json.loads(event.payload)
            if event.kind == AccountKind.SIGNOFFS_STARTED and starting:
                sessions_before = int(payload["sessions_before"])
            elif event.kind in (AccountKind.IMPORTED, AccountKind.SIGNOFFS_STARTED) or starting:
                if event.kind != AccountKind.IMPORTED or not starting:
                    raise AccountsFault(
                        f"{where}: the accounts chain does not start as migration 0006 wrote it"
                    )
                _new(accounts, event, payload, where)
            else:
                _apply(accounts, event, payload)
        except (ValueError, KeyError, TypeError) as error:
            raise AccountsFault(f"{where} cannot be read: {error}") from None
        previous = event.hash
    if sessions_before is None:
        raise AccountsFault("accounts: the chain does not record where sign-offs start (migration 0006)")
    return AccountsChain(accounts, sessions_before)


def _apply(accounts: dict[str, AccountState], event: AccountEvent, payload: dict[str, Any]) -> None:
    where = f"account event {event.seq}"
    kind = AccountKind(event.kind)
    if kind is AccountKind.KEY_ADDED:
        state = _existing(accounts, event.name, where)
        if state.public_key or event.approved_by != event.name:
            raise AccountsFault(f"{where}: only an imported account without a key adds its own")
        state.public_key, state.sealed_key = payload["public_key"], payload["sealed_key"]
        state.pin_hash = payload["pin_hash"]
        _check_signature(event, state.public_key, where)
        state.seq = event.seq
        return
    first = all(state.builtin for state in accounts.values())
    self_made = first and event.approved_by == event.name and kind is AccountKind.CREATED
    if self_made and not (payload["role"] == SUPERVISOR or payload.get("builtin") is True):
        raise AccountsFault(f"{where}: a database's first account is a supervisor or the built-in replay")
    if self_made:
        _check_signature(event, payload["public_key"], where)
    else:
        approver = accounts.get(event.approved_by)
        if approver is None or approver.builtin or approver.role_at(event.at) != SUPERVISOR:
            who = event.approved_by or "no one"
            raise AccountsFault(f"{where}: {who} is not a supervisor who could approve it")
        _check_signature(event, approver.public_key, where)
    if kind is AccountKind.CREATED:
        _new(accounts, event, payload, where)
        return
    state = _existing(accounts, event.name, where)
    if kind is AccountKind.ROLE_CHANGED:
        state.role = payload["role"]
        state.roles.append((event.at, state.role))
    else:
        state.pin_hash, state.sealed_key = payload["pin_hash"], payload["sealed_key"]
    state.seq = event.seq


def _new(accounts: dict[str, AccountState], event: AccountEvent, payload: dict[str, Any], where: str) -> None:
    if event.name in accounts:
        raise AccountsFault(f"{where}: {event.name} already has an account")
    role = str(payload["role"])
    accounts[event.name] = AccountState(
        event.name,
        role,
        str(payload["pin_hash"]),
        str(payload.get("public_key") or ""),
        str(payload.get("sealed_key") or ""),
        event.seq,
        builtin=payload.get("builtin") is True,
        roles=[(event.at, role)],
    )


def _existing(accounts: dict[str, AccountState], name: str, where: str) -> AccountState:
    state = accounts.get(name)
    if state is None:
        raise AccountsFault(f"{where}: {name} has no account")
    return state


def _check_signature(event: AccountEvent, public_key: str, where: str) -> None:
    message = account_message(event.seq, event.hash)
    if not public_key or not signature_holds(public_key, message, event.signature):
        raise AccountsFault(f"{where}: its signature does not hold")


def check_users_table(accounts: dict[str, AccountState], users: Sequence[User]) -> None:
    """The users table must be exactly what the accounts chain gives."""
    by_name = {user.name: user for user in users}
    for name, state in accounts.items():
        user = by_name.pop(name, None)
        if user is None:
            raise AccountsFault(f"users: {name}'s account is missing")
        stored = (user.role, user.pin_hash, user.public_key, user.sealed_key, user.account_seq)
        if stored != (state.role, state.pin_hash, state.public_key, state.sealed_key, state.seq):
            raise AccountsFault(f"users: {name}'s row differs from the accounts chain")
    if by_name:
        raise AccountsFault(f"users: {min(by_name)} has no account event")
