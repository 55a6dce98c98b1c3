"""A floor's first listing of a room whose tables have not moved since a floor on this machine kept
them (issue 39: the floor opening on a 24-table room): each table as kept, in the words the floor
that kept it showed, read without the games' desk parts and the rules core; anything else about a
table (it moved, its checkpoint is another language's or its event is not the stored one) and
there is no such listing, the full reading comes first. Not timed: benchmarks/floor_open_bench.py
times it."""

from __future__ import annotations

from pathlib import Path

import pytest

from ofc_desk.desk.floor.columns import FLOOR_COLUMNS, kept_words, row_detail, row_texts
from ofc_desk.i18n import in_language
from ofc_desk.i18n.languages import Language
from ofc_desk.service.oversight.floor import FloorReader
from ofc_desk.service.oversight.floor_kept import kept_room
from ofc_desk.service.store import checkpoint
from ofc_desk.service.table.commands import StartHand
from ofc_desk.storage.database import Database
from ofc_desk.storage.desk_cache import CACHE_VARIABLE
from tests.helpers.desk_scripts import desk_script_run
from tests.helpers.floor_room import at_the_table, play_chinese_table
from tests.helpers.played_rooms import ONE_TABLE, TWO_TABLES, PlayedRoom

NOT_IN_THE_FIRST_LISTING = (
    "ofc_desk.desk.games",  # each game's desk part
    "ofc_desk.desk.floor.game_columns",  # the columns that ask the game
    "ofc_desk.service.front",  # a table's service
    "ofc_desk.service.table.fold",  # the rules: folding the events
    "ofc_desk.service.table.machine",
    "ofc_desk.service.table.actions",
    "ofc_desk.service.store.checkpoint",  # a desk's store around its checkpoint
    "ofc_desk.service.store.pool_ledger",  # the jackpot pool, walked from the events
    "ofc_desk.service.oversight.floor",  # the full reading
    "ofc_desk.core.ofc",  # each game's rules core
    "ofc_desk.core.chinese",
    "ofc_desk.core.games",  # the games' cores, by game
    "ofc_desk.service.table.games.base",  # each game's rules in the service
    "ofc_desk.service.table.games.choose",
    "ofc_desk.service.table.games.ofc.live",
    "ofc_desk.service.table.games.ofc.scoring",
    "ofc_desk.service.table.games.ofc.view",
    "ofc_desk.service.table.games.ofc.commands",
    "ofc_desk.service.table.games.chinese.play",
    "ofc_desk.service.table.games.chinese.view",
    "ofc_desk.service.table.games.chinese.commands",
    "sqlalchemy.orm",  # the ORM and the models: the listing reads with SQLAlchemy Core alone
    "ofc_desk.storage.models",
)
"""Modules (and their packages' modules) the first listing of kept tables does without."""

LISTED = """
import sys
from ofc_desk.desk.floor.app import build_floor
from ofc_desk.desk.floor.watcher import FloorWatcher
from ofc_desk.desk.shell.application import application
from ofc_desk.storage.existing_room import open_existing

app = application()
go_on = FloorWatcher.listing_shown
printed = []

def shown(watcher):
    # The window says it has shown a reading: the watcher waits for this before loading the rest.
    model = controller.model
    if model.rowCount() and not printed:
        printed.append(True)
        print(*(model.index(row, 0).data() for row in range(model.rowCount())), sep=",")
        print(repr(controller.window.jackpot_line.text()))
        print(*sorted(sys.modules), sep="\\n")
        sys.stdout.flush()
        app.quit()
    go_on(watcher)

FloorWatcher.listing_shown = shown
controller = build_floor(open_existing({url!r}))
app.aboutToQuit.connect(controller.stop)
controller.start()
app.exec()
"""


@pytest.fixture
def rooms(played_room: PlayedRoom, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> PlayedRoom:
    """`played_room` (tests/helpers/played_rooms.py), the floor's cache this test's, a checkpoint
    kept every ten events."""
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path / "cache"))
    monkeypatch.setattr(checkpoint, "CHECKPOINT_EVENTS", 10)
    return played_room


def kept_by_a_floor(database: Database) -> None:
    """A floor's reading and the checkpoints it keeps after it, with its rows' words."""
    reader = FloorReader(database, kept_words)
    reader.read()
    reader.keep_checkpoints()


def test_tables_that_have_not_moved_are_listed_as_kept_in_the_words_the_fold_gives(rooms: PlayedRoom) -> None:
    database = rooms(TWO_TABLES)
    at_the_table(database, "T2", 3, next_hand_actions=2)
    at_the_table(database, "T10", 3)
    kept_by_a_floor(database)
    first = kept_room(database)
    assert first is not None and first.jackpot_pool is None  # the pool is the full reading's
    full = FloorReader(database).read()
    assert [table.table for table in first.tables] == ["T2", "T10"]
    for kept, folded in zip(first.tables, full.tables, strict=True):
        assert kept.snapshot == folded.snapshot and kept.hands_per_hour == folded.hands_per_hour
        assert row_texts(kept) == row_texts(folded)
        for column in range(len(FLOOR_COLUMNS)):
            assert row_detail(kept, column) == row_detail(folded, column)


def test_a_table_that_moved_or_was_kept_in_another_language_leaves_the_listing_to_the_full_reading(
    rooms: PlayedRoom,
) -> None:
    database = rooms(ONE_TABLE)
    moving = at_the_table(database, "T1", 3)
    kept_by_a_floor(database)
    with in_language(Language.VI):
        assert kept_room(database) is None  # its words are English, not Vietnamese
    moving.do(StartHand())
    assert kept_room(database) is None


def test_a_room_without_the_floor_s_checkpoints_has_no_first_listing(rooms: PlayedRoom) -> None:
    database = rooms(ONE_TABLE)
    at_the_table(database, "T1", 3)  # its desk resumes it (and keeps the desk's checkpoint)
    FloorReader(database).read()  # read, nothing kept
    assert kept_room(database) is None


def test_the_floor_lists_kept_tables_before_loading_the_games_and_the_rules(
    rooms: PlayedRoom, backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if backend != "sqlite":
        pytest.skip("the subprocess's first listing is the same on either database; SQLite's is enough")
    database = rooms(ONE_TABLE)
    at_the_table(database, "T1", 3, next_hand_actions=2)  # a street on turn: OFC's parts of the view
    play_chinese_table(database, "T2")  # a showdown on turn, a surrender: Chinese poker's
    monkeypatch.setattr(checkpoint, "CHECKPOINT_EVENTS", 1)  # the short Chinese table kept too
    with in_language(Language.EN):  # the language the floor below starts in (the system's: C)
        kept_by_a_floor(database)
        assert kept_room(database) is not None
    database.dispose()
    setting = {
        "LC_ALL": "C",
        "LANGUAGE": "",
        CACHE_VARIABLE: str(tmp_path / "cache"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    done = desk_script_run(LISTED.format(url=database.url), tmp_path, setting)
    tables, jackpot_line, *modules = done.stdout.splitlines()
    assert tables == "T1,T2"
    assert jackpot_line == "''"  # the pool is said by the full reading, moments later
    assert "ofc_desk.service.oversight.floor_kept" in modules
    early = [
        name
        for name in modules
        if any(name == module or name.startswith(f"{module}.") for module in NOT_IN_THE_FIRST_LISTING)
    ]
    assert early == [], "\n".join(early)
