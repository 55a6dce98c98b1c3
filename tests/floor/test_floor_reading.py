"""The floor's reading of a room (no Qt): every open table rebuilt from its events exactly as its
desk rebuilds it on resume, followed event by event, closed tables dropped; on PostgreSQL every
stored event notifies its table, and only when it commits."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest

from ofc_desk.service import ActionRefused, TableService, hand_history
from ofc_desk.service.oversight.floor import READ_EVERY_SECONDS, FloorReader, ReadingPace, watch_changes
from ofc_desk.service.table.commands import CloseSession, StartHand
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.service.table.games.ofc.view_parts import OfcTableView
from ofc_desk.storage.database import Database
from ofc_desk.storage.table_notices import EVENTS_CHANNEL
from tests.helpers.floor_room import append_unreadable_event, at_the_table, play_table
from tests.helpers.played_rooms import A_HAND_EACH, THREE_AND_FOUR_HANDS, TWO_HANDS, PlayedRoom
from tests.helpers.pooled_schemas import RoomSchemaPool, migrated_schema
from tests.helpers.room_scripts import DEALER, SUPERVISOR, SUPERVISOR_PIN, example_script


@pytest.fixture
def database(migrated_database_url: str) -> Database:
    return Database(migrated_database_url)


def test_each_open_table_reads_as_its_desk_resumes_it(played_room: PlayedRoom) -> None:
    database = played_room(THREE_AND_FOUR_HANDS)
    mid_hand = at_the_table(database, "T1", 3, next_hand_actions=4)
    between = at_the_table(database, "T2", 4, sitting_out="Cy")
    room = FloorReader(database).read()
    assert [table.table for table in room.tables] == ["T1", "T2"]
    for table, desk in zip(room.tables, (mid_hand, between), strict=True):
        resumed = TableService.resume(database, desk.session_id, DEALER)
        assert table.snapshot == resumed.snapshot() == desk.snapshot()
        stored = hand_history(database, desk.session_id)
        assert table.hands_settled == len(stored)
        assert table.last_settlement is not None
        assert table.last_settlement.hand_number == stored[-1].number
        assert table.last_settlement.transfers == stored[-1].result.transfers
        assert table.open_requests == ()
        assert table.hands_per_hour is None  # opened seconds ago: no pace to show yet
    t1, t2 = room.tables
    assert t1.snapshot.to_act is not None and OfcTableView.of(t1.snapshot).street > 0
    assert t2.snapshot.seat("Cy").sitting_out


def test_the_floor_follows_new_events_and_drops_a_closed_table(played_room: PlayedRoom) -> None:
    database = played_room(TWO_HANDS)
    desk = at_the_table(database, "T9", 2)
    reader = FloorReader(database)
    assert reader.read().tables[0].snapshot.hand_number == 2
    desk.do(StartHand())
    (table,) = reader.read().tables
    assert table.snapshot == desk.snapshot()
    assert table.snapshot.hand_number == 3
    with pytest.raises(ActionRefused):  # a refused action stores nothing, the floor sees nothing new
        desk.do(Place("Nobody", "Ah", "front"))
    assert reader.read().tables[0].snapshot == desk.snapshot()


def test_a_reading_builds_again_only_the_tables_that_moved(database: Database) -> None:
    """At a table's event the floor reads the room again: the tables that did not move are shown
    as they were (not built again), until their hands per hour move with the clock."""
    moving, still = play_table(database, "T6", 1), play_table(database, "T7", 2)
    reader = FloorReader(database)
    before = reader.read().tables
    assert reader.read().tables == before
    moving.do(StartHand())
    after = reader.read().tables
    assert after[0] is not before[0]
    assert after[0].snapshot == moving.snapshot()
    assert after[1] is before[1]
    assert after[1].snapshot == still.snapshot()
    opened = datetime.strptime(before[1].opened_at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    an_hour_on = reader.read(now=opened + timedelta(hours=1)).tables
    assert (an_hour_on[0].hands_per_hour, an_hour_on[1].hands_per_hour) == (1, 2)
    assert an_hour_on[1].snapshot == still.snapshot()


def test_changes_are_read_at_most_every_quarter_second() -> None:
    """A face reading the room at its tables' changes: the first change at once, then, however
    many notifications come, one reading a `READ_EVERY_SECONDS`; a wait with no change seen lasts
    as long as asked."""
    now = [100.0]
    pace = ReadingPace(clock=lambda: now[0])
    assert pace.may_read()
    assert pace.wait_seconds(0.25, changed=True) == 0.0
    pace.took_reading()
    assert not pace.may_read()
    assert pace.wait_seconds(0.25, changed=False) == 0.25
    now[0] += 0.1
    assert not pace.may_read()
    assert pace.wait_seconds(1.0, changed=True) == pytest.approx(READ_EVERY_SECONDS - 0.1)
    now[0] += READ_EVERY_SECONDS - 0.1
    assert pace.may_read()
    assert pace.wait_seconds(0.25, changed=True) == 0.0


def test_a_closed_table_leaves_the_floor(played_room: PlayedRoom) -> None:
    database = played_room(A_HAND_EACH)
    first, second = at_the_table(database, "T4", 1), at_the_table(database, "T5", 1)
    reader = FloorReader(database)
    assert [table.session_id for table in reader.read().tables] == [first.session_id, second.session_id]
    first.do(CloseSession(supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    assert [table.session_id for table in reader.read().tables] == [second.session_id]


@pytest.mark.postgres
def test_every_committed_event_notifies_its_table(
    request: pytest.FixtureRequest, postgres_url: str | None, room_schemas: RoomSchemaPool | None
) -> None:
    with migrated_schema(request, postgres_url, room_schemas) as url:
        database = Database(url)
        desk = play_table(database, "T6", 1)
        listener = psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://", 1), autocommit=True)
        listener.execute(f"LISTEN {EVENTS_CHANNEL}")
        watch = watch_changes(database)
        try:
            assert watch.wait(0.05) is False  # nothing recorded since it started listening
            desk.do(StartHand())
            desk.do(Place(_first_entry(desk)[0], _first_entry(desk)[1], _first_entry(desk)[2]))
            with pytest.raises(ActionRefused):
                desk.do(Place("Nobody", "Ah", "front"))  # refused before any write: no notification
            schema = listener.execute("SELECT current_schema()").fetchone()
            assert schema is not None
            heard = [n.payload for n in listener.notifies(timeout=0.5)]
            ours = [
                payload for payload in heard if payload.startswith(f"{schema[0]}:")
            ]  # other tests' rooms too
            assert ours == [f"{schema[0]}:{desk.session_id}"] * 2
            assert watch.wait(1.0) is True
        finally:
            watch.close()
            listener.close()
            database.dispose()


@pytest.mark.postgres
def test_a_woken_watch_ends_its_wait_with_no_change_and_every_later_one(
    request: pytest.FixtureRequest, postgres_url: str | None, room_schemas: RoomSchemaPool | None
) -> None:
    with migrated_schema(request, postgres_url, room_schemas) as url:
        database = Database(url)
        watch = watch_changes(database)
        said: list[bool] = []
        waiting = threading.Thread(target=lambda: said.append(watch.wait(3600)))
        try:
            waiting.start()
            watch.wake()  # a closing floor's, from the window's thread
            waiting.join(timeout=60)  # not an hour: the wait ended when woken
            assert not waiting.is_alive() and said == [False]
            assert watch.wait(3600) is False  # and so does every later wait
        finally:
            watch.close()
            watch.wake()  # closed: nothing left to wake, and it says nothing
            database.dispose()


def _first_entry(desk: TableService) -> tuple[str, str, str]:
    action = example_script()["hands"][1]["actions"][0]
    turn = desk.snapshot().to_act
    assert turn is not None and turn.player == action["player"]
    return action["player"], action["cards"], action["rows"]


def test_the_watch_of_a_sqlite_database_polls(tmp_path: Path) -> None:
    database = Database(f"sqlite:///{tmp_path / 'desk.db'}")
    watch = watch_changes(database)
    assert watch.wait(0.01) is True  # no notifications on SQLite: every wait ends in a look
    watch.close()
    database.dispose()


def test_an_event_that_cannot_be_read_back_is_named_and_the_rest_of_the_room_stays(
    played_room: PlayedRoom,
) -> None:
    database = played_room(A_HAND_EACH)
    forged, sound = at_the_table(database, "T4", 1), at_the_table(database, "T5", 1)
    before = forged.snapshot()
    seq = append_unreadable_event(database, forged.session_id)
    broken, fine = FloorReader(database).read().tables
    assert broken.fault is not None and broken.fault.startswith(f"event {seq} (placed) cannot be read back:")
    assert broken.snapshot == before  # the last state its events could be read back to
    assert fine.fault is None and fine.snapshot == sound.snapshot()
