"""`connections.driver_rows`: a session's events read through the driver's own cursor are the
rows SQLAlchemy reads, on SQLite and PostgreSQL, in the snapshot's transaction; a query with a
column whose type converts what it reads is left to SQLAlchemy."""

from __future__ import annotations

import typing

from sqlalchemy import DateTime, literal_column, select

from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.audit.verify_session import _EVENT_COLUMNS, EventRow, HandStored
from ofc_desk.service.store.records import HandFields
from ofc_desk.storage.connections import driver_rows
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, HandRow, TableSession
from tests.helpers.table_helpers import ANN_QQ, BOB_PLAIN, CY_PLAIN, open_test_table, play_hand


def test_verify_reads_every_column_of_an_event_and_a_hand_the_store_writes() -> None:
    """`HandStored` (a hand row as verify reads it) and `records.HandFields` (as the store writes
    it) are two shapes of one row that mypy cannot derive from each other: a column added to the
    table and written by the store must be read and compared by verify too."""
    hand_columns = tuple(column.name for column in HandRow.__table__.columns)
    written = typing.get_type_hints(HandFields)
    assert HandStored._fields == hand_columns
    assert ("id", "session_id", *written) == hand_columns
    assert typing.get_type_hints(HandStored) == {"id": int, "session_id": int, **written}
    assert EventRow._fields == tuple(column.name for column in Event.__table__.columns)


def test_the_drivers_rows_are_the_rows_sqlalchemy_reads(database: Database) -> None:
    desk = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    play_hand(desk, {"Ann": ANN_QQ, "Bob": BOB_PLAIN, "Cy": CY_PLAIN})
    with database.snapshot() as session:
        connection = session.connection()
        session_id = session.scalars(select(TableSession.id)).one()
        query = select(*_EVENT_COLUMNS).where(Event.session_id == session_id).order_by(Event.seq, Event.id)
        read = driver_rows(connection, query)
        assert [type(row) for row in read] == [tuple] * len(read)
        assert read == [tuple(row) for row in connection.execute(query).all()]
        assert len(read) > 10
        # A column whose type converts what it reads (a time, on SQLite): SQLAlchemy's rows.
        a_time = literal_column("'2020-01-01 10:00:00'", DateTime)
        converted = select(Event.id, a_time).where(Event.session_id == session_id).order_by(Event.id)
        assert [tuple(row) for row in driver_rows(connection, converted)] == [
            tuple(row) for row in connection.execute(converted).all()
        ]
        if connection.dialect.name == "sqlite":
            assert type(driver_rows(connection, converted)[0][1]) is not str
    assert verify_database(database).events == len(read)
