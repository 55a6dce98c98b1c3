"""The first accounts of a room: a dealer and a floor supervisor, under names of their own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.room.account_policy import (
    NewAccount,
    can_create_first_accounts,
    create_first_accounts,
)
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.storage.account_changes import create_accounts, create_user
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account, Role, SignInError, list_users, sign_in


@pytest.fixture
def empty_database(migrated_database_url: str) -> Iterator[Database]:
    database = Database(migrated_database_url)
    yield database
    database.dispose()


def test_first_start_creates_a_dealer_and_a_supervisor(empty_database: Database) -> None:
    create_first_accounts(empty_database, NewAccount("Dana", "1234"), NewAccount("Sam", "98769876"))
    assert list_users(empty_database) == [Account("Dana", Role.DEALER), Account("Sam", Role.SUPERVISOR)]


def test_dealer_and_supervisor_need_names_of_their_own(empty_database: Database) -> None:
    same = (NewAccount("Dana", "1234"), NewAccount(" Dana", "98769876"))
    assert not can_create_first_accounts(*same)
    with pytest.raises(ActionRefused, match="names of their own"):
        create_first_accounts(empty_database, *same)
    assert list_users(empty_database) == []


def test_a_refused_set_up_stores_no_account_and_a_retry_makes_both(empty_database: Database) -> None:
    with pytest.raises(ActionRefused, match="at least 4 characters"):
        create_first_accounts(empty_database, NewAccount("Dana", "12"), NewAccount("Sam", "98769876"))
    with pytest.raises(ActionRefused, match="a floor supervisor's PIN needs at least 8 characters"):
        create_first_accounts(empty_database, NewAccount("Dana", "1234"), NewAccount("Sam", "9876"))
    assert list_users(empty_database) == []
    create_first_accounts(empty_database, NewAccount("Dana", "1234"), NewAccount("Sam", "98769876"))
    assert [account.role for account in list_users(empty_database)] == [Role.DEALER, Role.SUPERVISOR]
    verify_database(empty_database)


def test_the_first_account_is_the_supervisor_and_the_set_up_is_done_once(empty_database: Database) -> None:
    """The supervisor signs their own account and then every other: a dealer cannot come first,
    and once a room has accounts, every new one needs a supervisor's approval."""
    with pytest.raises(SignInError, match="first account is its floor supervisor"):
        create_accounts(empty_database, [("Lee", Role.DEALER, "5555")])
    create_accounts(empty_database, [("Sam", Role.SUPERVISOR, "98769876")])
    with pytest.raises(ActionRefused, match="this room has accounts already"):
        create_first_accounts(empty_database, NewAccount("Dana", "1234"), NewAccount("Lee", "55555555"))
    sam = sign_in(empty_database, "Sam", "98769876")
    create_user(empty_database, "Lee", Role.DEALER, "5555", approver=sam)
    assert [account.name for account in list_users(empty_database)] == ["Lee", "Sam"]
