"""The floor keeps a checkpoint of each long table it follows (issue 39: opening the floor on a long
day), and a floor started later starts each table from it: it reads every table exactly as a floor
folding from the opening, and a checkpoint the stored chain does not hold, or whose next events do
not fold onto it, is set aside."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
from pytestqt.qtbot import QtBot

from ofc_desk.desk.floor.watcher import FloorWatcher
from ofc_desk.i18n import active_language, in_language
from ofc_desk.i18n.languages import Language
from ofc_desk.service import TableService
from ofc_desk.service.oversight import floor
from ofc_desk.service.oversight.floor import FloorReader, FloorRoom
from ofc_desk.service.store import checkpoint
from ofc_desk.service.table.commands import StartHand
from ofc_desk.service.table.fold import fold
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.storage.database import Database
from ofc_desk.storage.desk_cache import CACHE_VARIABLE
from ofc_desk.storage.models import TableSession
from tests.helpers.floor_room import append_unreadable_event, at_the_table, play_table
from tests.helpers.played_rooms import ONE_TABLE, THREE_AND_FOUR_HANDS, TWO_HANDS, TWO_TABLES, PlayedRoom
from tests.helpers.room_scripts import example_script

EVERY = 10
"""Events between checkpoints here (the floor's, as a desk's, is a thousand)."""


def checkpoints_every_ten_events(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path / "cache"))
    monkeypatch.setattr(checkpoint, "CHECKPOINT_EVENTS", EVERY)


@pytest.fixture
def database(migrated_database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Database:
    checkpoints_every_ten_events(tmp_path, monkeypatch)
    return Database(migrated_database_url)


@pytest.fixture
def rooms(played_room: PlayedRoom, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> PlayedRoom:
    """`played_room`, with the cache and the checkpoints' pace of `database`."""
    checkpoints_every_ten_events(tmp_path, monkeypatch)
    return played_room


