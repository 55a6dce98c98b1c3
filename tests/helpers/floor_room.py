"""Tables for the floor to watch, played through the real session service: the published
pineapple example's first hands at a named table, optionally stopped part-way into the next hand
and with a player sitting out; and a room so played, opened again as the floor opens it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings

from ofc_desk.desk.shell.theme import DisplaySettingsStore
from ofc_desk.service import TableService, list_open_tables
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.table.commands import SitOut, StartHand
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.storage.database import Database
from ofc_desk.storage.existing_room import open_existing
from ofc_desk.storage.models import Event, TableSession
from tests.helpers.room_scripts import DEALER, example_script, table_script


def play_table(
    database: Database, table: str, hands: int, *, next_hand_actions: int = 0, sitting_out: str | None = None
) -> TableService:
    """`hands` settled hands at `table`; then `sitting_out` sits out, and the next hand is dealt
    with its first `next_hand_actions` streets entered (none: the table waits between hands)."""
    run_replay(database, table_script(table, hands, extras=False, close=False), resume=False)
    session_id = next(opened.session_id for opened in list_open_tables(database) if opened.table == table)
    service = TableService.resume(database, session_id, DEALER)
    if sitting_out is not None:
        service.do(SitOut(sitting_out))
    if next_hand_actions:
        service.do(StartHand())
        for action in example_script()["hands"][hands]["actions"][:next_hand_actions]:
            service.do(Place(action["player"], action["cards"], action["rows"]))
    return service


def room_for_the_floor(
    folder: Path, play: Callable[[Database], object]
) -> tuple[Database, DisplaySettingsStore]:
    """A room database in `folder` played by `play` and closed, as a desk leaves it; then opened
    as the floor opens it, with the floor's own settings file beside it."""
    url = f"sqlite:///{folder / 'room.db'}"
    desk_database = Database(url)
    try:
        play(desk_database)
    finally:
        desk_database.dispose()
    store = DisplaySettingsStore(QSettings(str(folder / "floor.ini"), QSettings.Format.IniFormat))
    return open_existing(url), store


def append_unreadable_event(database: Database, session_id: int) -> int:
    """An event appended behind the service's back that the rules cannot read back (a `placed`
    with an empty payload, the head moved on to it, as the database demands); its number."""
    with database.session() as session:
        head = session.get(TableSession, session_id)
        assert head is not None
        seq = head.head_seq + 1
        session.add(
            Event(
                session_id=session_id,
                seq=seq,
                kind="placed",
                actor="Mallory",
                at=head.opened_at,
                payload="{}",
                prev_hash=head.head_hash,
                hash="0" * 64,
            )
        )
        head.head_seq, head.head_hash = seq, "0" * 64
        session.commit()
    return seq
