"""The database itself refuses rewrites of the history, whoever asks: the desk's own connection,
the library or an SQL console (migration 0004). Only the owner of the file or of the schema can
drop the triggers, and `verify` catches what they change then (test_tamper.py)."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from ofc_desk.service import resume_table
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.table.commands import CloseSession, Rebuy
from ofc_desk.storage.append_only import REFUSAL
from ofc_desk.storage.database import Database
from tests.helpers.table_helpers import (
    ANN_QQ,
    BOB_PLAIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    DatabaseCopy,
    dealer,
    open_test_table,
    play_hand,
)

# Their history is played once a worker: one worker runs them all.
pytestmark = pytest.mark.xdist_group("append-only history")

REWRITES = [
    "UPDATE events SET actor = 'Mallory'",
    "UPDATE events SET payload = payload WHERE seq = 1",
    "DELETE FROM events WHERE seq = (SELECT MAX(seq) FROM events)",
    "UPDATE hands SET button = 'Ann'",
    "DELETE FROM hands",
    "UPDATE transfers SET paid = paid + 100",
    "DELETE FROM transfers",
    "UPDATE chip_ledger SET amount = 1000",
    "DELETE FROM chip_ledger",
    "UPDATE users SET role = 'supervisor'",
    "UPDATE users SET pin_hash = 'scrypt$1$1$1$00$00'",
    "DELETE FROM users",
    "UPDATE table_sessions SET table_name = 'Table 8'",
    "UPDATE table_sessions SET head_seq = head_seq - 1",
    "UPDATE table_sessions SET head_seq = head_seq + 1, head_hash = 'x'",
    "UPDATE table_sessions SET opened_at = '2026-01-01T00:00:00.000000Z', head_seq = head_seq + 1",
    "DELETE FROM table_sessions",
    "UPDATE signatures SET signer = 'Sue'",
    "DELETE FROM signatures",
    "UPDATE account_events SET payload = '{}'",
    "DELETE FROM account_events",
    "UPDATE users SET public_key = '', account_seq = account_seq + 1",
    "UPDATE users SET account_seq = (SELECT MAX(seq) FROM account_events) WHERE name = 'Dan'",
    "DELETE FROM sign_in_attempts",
]


def a_hand_and_a_rebuy(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    service.do(Rebuy("Bob", 40))


@pytest.fixture
def history(database_copy: DatabaseCopy) -> Database:
    """A settled hand and a rebuy (played once a run), the triggers in place: this test's copy."""
    return database_copy(a_hand_and_a_rebuy)


@pytest.mark.parametrize("statement", REWRITES)
def test_every_rewrite_of_the_history_is_refused(history: Database, statement: str) -> None:
    with history.engine.connect() as connection, pytest.raises(DBAPIError, match=REFUSAL):
        connection.execute(text(statement))


def test_a_closed_session_takes_no_change(history: Database) -> None:
    resume_table(history, 1, dealer(history)).do(CloseSession(supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    with history.engine.connect() as connection, pytest.raises(DBAPIError, match=REFUSAL):
        connection.execute(text("UPDATE table_sessions SET closed_at = NULL, head_seq = head_seq + 1"))


def test_postgresql_refuses_emptying_the_events_at_once(history: Database) -> None:
    if history.engine.dialect.name != "postgresql":
        pytest.skip("TRUNCATE is PostgreSQL's: SQLite's DELETE without WHERE is refused above")
    with history.engine.connect() as connection, pytest.raises(DBAPIError, match=REFUSAL):
        connection.execute(text("TRUNCATE events CASCADE"))


def test_the_event_flow_still_records_after_the_refusals(history: Database) -> None:
    """A refused rewrite changes nothing and leaves the table open for the next action."""
    before = verify_database(history).events
    with history.engine.connect() as connection, pytest.raises(DBAPIError):
        connection.execute(text("DELETE FROM events"))
    resume_table(history, 1, dealer(history)).do(Rebuy("Ann", 5))
    assert verify_database(history).events == before + 1