def from_the_opening(database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FloorRoom:
    """The room as a floor with no checkpoint reads it (a cache folder of its own)."""
    with monkeypatch.context() as patch:
        patch.setenv(CACHE_VARIABLE, str(tmp_path / "no-checkpoints"))
        return FloorReader(database).read()


def kept_by(reader: FloorReader) -> None:
    """A floor's reading and the checkpoints it keeps after it."""
    reader.read()
    reader.keep_checkpoints()


def stored_head(database: Database, desk: TableService) -> int:
    with database.session() as session:
        head = session.get(TableSession, desk.session_id)
        assert head is not None
        return head.head_seq


def events_folded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many events each of the floor's folds from now on is given."""
    counted: list[int] = []
    real_fold = fold

    def counting(machine: TableMachine, events: Sequence[Any], hooks: Any) -> None:
        counted.append(len(events))
        real_fold(machine, events, hooks)

    monkeypatch.setattr(floor, "fold", counting)
    return counted


def test_a_floor_started_later_starts_each_table_from_its_checkpoint_and_reads_the_same(
    rooms: PlayedRoom, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = rooms(THREE_AND_FOUR_HANDS)
    mid_hand = at_the_table(database, "T1", 3, next_hand_actions=4)
    between = at_the_table(database, "T2", 4)
    reader = FloorReader(database)
    first = reader.read()
    reader.keep_checkpoints()  # as the floor's watcher does once a reading is shown
    for desk in (mid_hand, between):
        kept = checkpoint.kept(database, desk.session_id, floor.KEPT_FOLDER)
        assert kept is not None and kept.seq > EVERY
    between.do(StartHand())  # the room goes on after the first floor kept its checkpoints

    folded = events_folded(monkeypatch)
    room = FloorReader(database).read()
    assert sum(folded) == 1  # the hand dealt since: the rest is in the checkpoints
    assert room.tables == from_the_opening(database, tmp_path, monkeypatch).tables
    assert room.tables[0].snapshot == mid_hand.snapshot() == first.tables[0].snapshot
    assert room.tables[1].snapshot == between.snapshot() and room.tables[1].snapshot.hand_number == 5
    assert room.tables[1].last_settlement == first.tables[1].last_settlement is not None


def folds_thawed(monkeypatch: pytest.MonkeyPatch) -> list[type]:
    """What each thaw of the floor's checkpoints from now on makes: its kept table, or its fold."""
    thawed: list[type] = []
    real_thawed_as = checkpoint.Checkpoint.thawed_as

    def counting(kept: checkpoint.Checkpoint, kind: type[Any]) -> Any:
        thawed.append(kind)
        return real_thawed_as(kept, kind)

    monkeypatch.setattr(checkpoint.Checkpoint, "thawed_as", counting)
    return thawed


def test_a_table_that_has_not_moved_is_shown_as_kept_and_its_fold_thawed_once_it_moves(
    rooms: PlayedRoom, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = rooms(TWO_TABLES)
    still, moving = at_the_table(database, "T2", 3), at_the_table(database, "T10", 3, next_hand_actions=2)
    kept_by(FloorReader(database))
    thawed, folded = folds_thawed(monkeypatch), events_folded(monkeypatch)
    later = datetime.now(UTC) + timedelta(hours=2)  # the pace moves with the clock, not the table

    reader = FloorReader(database)
    room = reader.read(later)
    assert (thawed, folded) == ([floor.KeptTable, floor.KeptTable], [])
    assert room.tables == from_the_opening_at(later, database, tmp_path, monkeypatch).tables
    assert [table.snapshot for table in room.tables] == [still.snapshot(), moving.snapshot()]
    assert room.tables[0].hands_per_hour is not None

    action = example_script()["hands"][3]["actions"][2]
    moving.do(Place(action["player"], action["cards"], action["rows"]))
    thawed.clear()
    folded.clear()
    room = reader.read(later)
    assert (thawed, folded) == ([floor.FloorCheckpoint], [1])  # the moved table's fold, its one event
    assert room.tables == from_the_opening_at(later, database, tmp_path, monkeypatch).tables
    assert room.tables[1].snapshot == moving.snapshot()


def test_a_floor_s_checkpoint_holds_its_fold_compressed_apart_in_a_file_stored_as_it_is(
    rooms: PlayedRoom, tmp_path: Path
) -> None:
    """A floor started later shows a still table from the row kept with it: reading the file
    inflates nothing but that row (the fold inside it is compressed on its own, thawed only once the
    table moves)."""
    database = rooms(ONE_TABLE)
    desk = at_the_table(database, "T1", 3)
    kept_by(FloorReader(database))
    kept = checkpoint.kept(database, desk.session_id, floor.KEPT_FOLDER)
    assert kept is not None
    start = kept.thawed_as(floor.KeptTable)
    fold_kept = checkpoint.Checkpoint(kept.seq, kept.hash, zlib.decompress(start.folded))
    machine = fold_kept.thawed_as(floor.FloorCheckpoint).machine
    assert machine.snapshot(desk.session_id, kept.hash) == desk.snapshot()
    (file,) = (tmp_path / "cache" / floor.KEPT_FOLDER).glob("*.fold")
    _head, _newline, body = file.read_bytes().partition(b"\n")
    assert zlib.decompress(body) == kept.machine and len(body) > len(kept.machine)  # stored, not deflated


def test_a_table_kept_as_shown_in_another_language_is_shown_from_its_fold(
    rooms: PlayedRoom, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = rooms(ONE_TABLE)
    desk = at_the_table(database, "T1", 3)
    with in_language(Language.VI):
        kept_by(FloorReader(database))
    thawed = folds_thawed(monkeypatch)

    room = FloorReader(database).read()
    assert thawed == [floor.KeptTable, floor.FloorCheckpoint]
    assert room.tables == from_the_opening(database, tmp_path, monkeypatch).tables
    assert room.tables[0].snapshot == desk.snapshot()


def from_the_opening_at(
    now: datetime, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> FloorRoom:
    """The room at `now` as a floor with no checkpoint reads it (a cache folder of its own)."""
    with monkeypatch.context() as patch:
        patch.setenv(CACHE_VARIABLE, str(tmp_path / "no-checkpoints"))
        return FloorReader(database).read(now)


def test_a_checkpoint_whose_event_is_not_the_stored_one_is_set_aside(
    rooms: PlayedRoom, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = rooms(ONE_TABLE)
    desk = at_the_table(database, "T1", 3)
    kept_by(FloorReader(database))
    kept = checkpoint.kept(database, desk.session_id, floor.KEPT_FOLDER)
    assert kept is not None
    not_opened = checkpoint.frozen_or_none(floor.FloorCheckpoint(TableMachine(), None))
    assert not_opened is not None  # a table not even opened: trusted, it would show no table at all
    empty = checkpoint.frozen_or_none(floor.KeptTable(None, active_language(), not_opened))
    assert empty is not None
    planted = checkpoint.Checkpoint(kept.seq, "0" * 64, empty)
    checkpoint.keep_file(database, desk.session_id, planted, floor.KEPT_FOLDER)

    room = FloorReader(database).read()
    assert room.tables == from_the_opening(database, tmp_path, monkeypatch).tables
    assert room.tables[0].snapshot == desk.snapshot()


def test_an_event_after_the_checkpoint_that_cannot_be_read_back_is_named_as_without_one(
    rooms: PlayedRoom, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = rooms(ONE_TABLE)
    desk = at_the_table(database, "T1", 3)
    kept_by(FloorReader(database))
    before = desk.snapshot()
    seq = append_unreadable_event(database, desk.session_id)

    (table,) = FloorReader(database).read().tables
    assert table.fault is not None and table.fault.startswith(f"event {seq} (placed) cannot be read back:")
    assert table.snapshot == before
    assert (table,) == from_the_opening(database, tmp_path, monkeypatch).tables


def test_a_floor_started_later_reads_every_table_after_its_checkpoint_in_one_query(
    database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    desks = [play_table(database, f"T{number}", 2) for number in (5, 6, 7)]
    kept_by(FloorReader(database))
    desks[0].do(StartHand())  # one table moved on since: its event is read in the same query
    sent: list[str] = []
    sqlalchemy.event.listen(database.engine, "before_cursor_execute", lambda *said: sent.append(said[2]))

    room = FloorReader(database).read()
    reading_events = [statement for statement in sent if "events.payload" in statement]  # what folds
    assert len(reading_events) == 1
    assert [table.snapshot for table in room.tables] == [desk.snapshot() for desk in desks]
    assert room.tables == from_the_opening(database, tmp_path, monkeypatch).tables


def test_a_closing_floor_keeps_the_tables_that_moved_so_the_next_folds_only_what_follows(
    rooms: PlayedRoom, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(floor, "KEPT_AT_CLOSE_EVENTS", 3)
    database = rooms(TWO_TABLES)
    moved, still = at_the_table(database, "T2", 3), at_the_table(database, "T10", 3)
    reader = FloorReader(database)
    kept_by(reader)
    moved.do(StartHand())  # three events since its checkpoint, fewer than a reading keeps
    for action in example_script()["hands"][3]["actions"][:2]:
        moved.do(Place(action["player"], action["cards"], action["rows"]))
    still.do(StartHand())  # one event: not worth a pickle at the close
    kept_by(reader)
    assert all(
        (found := checkpoint.kept(database, desk.session_id, floor.KEPT_FOLDER)) is not None
        and found.seq == stored_head(database, desk) - moved_by
        for desk, moved_by in ((moved, 3), (still, 1))
    )

    reader.keep_at_close()
    folded = events_folded(monkeypatch)
    room = FloorReader(database).read()
    assert sum(folded) == 1  # the still table's one event; the moved table's are in its checkpoint
    assert [table.snapshot for table in room.tables] == [moved.snapshot(), still.snapshot()]
    assert room.tables == from_the_opening(database, tmp_path, monkeypatch).tables


def test_the_floor_watcher_keeps_its_moved_tables_as_it_stops(
    rooms: PlayedRoom, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checkpoint, "CHECKPOINT_EVENTS", 10_000)  # no reading keeps one
    monkeypatch.setattr(floor, "KEPT_AT_CLOSE_EVENTS", EVERY)
    database = rooms(TWO_HANDS)
    desk = at_the_table(database, "T9", 2)
    watching = FloorWatcher(database)
    with qtbot.waitSignal(watching.room_read, timeout=5000):
        watching.start()
    assert checkpoint.kept(database, desk.session_id, floor.KEPT_FOLDER) is None

    watching.stop()
    kept = checkpoint.kept(database, desk.session_id, floor.KEPT_FOLDER)
    assert kept is not None and kept.seq == stored_head(database, desk)


def test_a_closing_floor_whose_cache_cannot_be_written_closes_keeping_nothing(
    rooms: PlayedRoom, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checkpoint, "CHECKPOINT_EVENTS", 10_000)  # no reading keeps one
    monkeypatch.setattr(floor, "KEPT_AT_CLOSE_EVENTS", EVERY)
    database = rooms(TWO_HANDS)
    desk = at_the_table(database, "T9", 2)
    reader = FloorReader(database)
    reader.read()
    not_a_folder = tmp_path / "a-file"
    not_a_folder.write_text("")
    monkeypatch.setenv(CACHE_VARIABLE, str(not_a_folder))

    reader.keep_at_close()
    assert checkpoint.kept(database, desk.session_id, floor.KEPT_FOLDER) is None
