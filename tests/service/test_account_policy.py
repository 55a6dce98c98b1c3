"""The first accounts of a room: a dealer and a floor supervisor, under names of their own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ofc_desk.service.account_policy import (
    NewAccount,
    can_create_first_accounts,
    create_first_accounts,
)
from ofc_desk.service.errors import ActionRefused
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account, Role, create_user, list_users


@pytest.fixture
def empty_database(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    yield database
    database.dispose()


def test_first_start_creates_a_dealer_and_a_supervisor(empty_database: Database) -> None:
    create_first_accounts(empty_database, NewAccount("Dana", "1234"), NewAccount("Sam", "9876"))
    assert list_users(empty_database) == [Account("Dana", Role.DEALER), Account("Sam", Role.SUPERVISOR)]


def test_dealer_and_supervisor_need_names_of_their_own(empty_database: Database) -> None:
    same = (NewAccount("Dana", "1234"), NewAccount(" Dana", "9876"))
    assert not can_create_first_accounts(*same)
    with pytest.raises(ActionRefused, match="names of their own"):
        create_first_accounts(empty_database, *same)
    assert list_users(empty_database) == []


def test_a_retry_keeps_the_dealer_an_earlier_try_created(empty_database: Database) -> None:
    with pytest.raises(ActionRefused, match="at least 4 characters"):
        create_first_accounts(empty_database, NewAccount("Dana", "1234"), NewAccount("Sam", "12"))
    assert list_users(empty_database) == [Account("Dana", Role.DEALER)]
    create_first_accounts(empty_database, NewAccount("Dana", "1234"), NewAccount("Sam", "9876"))
    assert [account.role for account in list_users(empty_database)] == [Role.DEALER, Role.SUPERVISOR]


def test_a_supervisor_is_required(empty_database: Database) -> None:
    """A supervisor named like an existing dealer would leave the room without one."""
    create_user(empty_database, "Lee", Role.DEALER, "5555")
    with pytest.raises(ActionRefused, match="floor supervisor account is needed"):
        create_first_accounts(empty_database, NewAccount("Dana", "1234"), NewAccount("Lee", "5555"))
    assert not any(account.role is Role.SUPERVISOR for account in list_users(empty_database))
