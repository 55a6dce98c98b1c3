"""A floor started without checkpoints of a room's day folds every open table from its opening
(about 1.6 s a table of 2,000 hands): each reading folds tables for `FOLDING_SECONDS` at most and
counts those it had no time for, which the readings that follow fold at once, so the room is
listed a few tables at a time rather than all at once after half a minute."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pytestqt.qtbot import QtBot

from ofc_desk.desk.floor.controller import room_heading
from ofc_desk.desk.floor.watcher import FloorWatcher
from ofc_desk.i18n import Language, in_language
from ofc_desk.service.oversight import floor
from ofc_desk.service.oversight.floor import READ_EVERY_SECONDS, FloorReader, FloorRoom, ReadingPace
from tests.helpers.played_rooms import THREE_AND_FOUR_HANDS, PlayedRoom


@pytest.fixture
def one_table_a_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each reading's time is over once it has folded one table (it folds one at least)."""
    monkeypatch.setattr(floor, "FOLDING_SECONDS", 0.0)


@pytest.mark.usefixtures("one_table_a_reading")
def test_a_reading_out_of_time_lists_what_it_folded_and_counts_the_rest(played_room: PlayedRoom) -> None:
    database = played_room(THREE_AND_FOUR_HANDS)
    reader = FloorReader(database)
    first = reader.read()
    assert len(first.tables) == 1 and first.still_reading == 1
    second = reader.read()
    assert second.still_reading == 0
    assert [table.table for table in second.tables] == ["T1", "T2"]
    assert first.tables[0] in second.tables  # the table folded first (either: no order is asked)
    whole = FloorReader(database).read  # nothing moved: a reading with time enough gives the same
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(floor, "FOLDING_SECONDS", 60.0)
        assert whole().reads_as(second)


@pytest.mark.usefixtures("one_table_a_reading")
def test_the_watcher_reads_again_at_once_the_tables_a_reading_had_no_time_for(
    played_room: PlayedRoom, qtbot: QtBot
) -> None:
    """Nothing moves in the room: the second reading comes for the table the first did not reach."""
    database = played_room(THREE_AND_FOUR_HANDS)
    readings: list[FloorRoom] = []
    watching = FloorWatcher(database)
    watching.room_read.connect(readings.append)
    watching.start()
    try:
        qtbot.waitUntil(lambda: any(len(room.tables) == 2 for room in readings), timeout=10_000)
    finally:
        watching.stop()
    assert [room.still_reading for room in readings[:2]] == [1, 0]
    assert [len(room.tables) for room in readings[:2]] == [1, 2]


@pytest.mark.parametrize(
    ("language", "heading"),
    [
        (Language.EN, "Reading the open tables: 3 more tables to list…"),
        (Language.RU, "Читаем открытые столы: ещё 3 стола в очереди…"),
        (Language.VI, "Đang đọc các bàn đang mở: còn 3 bàn chưa hiện…"),
        (Language.ZH_CN, "正在读取开着的牌桌：还有 3 张待列出…"),
    ],
    ids=lambda said: said.value if isinstance(said, Language) else "",
)
def test_the_heading_says_how_many_tables_are_still_being_read(language: Language, heading: str) -> None:
    room = FloorRoom(datetime.now(UTC), (), still_reading=3)
    with in_language(language):
        assert room_heading(room) == heading


def test_a_reading_that_had_no_time_for_every_table_is_followed_at_once() -> None:
    """The pace holds readings of changes to one a quarter second; what a reading left is read on
    at once, and the pace holds again after a whole reading."""
    now = [100.0]
    pace = ReadingPace(clock=lambda: now[0])
    pace.took_reading(whole=False)
    assert pace.may_read()
    assert pace.wait_seconds(0.25, changed=True) == 0.0
    pace.took_reading()
    assert not pace.may_read()
    assert pace.wait_seconds(0.25, changed=True) == pytest.approx(READ_EVERY_SECONDS)
