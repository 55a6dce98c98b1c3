"""The accounts a card room's database needs before a table opens (docs/decisions.md, "First
start creates a dealer and a floor supervisor").

Voids, chip corrections and closing a table need a floor supervisor's PIN, so the first start
creates a dealer and a supervisor together. They need names of their own: a supervisor's name is
what the audit log records as having authorised a dealer's correction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ofc_desk.service.errors import ActionRefused
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import (
    Account,
    Role,
    SignInError,
    change_pin,
    change_role,
    create_user,
    list_users,
    sign_in,
)


@dataclass(frozen=True)
class NewAccount:
    name: str
    pin: str


def verify_first_accounts(dealer: NewAccount, supervisor: NewAccount) -> None:
    """Raise ActionRefused unless the two accounts can be the room's first dealer and supervisor.

    >>> verify_first_accounts(NewAccount("Dana", "1234"), NewAccount(" Dana ", "9876"))
    Traceback (most recent call last):
    ...
    ofc_desk.service.errors.ActionRefused: the dealer and the floor supervisor need names of their own
    """
    if dealer.name.strip() == supervisor.name.strip():
        raise ActionRefused("the dealer and the floor supervisor need names of their own")


def can_create_first_accounts(dealer: NewAccount, supervisor: NewAccount) -> bool:
    try:
        verify_first_accounts(dealer, supervisor)
    except ActionRefused:
        return False
    return True


def create_first_accounts(database: Database, dealer: NewAccount, supervisor: NewAccount) -> None:
    """Create the supervisor, who signs their own account as the database's first, then the dealer,
    whose account the supervisor signs; a name an earlier try already created is signed in instead
    (that try may have stopped at the dealer's short PIN), and so is the same account made a moment
    ago by another desk starting on the same new room (`or_same`)."""
    verify_first_accounts(dealer, supervisor)
    existing = {account.name for account in list_users(database)}
    try:
        if supervisor.name.strip() in existing:
            approver = sign_in(database, supervisor.name, supervisor.pin, Role.SUPERVISOR)
        else:
            approver = create_user(database, supervisor.name, Role.SUPERVISOR, supervisor.pin, or_same=True)
        if dealer.name.strip() not in existing:
            create_user(database, dealer.name, Role.DEALER, dealer.pin, approver=approver, or_same=True)
    except SignInError as error:
        raise ActionRefused(str(error)) from error


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
    _approved(
        database,
        change,
        lambda approver: create_user(database, change.name, role, change.pin, approver=approver),
    )
    who = change.supervisor.name.strip()
    return f"{change.name.strip()} can now sign in as a {role.value}, approved by {who}"


def change_account_role(database: Database, change: AccountChange) -> str:
    role = change.role or Role.DEALER
    _approved(database, change, lambda approver: change_role(database, change.name, role, approver))
    return f"{change.name.strip()} is now a {role.value}, approved by {change.supervisor.name.strip()}"


def change_account_pin(database: Database, change: AccountChange) -> str:
    _approved(
        database,
        change,
        lambda approver: change_pin(database, change.name, change.old_pin, change.pin, approver),
    )
    return f"{change.name.strip()}'s PIN was changed, approved by {change.supervisor.name.strip()}"


def _approved(database: Database, change: AccountChange, make: Callable[[Account], object]) -> None:
    """Sign the supervisor in (their key unsealed for this one change), then make it."""
    try:
        approver = sign_in(database, change.supervisor.name, change.supervisor.pin, Role.SUPERVISOR)
        make(approver)
    except SignInError as error:
        raise ActionRefused(str(error)) from error
