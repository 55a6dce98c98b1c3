"""Rooms of replayed tables, replayed once a test process and copied for each test that starts
from one (the floor's tests replay the same few tables again and again: most of their time).

A room is its `Replays`: tables replayed in turn into a new room through the real replay
(`floor_room.replay_table`), nothing done at them afterwards: a test resumes each table itself
(`floor_room.at_the_table`), and anything it does there it does on its own copy. On SQLite the
copy is that of a file the tables were replayed into. On PostgreSQL the first test to ask replays
them into its own migrated schema (`migrated_schema`), whose rows are then kept in a schema of
their own; each later test's migrated schema takes those rows, as the service tests' histories do
(`copy_statements`; a user who is not a superuser cannot hold the triggers off for that, and
there, as in a durable test, each test replays its tables itself). A room is replayed again once
it is older than half of `PACE_AFTER_MINUTES`: its tables read as opened moments ago (no pace
yet), as they did replayed by the test.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import ExitStack, closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest

from ofc_desk.service.oversight.floor_kept import PACE_AFTER_MINUTES
from ofc_desk.storage.database import Database
from tests.helpers.floor_room import replay_table
from tests.helpers.ofc_test_databases import is_durable, sqlite_url
from tests.helpers.pooled_schemas import (
    RoomSchemaPool,
    copy_statements,
    migrated_schema,
    pooled_schema,
    schema_of,
)
from tests.helpers.room_logins import libpq

Replays = tuple[tuple[str, int], ...]
"""A room's tables in the order replayed, each with its number of hands."""
PlayedRoom = Callable[[Replays], Database]
"""`played_room(replays)`: this test's database, a copy of the room those replays made."""

# The rooms the floor's tests start from, each named once so that every test starting from it
# shares one played room (a room's tables' names are part of it: its events hold them).
ONE_TABLE: Replays = (("T1", 3),)
"""A table three hands on."""
TWO_TABLES: Replays = (("T2", 3), ("T10", 3))
"""Two tables three hands on each (named to sort as numbers, not as words)."""
THREE_AND_FOUR_HANDS: Replays = (("T1", 3), ("T2", 4))
"""A table three hands on, and one four hands on."""
TWO_HANDS: Replays = (("T9", 2),)
"""A table two hands on."""
A_HAND_EACH: Replays = (("T4", 1), ("T5", 1))
"""Two tables a hand on each."""

FRESH_FOR = timedelta(minutes=PACE_AFTER_MINUTES / 2)
"""How long a played room is copied: its tables still read as just opened."""


def replay_all(database: Database, replays: Replays) -> None:
    for table, hands in replays:
        replay_table(database, table, hands)


class PlayedRooms:
    """This test process's played rooms: SQLite files and PostgreSQL schemas, by their replays."""

    def __init__(self, folder: Path, room_schemas: RoomSchemaPool | None) -> None:
        self.folder, self.room_schemas = folder, room_schemas
        self._files: dict[Replays, tuple[datetime, Path]] = {}
        self._schemas: dict[Replays, tuple[datetime, str]] = {}
        """Each room's copy statements (`_kept_rows`), by its replays."""

    def sqlite_file(self, replays: Replays) -> Path:
        """A SQLite file the replays were played into, whole (no write-ahead log beside it)."""
        if not _fresh(self._files.get(replays)):
            path = self.folder / f"room-{len(self._files)}-{datetime.now(UTC):%H%M%S%f}.db"
            database = Database(f"sqlite:///{path}")
            try:
                replay_all(database, replays)
            finally:
                database.dispose()
            with closing(sqlite3.connect(path)) as connection:
                connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._files[replays] = (datetime.now(UTC), path)
        return self._files[replays][1]

    def schema_room(self, url: str, replays: Replays) -> Database:
        """The migrated schema at `url` (the pool's: its next test gets the migrations' rows back)
        holding the room: the rows kept of it put in place of the schema's own; the first test to
        ask (or the first once they are stale) replays the tables into its schema, which is kept."""
        kept = self._schemas.get(replays)
        if kept is None or not _fresh(kept):
            database = Database(url)
            replay_all(database, replays)
            self._schemas[replays] = (datetime.now(UTC), self._kept_rows(url))
            return database
        with psycopg.connect(libpq(url)) as connection:  # one transaction: all of it or none
            connection.execute("SET LOCAL lock_timeout = '5s'")
            connection.execute(kept[1])
        return Database(url)

    def _kept_rows(self, url: str) -> str:
        """The rows of every table and the sequences' values of the schema at `url`, copied into a
        schema of their own kept to the run's end (bare tables, only ever read: no migration
        needed); the statements that put them in place of those of a schema the migrations built."""
        assert self.room_schemas is not None
        kept = schema_of(pooled_schema(self.room_schemas.server_url, self.room_schemas.cleanup))
        played = {"schema": schema_of(url)}
        with psycopg.connect(libpq(url)) as connection:
            tables = connection.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = %(schema)s", played
            )
            sequences = connection.execute(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = %(schema)s", played
            )
            names = [str(table) for (table,) in tables], [str(sequence) for (sequence,) in sequences]
            for table in names[0]:
                connection.execute(f'CREATE TABLE "{kept}"."{table}" AS TABLE "{table}"')
            for sequence in names[1]:  # what `copy_statements` reads of a sequence
                connection.execute(
                    f'CREATE TABLE "{kept}"."{sequence}" AS SELECT last_value, is_called FROM "{sequence}"'
                )
        return copy_statements(kept, *names)


def _fresh(played: tuple[datetime, object] | None) -> bool:
    return played is not None and datetime.now(UTC) - played[0] < FRESH_FOR


@pytest.fixture(scope="session")
def played_rooms(
    tmp_path_factory: pytest.TempPathFactory, room_schemas: RoomSchemaPool | None
) -> PlayedRooms:
    return PlayedRooms(tmp_path_factory.mktemp("played-rooms"), room_schemas)


@pytest.fixture
def played_room(
    backend: str,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    postgres_url: str | None,
    room_schemas: RoomSchemaPool | None,
    played_rooms: PlayedRooms,
) -> Iterator[PlayedRoom]:
    """`played_room(replays)`: this test's database (on `backend`), holding the room the replays
    make, opened as every start opens it (the migration check); closed afterwards."""
    with ExitStack() as cleanup:

        def room(replays: Replays) -> Database:
            if backend == "sqlite":
                shutil.copyfile(played_rooms.sqlite_file(replays), tmp_path / "desk.db")
                database = Database(sqlite_url(tmp_path))
            else:
                url = cleanup.enter_context(migrated_schema(request, postgres_url, room_schemas))
                if room_schemas is None or is_durable(request):
                    database = Database(url)
                    replay_all(database, replays)
                else:
                    database = played_rooms.schema_room(url, replays)
            cleanup.callback(database.dispose)  # before the schema is given back
            return database

        yield room
