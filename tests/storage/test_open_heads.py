"""The open tables' heads and the stored hash at given events, read with SQLAlchemy Core alone for a
floor's first listing (issue 39): the same rows the models read, the columns named as the models
name them."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Base, Event, TableSession
from ofc_desk.storage.open_heads import EVENTS, SESSIONS, OpenHead, hashes_at, open_heads
from tests.helpers.floor_room import play_table
from tests.helpers.migrated_files import MigratedTemplate


def test_the_columns_read_are_the_models_own() -> None:
    for light in (SESSIONS, EVENTS):
        modelled = Base.metadata.tables[light.name]
        assert set(light.c.keys()) <= set(modelled.c.keys())


def test_open_heads_and_hashes_are_the_stored_ones(
    tmp_path: Path, migrated_template: MigratedTemplate
) -> None:
    migrated_template.copy(tmp_path / "room.db")  # the process's migrated file: not a test of migrating
    database = Database(f"sqlite:///{tmp_path / 'room.db'}")
    try:
        play_table(database, "T1", 1)
        play_table(database, "T2", 2)
        with database.session() as session:
            rows = session.execute(
                select(TableSession.id, TableSession.opened_at, TableSession.head_seq)
                .where(TableSession.closed_at.is_(None))
                .order_by(TableSession.id)
            ).all()
            first, second = rows
            expected = {
                first.id: session.scalar(
                    select(Event.hash).where(Event.session_id == first.id, Event.seq == first.head_seq)
                ),
                second.id: session.scalar(
                    select(Event.hash).where(Event.session_id == second.id, Event.seq == 2)
                ),
            }
        with database.engine.connect() as connection:
            heads = open_heads(connection)
            hashes = hashes_at(connection, {first.id: first.head_seq, second.id: 2, 999: 1})
            nothing = hashes_at(connection, {})
    finally:
        database.dispose()
    assert heads == [OpenHead(row.id, row.opened_at, row.head_seq) for row in rows]
    assert hashes == expected  # the session with no such event left out
    assert nothing == {}
