"""The floor on a new room: before the schema is there (the owner has not run `ofc-desk db upgrade`
yet, or the first desks are making it this moment) it opens all the same, says "No tables yet"
and why, and fills in as desks open; on a schema older than it reads it says to ask the owner to
upgrade; it never migrates anything itself."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot
from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import make_url

from ofc_desk import __version__
from ofc_desk.cli.main import main
from ofc_desk.desk.floor.controller import FloorController, room_heading
from ofc_desk.service.oversight.floor import FloorReader, FloorRoom
from ofc_desk.service.terms.snapshot import TableSnapshot
from ofc_desk.storage import existing_room, room_schema
from ofc_desk.storage.database import Database
from ofc_desk.storage.existing_room import NotADeskDatabase, open_existing
from ofc_desk.storage.room_schema import SchemaState, newest_revision
from tests.helpers.floor_room import play_table

FILLS_IN = "each table appears here as its desk opens it."
NEWEST = newest_revision()


@pytest.fixture
def new_room(database_url: str) -> str:
    """A room nobody has opened yet: an empty SQLite file, or an empty PostgreSQL schema."""
    parsed = make_url(database_url)
    if parsed.get_backend_name() == "sqlite":
        Path(str(parsed.database)).touch()
    return database_url


@pytest.fixture
def floor(new_room: str, qtbot: QtBot) -> Iterator[FloorController]:
    database = open_existing(new_room, new_room=True)
    controller = FloorController(database)
    qtbot.addWidget(controller.window)
    controller.start()
    yield controller
    controller.stop()
    database.dispose()


def owner_hint(url: str) -> str:
    """What the floor tells a room whose schema is not there or not current to do."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return f"the next desk started on this file makes it so (or `ofc-desk db upgrade --db {url}`)"
    owner = parsed.set(username="OWNER", password=None).render_as_string(hide_password=True)
    return f"ask the room's owner to run `ofc-desk db upgrade --db {owner}`"


def test_the_floor_on_a_room_without_its_tables_says_so_and_fills_in_as_desks_open(
    floor: FloorController, new_room: str, qtbot: QtBot
) -> None:
    waiting = f"No tables yet: the room's database has no OFC Desk tables yet: {owner_hint(new_room)}."
    qtbot.waitUntil(lambda: floor.window.heading.text() == f"{waiting} Then {FILLS_IN}", timeout=5000)
    assert floor.model.rowCount() == 0

    Database(new_room).dispose()  # the owner's upgrade, or the first desk's start
    qtbot.waitUntil(lambda: floor.window.heading.text() == f"No tables yet: {FILLS_IN}", timeout=5000)

    with ThreadPoolExecutor(1) as desk:  # a desk of its own: own thread, own connections
        drawn = desk.submit(lambda: _play(new_room, "T3")).result()
    qtbot.waitUntil(lambda: floor.window.heading.text() == "1 open table", timeout=5000)
    qtbot.waitUntil(lambda: floor.model.table_at(0).snapshot == drawn, timeout=5000)


def _play(url: str, table: str) -> TableSnapshot:
    """What the desk draws after a hand at `table`."""
    database = Database(url)
    try:
        return play_table(database, table, 1).snapshot()
    finally:
        database.dispose()


def test_the_floor_on_a_schema_older_than_it_reads_says_to_ask_the_owner(new_room: str) -> None:
    Database(new_room, migrate=False).migrate("0006")
    database = open_existing(new_room, new_room=True)
    try:
        room = FloorReader(database).read()
        assert database.schema_revision() == "0006"  # read, never migrated
    finally:
        database.dispose()
    assert room.tables == ()
    assert room.not_ready == (
        f"the room's schema is at revision 0006 and this OFC Desk ({__version__}) needs {NEWEST}:"
        f" {owner_hint(new_room)}"
    )


def test_a_desk_migrating_while_the_floor_looks_at_the_room_does_not_turn_it_away(
    new_room: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The desk's migration commits between the floor's reads of the room: it must not look like
    a database holding tables but no OFC Desk schema."""
    real_schema_state = room_schema.schema_state
    migrated: list[str] = []

    def then_a_desk_migrates(connection: Connection) -> SchemaState:
        state = real_schema_state(connection)
        if not migrated:
            migrated.append("once")
            Database(new_room).dispose()
        return state

    monkeypatch.setattr(existing_room, "schema_state", then_a_desk_migrates)
    open_existing(new_room, new_room=True).dispose()


def test_the_floor_still_refuses_a_database_holding_other_tables(new_room: str) -> None:
    engine = create_engine(new_room)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE payroll (id INTEGER PRIMARY KEY)"))
    engine.dispose()
    with pytest.raises(NotADeskDatabase, match=r"is not an OFC Desk database$"):
        open_existing(new_room, new_room=True)


def test_the_floor_refuses_another_programs_database_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "payroll.db"
    engine = create_engine(f"sqlite:///{other}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE payroll (id INTEGER PRIMARY KEY)"))
    engine.dispose()
    assert main(["floor", "--db", f"sqlite:///{other}"]) == 2
    assert capsys.readouterr().err == f"database: {other} is not an OFC Desk database\n"


@pytest.mark.parametrize(
    ("room", "heading"),
    [
        (FloorRoom(datetime.now(UTC), (), ever_opened=False), f"No tables yet: {FILLS_IN}"),
        (FloorRoom(datetime.now(UTC), (), ever_opened=True), f"No open tables: {FILLS_IN}"),
        (
            FloorRoom(datetime.now(UTC), (), ever_opened=False, not_ready="why"),
            f"No tables yet: why. Then {FILLS_IN}",
        ),
        (
            FloorRoom(datetime.now(UTC), (), ever_opened=True, not_ready="why"),
            "The tables cannot be shown: why. The list comes back by itself once they can be.",
        ),
    ],
)
def test_an_empty_list_says_whether_the_room_is_new(room: FloorRoom, heading: str) -> None:
    assert room_heading(room) == heading
