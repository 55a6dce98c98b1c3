"""Accounts as events: the accounts chain's kinds of event and what folding it gives (`AccountsChain`).

The chain is a hash chain of its own (`account_events`), each event signed by the floor supervisor
who approved it, and the `users` table is derived from it.

- `account_imported`: an account that existed before sign-offs (migration 0006), unsigned and
  keyless (its payload is its role and PIN hash, nothing else); only at the start of the chain.
- `signoffs_started`: written once by migration 0006 after the imports: table sessions numbered
  above its `sessions_before` must carry their dealers' and supervisors' signatures.
- `account_created`: signed by a supervisor holding that role then. The room's set-up is the one
  exception: its first supervisor signs their own creation, when the chain holds no account but
  the built-in `replay` dealer (whose key is sealed with no PIN, so it can deal but never sign a
  supervisor's action), and before any table session but those replayed under that dealer's key
  (checked with the room: `room_fault`).
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

The chain's rules are checked where it is folded (`accounts_fold.fold_accounts`), and it is held
to the room's tables and the users table in `accounts_room`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import StrEnum

from ofc_desk.storage.audit import GENESIS_HASH, canonical_json
from ofc_desk.storage.models import AccountEvent

BUILTIN_REPLAY = "replay"
SUPERVISOR = "supervisor"


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


@dataclass
class AccountState:
    """One account as the accounts chain leaves it: its role, PIN hash and keys."""

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
    """The accounts chain folded: every account by name, and where sign-offs began."""

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
