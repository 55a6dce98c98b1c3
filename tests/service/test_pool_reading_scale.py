"""A desk's reading of the room's pool costs what changed since its last reading, not the room's
history (issue 39): a closed table walked to its close is not read again, unless an event is added
to it afterwards (only the file's owner can), which is still folded and named."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event, func, select, text

from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.store.pool_ledger import pool_reading
from ofc_desk.service.table.commands import CloseSession, SeedJackpot
from ofc_desk.storage import append_only
from ofc_desk.storage.audit import event_hash
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, TableSession
from tests.helpers.jackpot_awards import HOUSE_AWARD, open_award_table
from tests.helpers.table_helpers import SUPERVISOR, SUPERVISOR_PIN


def _close_seeded_tables(database: Database, first: int, count: int) -> None:
    """`count` tables, each seeded with 10 chips (a row of the pool) and closed."""
    for number in range(first, first + count):
        service = open_award_table(database, f"Past {number}", **HOUSE_AWARD)
        service.do(SeedJackpot(10, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
        service.do(CloseSession(supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))


@contextmanager
def _counted(database: Database) -> Iterator[list[str]]:
    """The statements sent to the database meanwhile."""
    sent: list[str] = []

    def count(*arguments: Any) -> None:
        sent.append(arguments[2])

    event.listen(database.engine, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        event.remove(database.engine, "before_cursor_execute", count)


def _statements_of_a_reading_after_a_seed(open_table: TableService, reader: Database) -> int:
    open_table.do(SeedJackpot(1, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    with _counted(reader) as sent:
        pool_reading(reader)
    return len(sent)


def test_a_reading_sends_as_many_statements_with_one_closed_table_as_with_five(database: Database) -> None:
    open_table = open_award_table(database, "Jade 1", **HOUSE_AWARD)
    _close_seeded_tables(database, 1, 1)
    reader = Database(database.url)  # a desk of its own, which has walked the room once
    pool_reading(reader)
    with_one = _statements_of_a_reading_after_a_seed(open_table, reader)
    _close_seeded_tables(database, 2, 4)
    pool_reading(reader)
    with_five = _statements_of_a_reading_after_a_seed(open_table, reader)
    assert with_five == with_one
    assert pool_reading(reader).pool == 5 * 10 + 2 == pool_reading(Database(database.url)).pool
    reader.dispose()


def test_an_event_added_to_a_closed_table_is_still_folded_and_named(database: Database) -> None:
    _close_seeded_tables(database, 1, 2)
    reader = Database(database.url)
    assert pool_reading(reader).set_aside == ()
    with database.engine.begin() as connection:
        session_id = connection.execute(select(func.min(TableSession.id))).scalar_one()
        last = connection.execute(
            select(Event).where(Event.session_id == session_id).order_by(Event.seq.desc()).limit(1)
        ).one()
        append_only.remove_all(connection)
        content = (last.hash, session_id, last.seq + 1, "jackpot_seeded", SUPERVISOR, last.at, '{"chips":5}')
        connection.execute(
            text(
                "INSERT INTO events (session_id, seq, kind, actor, at, payload, prev_hash, hash)"
                " VALUES (:session, :seq, :kind, :actor, :at, :payload, :prev, :hash)"
            ),
            {
                "session": session_id,
                "seq": last.seq + 1,
                "kind": "jackpot_seeded",
                "actor": SUPERVISOR,
                "at": last.at,
                "payload": '{"chips":5}',
                "prev": last.hash,
                "hash": event_hash(*content),
            },
        )
        added = connection.execute(select(func.max(Event.id))).scalar_one()
    reading = pool_reading(reader)
    assert reading.pool == 20
    assert reading.set_aside == (
        f"session {session_id} does not verify from event {added} on: its later changes of the"
        " room's jackpot pool are not counted",
    )
    reader.dispose()
