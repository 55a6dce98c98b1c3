"""A row no table session accounts for (an event, hand or ledger row of a session none stored, a
transfer of a hand none stored), added by hand around the service's checks, is named by `verify`:
the first of its kind, after every session is checked. The sessions' counts tell which kinds hold
such a row (`verify_workers.room_sizes`); the database then finds the first."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy.orm import Session

from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.storage.audit import GENESIS_HASH
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, HandRow, LedgerRow, TransferRow
from tests.helpers.table_helpers import DatabaseCopy
from tests.service.test_tamper import two_hands_a_rebuy_and_a_void

pytestmark = pytest.mark.xdist_group("tamper history")

NO_SESSION = 999
AT = "2026-11-21T16:00:00.000000Z"


@pytest.fixture
def history(database_copy: DatabaseCopy) -> Database:
    """Two settled hands, a rebuy and a void, the triggers lifted (test_tamper.py's history)."""
    return database_copy(two_hands_a_rebuy_and_a_void)


@contextmanager
def owners_unchecked(database: Database) -> Iterator[Session]:
    """A session that may write a row whose session or hand is none stored, as the owner of the
    file or of the schema may (foreign keys off for it alone)."""
    sqlite = database.engine.dialect.name == "sqlite"
    with database.engine.connect() as connection:
        if sqlite:  # outside any transaction, or SQLite ignores it
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        try:
            if not sqlite:  # PostgreSQL's foreign keys are triggers, which a replica does not fire
                connection.exec_driver_sql("SET LOCAL session_replication_role = replica")
            with Session(connection) as session:
                yield session
                session.flush()
            connection.commit()
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")


def event_of_no_session(session: Session, seq: int = 1) -> str:
    row = Event(
        session_id=NO_SESSION,
        seq=seq,
        kind="placed",
        actor="Mallory",
        at=AT,
        payload="{}",
        prev_hash=GENESIS_HASH,
        hash=GENESIS_HASH,
    )
    session.add(row)
    session.flush()
    return f"event {row.id} belongs to no table session"


def hand_of_no_session(session: Session) -> str:
    row = HandRow(
        session_id=NO_SESSION,
        event_id=1,
        number=1,
        button="Ann",
        fantasyland="{}",
        result="{}",
        rake="{}",
        jackpot=0,
        settled_at=AT,
    )
    session.add(row)
    session.flush()
    return f"hand row {row.id} belongs to no table session"


def ledger_row_of_no_session(session: Session) -> str:
    row = LedgerRow(
        session_id=NO_SESSION, event_id=1, hand_number=None, player="Ann", kind="rebuy", amount=5, note=""
    )
    session.add(row)
    session.flush()
    return f"chip ledger row {row.id} belongs to no table session"


def transfer_of_no_hand(session: Session) -> str:
    row = TransferRow(
        hand_id=NO_SESSION, ordinal=1, from_player="Ann", to_player="Bob", owed=5, paid=5, reason=""
    )
    session.add(row)
    session.flush()
    return f"transfer {row.id} belongs to no hand"


ORPHANS: list[Callable[[Session], str]] = [
    event_of_no_session,
    hand_of_no_session,
    ledger_row_of_no_session,
    transfer_of_no_hand,
]


@pytest.mark.parametrize("orphan", ORPHANS, ids=lambda orphan: orphan.__name__)
def test_a_row_no_session_accounts_for_is_named(history: Database, orphan: Callable[[Session], str]) -> None:
    with owners_unchecked(history) as session:
        expected = orphan(session)
    with pytest.raises(VerifyFault, match=f"^{expected}$"):
        verify_database(history)


def test_of_two_the_first_kind_and_the_first_row_are_named(history: Database) -> None:
    """Events before hand rows, as the check has always gone; of two events, the lower id."""
    with owners_unchecked(history) as session:
        hand_of_no_session(session)
        first = event_of_no_session(session)
        event_of_no_session(session, seq=2)
    with pytest.raises(VerifyFault, match=f"^{first}$"):
        verify_database(history)


def test_a_room_with_no_such_row_verifies(history: Database) -> None:
    """A hand of the room's session with its transfers is no orphan: the counts add up."""
    assert verify_database(history).hands == 2
