"""A new room's first minutes in the storage layer: many starts at once on an empty database, each
with connections of its own, end with one schema and one accounts chain. Every start either
carries on or is refused in words: never a database error.

The starts run in threads released together, each with its own `Database` (its own engine and
connections), so the database sees them as it sees desks on separate machines; the processes a
room really starts are in tests/room/test_first_minutes.py."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from functools import partial
from pathlib import Path

import pytest
from sqlalchemy import func, select

from ofc_desk.storage import keys
from ofc_desk.storage.account_changes import create_accounts, create_user
from ofc_desk.storage.accounts import AccountKind
from ofc_desk.storage.accounts_fold import fold_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import AccountEvent, User
from ofc_desk.storage.users import Account, Role, SignInError, sign_in
from tests.helpers.concurrent_calls import at_once
from tests.helpers.ofc_test_databases import sqlite_url

STARTS = 8
OPENING_ROUNDS = 100
SAM_PIN = "98769876"
ROOM = [("Sam", Role.SUPERVISOR, SAM_PIN), ("Dana", Role.DEALER, "1234")]
THESE_ARE_NOT_THEM = (
    "this room has accounts already, and these are not among them as given: sign in, or a floor"
    " supervisor approves each new account"
)


@pytest.fixture
def starts(database_url: str) -> Iterator[list[Database]]:
    """Eight desks' databases on one new room, not yet opened (nothing migrated)."""
    databases = [Database(database_url, migrate=False) for _ in range(STARTS)]
    yield databases
    for database in databases:
        database.dispose()


def chain(database: Database) -> list[tuple[int, str, str]]:
    with database.session() as session:
        events = session.scalars(select(AccountEvent).order_by(AccountEvent.seq)).all()
        fold_accounts(events)  # every link and signature holds
        return [(event.seq, event.kind, event.name) for event in events]


def test_starts_migrating_an_empty_room_at_once_leave_one_schema(starts: list[Database]) -> None:
    outcomes = at_once([database.migrate for database in starts])
    assert not [outcome for outcome in outcomes if isinstance(outcome, Exception)], outcomes
    assert {database.schema_state().current for database in starts} == {True}
    migrated = [outcome for outcome in outcomes if not isinstance(outcome, Exception) and not outcome.current]
    assert len(migrated) == 1  # one start made the schema; the others found it made


def test_starts_making_the_same_room_accounts_at_once_all_carry_on_with_one_set(
    starts: list[Database],
) -> None:
    starts[0].migrate()

    def start(database: Database) -> list[Account]:
        database.migrate()
        return create_accounts(database, ROOM)

    outcomes = at_once([partial(start, database) for database in starts])
    refused = [outcome for outcome in outcomes if isinstance(outcome, Exception)]
    assert not refused, refused
    for accounts in outcomes:
        assert isinstance(accounts, list)
        assert [(account.name, account.role) for account in accounts] == [
            ("Sam", Role.SUPERVISOR),
            ("Dana", Role.DEALER),
        ]
        assert all(account.key is not None for account in accounts)  # signed in: their keys unsealed
    assert chain(starts[0]) == [
        (1, AccountKind.SIGNOFFS_STARTED, ""),
        (2, AccountKind.APPROVALS_REQUIRED, ""),
        (3, AccountKind.KEYS_ROTATE, ""),
        (4, AccountKind.CREATED, "Sam"),
        (5, AccountKind.CREATED, "Dana"),
    ]
    held = {
        keys.public_hex(account.key)
        for accounts in outcomes
        if isinstance(accounts, list)
        for account in accounts
        if account.key
    }
    assert len(held) == 2  # every start holds the one Sam and the one Dana


def test_a_start_asking_for_other_accounts_than_the_one_that_made_them_is_told_why(
    starts: list[Database],
) -> None:
    starts[0].migrate()
    other_pin = [("Sam", Role.SUPERVISOR, "55555555"), ("Dana", Role.DEALER, "1234")]
    outcomes = at_once([
        lambda: create_accounts(starts[0], ROOM),
        lambda: create_accounts(starts[1], other_pin),
    ])  # fmt: skip
    made = [outcome for outcome in outcomes if isinstance(outcome, list)]
    refused = [outcome for outcome in outcomes if isinstance(outcome, Exception)]
    assert len(made) == 1 and len(refused) == 1, outcomes
    assert isinstance(refused[0], SignInError)
    assert str(refused[0]) == THESE_ARE_NOT_THEM
    assert [name for _, _, name in chain(starts[0])] == ["", "", "", "Sam", "Dana"]


def test_a_start_whose_accounts_are_missing_from_the_ones_made_is_told_so_without_names(
    starts: list[Database],
) -> None:
    starts[0].migrate()
    create_accounts(starts[0], ROOM)
    with pytest.raises(SignInError) as refused:
        create_accounts(starts[1], [("Sam", Role.SUPERVISOR, SAM_PIN), ("Lee", Role.DEALER, "2468")])
    assert str(refused.value) == THESE_ARE_NOT_THEM  # the same words whether Lee exists or not


def test_accounts_added_at_once_by_many_desks_follow_one_another_in_the_chain(starts: list[Database]) -> None:
    """Not only the first accounts: any append to the accounts chain waits for the one before."""
    starts[0].migrate()
    (sam,) = create_accounts(starts[0], [("Sam", Role.SUPERVISOR, SAM_PIN)])
    names = [f"Dealer {number}" for number in range(1, STARTS + 1)]
    outcomes = at_once([
        partial(create_user, database, name, Role.DEALER, "1234", approver=sam)
        for database, name in zip(starts, names, strict=True)
    ])  # fmt: skip
    assert not [outcome for outcome in outcomes if isinstance(outcome, Exception)], outcomes
    assert sorted(name for _, _, name in chain(starts[0])[4:]) == sorted(names)
    with starts[0].session() as session:
        assert session.scalar(select(func.count()).select_from(User)) == STARTS + 1


def test_the_first_supervisor_made_at_once_by_two_desks_is_one_account(starts: list[Database]) -> None:
    """The desk's first start: two desks' dealers type the same supervisor at the same moment."""
    starts[0].migrate()
    outcomes = at_once([
        partial(create_accounts, database, [("Sam", Role.SUPERVISOR, SAM_PIN)]) for database in starts[:2]
    ])  # fmt: skip
    assert all(isinstance(outcome, list) for outcome in outcomes), outcomes
    assert [name for _, _, name in chain(starts[0])] == ["", "", "", "Sam"]
    sam = sign_in(starts[0], "Sam", SAM_PIN, Role.SUPERVISOR)
    with pytest.raises(SignInError, match=r"^there is already a user called Sam$"):
        create_user(starts[0], "Sam", Role.SUPERVISOR, SAM_PIN, approver=sam)


def test_desks_opening_a_new_sqlite_file_at_once_all_get_in(tmp_path: Path) -> None:
    """Each opening of a new file switches it to WAL; SQLite refuses a switch that would deadlock
    at once, without waiting, about once in twenty rounds of eight: every opening still gets in."""
    for round_number in range(OPENING_ROUNDS):
        folder = tmp_path / str(round_number)
        folder.mkdir()
        databases = [Database(sqlite_url(folder), migrate=False) for _ in range(STARTS)]
        try:
            outcomes = at_once([database.schema_state for database in databases])
        finally:
            for database in databases:
                database.dispose()
        refused = [outcome for outcome in outcomes if isinstance(outcome, Exception)]
        assert not refused, (round_number, refused)
        with closing(sqlite3.connect(folder / "desk.db")) as connection:
            assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
