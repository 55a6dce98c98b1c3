"""The accounts a card room's database needs before a table opens (docs/decisions.md, "First
start creates a dealer and a floor supervisor").

Voids, chip corrections and closing a table need a floor supervisor's PIN, so the first start
creates a dealer and a supervisor together. They need names of their own: a supervisor's name is
what the audit log records as having authorised a dealer's correction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ofc_desk.i18n import _
from ofc_desk.service.room.room_chain import anchor_if_configured
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.storage.account_changes import (
    change_pin,
    change_role,
    create_accounts,
    create_user,
    set_up_first_key,
)
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account, Role, SignInError, sign_in, supervisor_holds_a_key


@dataclass(frozen=True)
class NewAccount:
    """An account to create: its name and PIN."""

    name: str
    pin: str


def verify_first_accounts(dealer: NewAccount, supervisor: NewAccount) -> None:
    """Raise ActionRefused unless the two accounts can be the room's first dealer and supervisor.

    >>> verify_first_accounts(NewAccount("Dana", "1234"), NewAccount(" Dana ", "9876"))
    Traceback (most recent call last):
    ...
    ofc_desk.service.terms.errors.ActionRefused: the dealer and the floor supervisor need names of their own
    """
    if dealer.name.strip() == supervisor.name.strip():
        raise ActionRefused(_("the dealer and the floor supervisor need names of their own"))


def can_create_first_accounts(dealer: NewAccount, supervisor: NewAccount) -> bool:
    try:
        verify_first_accounts(dealer, supervisor)
    except ActionRefused:
        return False
    return True


def create_first_accounts(database: Database, dealer: NewAccount, supervisor: NewAccount) -> None:
    """The room's set-up: the supervisor, who signs their own account as the room's first, and the
    dealer, whose account the supervisor signs, in one transaction (all or none), then anchored
    when the desk has an anchor file. Only the room's owner can do it (a card room's desk login
    cannot write accounts), and only in a room with no account yet."""
    verify_first_accounts(dealer, supervisor)
    try:
        create_accounts(
            database,
            [(supervisor.name, Role.SUPERVISOR, supervisor.pin), (dealer.name, Role.DEALER, dealer.pin)],
        )
    except SignInError as error:
        raise ActionRefused(str(error)) from error
    anchor_if_configured(database, "the accounts were set up")


def needs_key_set_up(database: Database) -> bool:
    """Whether an upgrade left this room with no supervisor holding a key (accounts from before
    sign-offs): its set-up is then a supervisor giving themselves one (`set_up_key`)."""
    try:
        return not supervisor_holds_a_key(database)
    except SignInError:
        return False  # accounts that do not verify: the sign-in says so


def set_up_key(database: Database, supervisor: str, pin: str, new_pin: str) -> Account:
    """The set-up of an upgraded room: the supervisor's key, sealed with their new PIN, signed by
    that key (once: never when a supervisor holds one); anchored when the desk has an anchor file.
    The supervisor comes back signed in."""
    try:
        account = set_up_first_key(database, supervisor, pin, new_pin)
    except SignInError as error:
        raise ActionRefused(str(error)) from error
    anchor_if_configured(database, "the supervisor's key was set up")
    return account


@dataclass(frozen=True)
class AccountChange:
    """One change to the room's accounts, approved by a floor supervisor with their PIN: a new
    account (`pin` is its PIN), a role (`role`), or a PIN (`old_pin` opens the account's key,
    `pin` is the new one). Each is an account event the supervisor signs."""

    name: str
    supervisor: NewAccount
    role: Role | None = None
    pin: str = ""
    old_pin: str = ""


def add_account(database: Database, change: AccountChange) -> str:
    """Create the account; the sentence says what was done."""
    role = change.role or Role.DEALER
    if role is Role.SUPERVISOR:
        done = _("{name} can now sign in as a supervisor").format(name=change.name.strip())
    else:
        done = _("{name} can now sign in as a dealer").format(name=change.name.strip())
    return _approved(
        database,
        change,
        lambda approver: create_user(database, change.name, role, change.pin, approver=approver),
        done,
    )


def change_account_role(database: Database, change: AccountChange) -> str:
    role = change.role or Role.DEALER
    if role is Role.SUPERVISOR:
        done = _("{name} is now a supervisor").format(name=change.name.strip())
    else:
        done = _("{name} is now a dealer").format(name=change.name.strip())
    return _approved(
        database, change, lambda approver: change_role(database, change.name, role, approver), done
    )


def change_account_pin(database: Database, change: AccountChange) -> str:
    return _approved(
        database,
        change,
        lambda approver: change_pin(database, change.name, change.old_pin, change.pin, approver),
        _("{name}'s PIN was changed").format(name=change.name.strip()),
    )


def _approved(database: Database, change: AccountChange, make: Callable[[Account], object], done: str) -> str:
    """Sign the supervisor in (their key unsealed for this one change), make it, and anchor the
    accounts' new head when the desk has an anchor file; the sentence says what was done. A
    supervisor changing their own PIN signs in as anyone does: a PIN too short for approving
    anything else may approve its own change to a longer one."""
    own = change.supervisor.name.strip() == change.name.strip()
    try:
        role = None if own else Role.SUPERVISOR
        approver = sign_in(database, change.supervisor.name, change.supervisor.pin, role)
        make(approver)
    except SignInError as error:
        raise ActionRefused(str(error)) from error
    sentence = _("{done}, approved by {supervisor}").format(
        done=done, supervisor=change.supervisor.name.strip()
    )
    return anchor_if_configured(database, sentence) or sentence
