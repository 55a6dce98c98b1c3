"""Whose keys a replay signs with. `ofc-desk replay` creates accounts only in an empty database:
the script's `users`, the first supervisor signing their own account and approving the others,
and, where the script deals as someone without an account (or names no dealer), the built-in
`replay` dealer, whose key anyone may use and who can approve nothing. In a database that has
accounts, the script's accounts must exist already and be opened with their PINs: from the
script's own `users` entries, a PIN file, the OFC_DESK_PINS environment variable or a prompt
(`PinSource`), never from the command line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from ofc_desk.i18n import _
from ofc_desk.service.room.room_chain import anchor_if_configured
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.accounts import BUILTIN_REPLAY
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event
from ofc_desk.storage.users import Account, Role, SignInError, builtin_replay_account, list_users, sign_in

PinSource = Callable[[str], str | None]
"""A PIN for an account name, or None when none was given."""


class AccountRefused(Exception):
    """Why the script's accounts cannot be used; `str()` is the line for standard error."""


def no_pins(_name: str) -> str | None:
    return None


@dataclass
class ReplayAccounts:
    database: Database
    pins: PinSource
    script_pins: dict[str, str] = field(default_factory=dict)
    signed_in: dict[str, Account] = field(default_factory=dict)
    builtin: Account | None = None
    builtin_dealers: set[str] = field(default_factory=set)
    """The script's dealers a new database's accounts were made without: they deal under the
    built-in key."""

    def pin(self, name: str) -> str | None:
        return self.script_pins.get(name) or self.pins(name)

    def dealer(self, name: str | None) -> Account:
        """The dealer the script deals as, signed in: its own account, or the built-in replay
        dealer's key for a script naming no dealer, a dealer the accounts of a new database were
        made without, or one who dealt here before under that key. Any other name needs its PIN,
        and is told so whether or not it is an account's: no answer tells which names exist."""
        if name == BUILTIN_REPLAY:
            name = None  # a script exported from a session the built-in dealer dealt
        if name in self.signed_in:
            return self.signed_in[name]
        if name is not None and name not in self.builtin_dealers and not self._dealt_as_builtin(name):
            return self._sign_in(name, None)
        if self.builtin is None:
            self.builtin = builtin_replay_account(self.database)
        if self.builtin is None:
            raise AccountRefused(
                _("script: dealer: the script names no dealer, and this database has no built-in one")
            )
        if name is None:
            return self.builtin
        return Account(name, Role.DEALER, self.builtin.key, builtin=True)

    def _dealt_as_builtin(self, name: str) -> bool:
        """Whether `name`, no account's, dealt here already under the built-in key (which the
        audit log and the signatures show anyone who reads them)."""
        if builtin_replay_account(self.database) is None:
            return False
        if name in {account.name for account in list_users(self.database)}:
            return False
        with self.database.session() as session:
            return session.scalar(select(Event.id).where(Event.actor == name).limit(1)) is not None

    def _sign_in(self, name: str, role: Role | None, *, listed: bool = False) -> Account:
        """Sign `name` in; `listed` when the script's users name them (in a database that has
        accounts already, where a replay makes none)."""
        pin = self.pin(name)
        if pin is None:
            said = _(
                "users: {name}'s PIN is needed to sign"
                " (a users entry, --pin-file, OFC_DESK_PINS or the prompt)"
            )
            raise AccountRefused(said.format(name=name))
        try:
            account = sign_in(self.database, name, pin, role)
        except SignInError as error:
            if listed:
                said = _("users: {name}: {problem}; a replay makes accounts only in an empty database")
            else:
                said = _("users: {name}: {problem}")
            raise AccountRefused(said.format(name=name, problem=error)) from None
        self.signed_in[name] = account
        return account


def prepare_accounts(
    database: Database, users: Any, pins: PinSource, dealers: Iterable[str | None]
) -> ReplayAccounts:
    """Create the script's accounts in an empty database, or sign them in in one that has some."""
    entries = _entries(users)
    accounts = ReplayAccounts(database, pins, {name: pin for name, _role, pin in entries if pin})
    if not list_users(database):
        try:
            _create(accounts, entries, dealers)
            return accounts
        except SignInError:
            if not list_users(database):
                raise
            # Another run on the same new database made the accounts a moment ago: use theirs.
    for name, role, _pin in entries:
        # Signed in like any name, an account's or not: the answer must not tell which exist.
        accounts._sign_in(name, role, listed=True)
    return accounts


def _create(
    accounts: ReplayAccounts, entries: list[tuple[str, Role, str]], dealers: Iterable[str | None]
) -> None:
    """All in one transaction: a run starting at the same time finds all of them or none."""
    named = {name for name, _role, _pin in entries}
    accounts.builtin_dealers = {dealer for dealer in dealers if dealer is not None and dealer not in named}
    builtin = any(dealer is None or dealer not in named for dealer in dealers)
    if entries and not any(role is Role.SUPERVISOR for _name, role, _pin in entries):
        said = _("users: {name}: a floor supervisor must be among the users to approve accounts")
        raise AccountRefused(said.format(name=entries[0][0]))
    # A script exported by `ofc-desk report --json` names its supervisors without PINs (exports
    # never hold one): the person replaying gives them as for any replay.
    entries = [(name, role, pin or _pin_given(accounts, name)) for name, role, pin in entries]
    for account in create_accounts(accounts.database, entries, builtin=builtin):
        if account.builtin:
            accounts.builtin = account
        else:
            accounts.signed_in[account.name] = account
    anchor_if_configured(accounts.database, _("the accounts were set up"))  # as the tables' events are


def _pin_given(accounts: ReplayAccounts, name: str) -> str:
    pin = accounts.pins(name)
    if pin is None:
        said = _("users: {name}: no PIN given (a users entry, --pin-file, OFC_DESK_PINS or the prompt)")
        raise AccountRefused(said.format(name=name))
    return pin


def _entries(users: Any) -> list[tuple[str, Role, str]]:
    if not isinstance(users, list) or not all(isinstance(user, Mapping) for user in users):
        raise AccountRefused(_("script: users: must be a list of {name, role, pin}"))
    entries = []
    for position, user in enumerate(users):
        unknown = sorted(str(key) for key in user if key not in ("name", "role", "pin"))
        if unknown:
            said = _("script.users[{position}].{key}: unknown key (use name, role, pin)")
            raise AccountRefused(said.format(position=position, key=unknown[0]))
        try:
            role = Role(user.get("role"))
        except ValueError:
            raise AccountRefused(
                _("script.users[{position}].role: dealer or supervisor").format(position=position)
            ) from None
        pin = user.get("pin")
        entries.append((str(user.get("name") or "").strip(), role, "" if pin is None else str(pin)))
    return entries
