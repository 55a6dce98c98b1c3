"""What the floor's anchor now covers beyond the tables: the accounts chain's head and the head of the
chain of PIN checks. Each tamper here is one issue 25 found passing `verify --anchors`; the owner of
the file does it (triggers dropped), as carefully as they can (the users table made to agree)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import select, text

from ofc_desk.service import resume_table
from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.room.room_chain import append_anchor
from ofc_desk.service.table.commands import VoidHand
from ofc_desk.storage import append_only
from ofc_desk.storage.account_changes import change_pin, change_role, create_user
from ofc_desk.storage.accounts_fold import fold_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.existing_room import open_existing
from ofc_desk.storage.models import AccountEvent
from ofc_desk.storage.users import Role, SignInError, sign_in
from tests.helpers.forgery_helpers import recording_as_of
from tests.helpers.table_helpers import (
    ANN_QQ,
    BOB_PLAIN,
    DEALER,
    DEALER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    open_test_table,
    play_hand,
)


def as_owner(database: Database, *statements: str, **values: object) -> None:
    with database.engine.begin() as connection:
        append_only.remove_all(connection)
        for statement in statements:
            connection.execute(text(statement), values)


def cut_the_accounts_tail(database: Database) -> None:
    """Delete the newest account event and put the users table back as the rest of the chain says."""
    as_owner(database, "DELETE FROM account_events WHERE seq = (SELECT max(seq) FROM account_events)")
    with database.session() as session:
        accounts = fold_accounts(
            session.scalars(select(AccountEvent).order_by(AccountEvent.seq)).all()
        ).accounts
    as_owner(database, "DELETE FROM users")
    for state in accounts.values():
        as_owner(
            database,
            "INSERT INTO users (name, role, pin_hash, created_at, public_key, sealed_key, account_seq)"
            " VALUES (:name, :role, :pin_hash, :created_at, :public_key, :sealed_key, :seq)",
            **{key: getattr(state, key) for key in ("name", "role", "pin_hash", "created_at")},
            **{key: getattr(state, key) for key in ("public_key", "sealed_key", "seq")},
        )


def a_pin_change(database: Database) -> None:
    change_pin(database, DEALER, DEALER_PIN, "8642", sign_in(database, SUPERVISOR, SUPERVISOR_PIN))


def an_account_made(database: Database) -> None:
    create_user(database, "Yan", Role.DEALER, "5678", approver=sign_in(database, SUPERVISOR, SUPERVISOR_PIN))


def a_demotion(database: Database) -> None:
    sue = sign_in(database, SUPERVISOR, SUPERVISOR_PIN)
    create_user(database, "Flo", Role.SUPERVISOR, "24682468", approver=sue)
    change_role(database, "Flo", Role.DEALER, sue)


@pytest.mark.parametrize("change", [a_pin_change, an_account_made, a_demotion], ids=lambda f: f.__name__)
def test_the_accounts_tail_cut_after_an_anchor_is_caught(
    database: Database, tmp_path: Path, change: Callable[[Database], None]
) -> None:
    change(database)
    anchors = tmp_path / "anchors.txt"
    append_anchor(database, anchors)
    cut_the_accounts_tail(database)
    verify_database(database)  # nothing was signed after it: only the anchor knows
    with pytest.raises(VerifyFault, match="the accounts were cut or rewritten after they were anchored"):
        verify_database(database, anchors)


def test_an_accounts_creation_time_edited_is_caught(database: Database) -> None:
    as_owner(
        database, "UPDATE users SET created_at = '2020-01-01T00:00:00.000000Z' WHERE name = :n", n=DEALER
    )
    with pytest.raises(VerifyFault, match=f"users: {DEALER}'s row differs from the accounts chain"):
        verify_database(database)


def test_pin_checks_removed_are_caught_by_their_chain_and_at_its_end_by_the_anchor(
    database: Database, tmp_path: Path
) -> None:
    for pin in ("0000", DEALER_PIN, "1111"):
        with contextlib.suppress(SignInError):
            sign_in(database, DEALER, pin)
    anchors = tmp_path / "anchors.txt"
    append_anchor(database, anchors)
    as_owner(database, "DELETE FROM sign_in_attempts WHERE id = (SELECT max(id) FROM sign_in_attempts)")
    verify_database(database)
    with pytest.raises(
        VerifyFault, match="the record of PIN checks was cut or rewritten after it was anchored"
    ):
        verify_database(database, anchors)
    as_owner(database, "DELETE FROM sign_in_attempts WHERE id = (SELECT min(id) FROM sign_in_attempts)")
    with pytest.raises(VerifyFault, match="does not follow the one before it: a PIN check was removed"):
        verify_database(database)


def test_a_database_of_schema_0007_verifies_as_it_stands_and_after_its_upgrade(database_url: str) -> None:
    """As today's main left it: signatures naming no accounts head, PIN checks unchained, an
    accounts chain without migration 0008's mark. A read-only copy is verified as it stands."""
    database = Database(database_url, migrate=False)
    with recording_as_of(database, "0007"):
        play_hand(
            open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob"), {"Ann": ANN_QQ, "Bob": BOB_PLAIN}
        )
        with contextlib.suppress(SignInError):
            sign_in(database, DEALER, "0000")
    database.dispose()
    as_it_stands = open_existing(database_url)
    verify_database(as_it_stands)
    as_it_stands.dispose()
    database = Database(database_url)  # what every start does: the upgrade
    table = resume_table(database, 1, sign_in(database, DEALER, DEALER_PIN))
    play_hand(table, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    table.do(VoidHand(1, "misdeal", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    assert verify_database(database).hands == 2
    with database.session() as session:
        kinds = session.scalars(select(AccountEvent.kind).order_by(AccountEvent.seq)).all()
    assert kinds == [
        "signoffs_started",
        "account_created",
        "account_created",
        "approvals_required",
        "keys_rotate",
    ]
    database.dispose()
