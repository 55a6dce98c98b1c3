"""The accounts a card room's database needs before a table opens (docs/decisions.md, "First
start creates a dealer and a floor supervisor").

Voids, chip corrections and closing a table need a floor supervisor's PIN, so the first start
creates a dealer and a supervisor together. They need names of their own: a supervisor's name is
what the audit log records as having authorised a dealer's correction.
"""

from __future__ import annotations

from dataclasses import dataclass

from ofc_desk.service.errors import ActionRefused
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, SignInError, create_user, list_users


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
    """Create the dealer and the supervisor, skipping a name an earlier try already created (that
    try may have stopped at the second account's short PIN)."""
    verify_first_accounts(dealer, supervisor)
    existing = {account.name for account in list_users(database)}
    try:
        for account, role in ((dealer, Role.DEALER), (supervisor, Role.SUPERVISOR)):
            if account.name.strip() not in existing:
                create_user(database, account.name, role, account.pin)
    except SignInError as error:
        raise ActionRefused(str(error)) from error
    if not any(account.role is Role.SUPERVISOR for account in list_users(database)):
        # The supervisor's name was an existing dealer's: without a supervisor no hand could be
        # voided, no chips corrected and no table closed.
        raise ActionRefused("a floor supervisor account is needed: give the supervisor a name of their own")
