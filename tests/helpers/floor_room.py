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
from ofc_desk.service.table.games.chinese.commands import Show
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.storage.database import Database
from ofc_desk.storage.existing_room import open_existing
from ofc_desk.storage.models import Event, TableSession
from tests.helpers.chinese_hands import ROWS
from tests.helpers.room_scripts import DEALER, USERS, example_script, table_script

CHINESE_SEED = "6s 6h 6d 4s 4h 4d 9s 9h Ks Kh Kd 8s 8h"


def play_table(
    database: Database, table: str, hands: int, *, next_hand_actions: int = 0, sitting_out: str | None = None
) -> TableService:
    """`hands` settled hands at `table`; then `sitting_out` sits out, and the next hand is dealt
    with its first `next_hand_actions` streets entered (none: the table waits between hands)."""
    replay_table(database, table, hands)
    return at_the_table(database, table, hands, next_hand_actions=next_hand_actions, sitting_out=sitting_out)


def replay_table(database: Database, table: str, hands: int) -> None:
    """The example's first `hands` hands replayed at `table`, left open between hands."""
    run_replay(database, table_script(table, hands, extras=False, close=False), resume=False)


def at_the_table(
    database: Database, table: str, hands: int, *, next_hand_actions: int = 0, sitting_out: str | None = None
) -> TableService:
    """The desk resuming `table` after its `hands` replayed hands (`replay_table`), where
    `sitting_out` sits out and the next hand is dealt with its first `next_hand_actions` streets
    entered (`play_table`)."""
    session_id = next(opened.session_id for opened in list_open_tables(database) if opened.table == table)
    service = TableService.resume(database, session_id, DEALER)
    if sitting_out is not None:
        service.do(SitOut(sitting_out))
    if next_hand_actions:
        service.do(StartHand())
        for action in example_script()["hands"][hands]["actions"][:next_hand_actions]:
            service.do(Place(action["player"], action["cards"], action["rows"]))
    return service


def play_chinese_table(database: Database, table: str) -> TableService:
    """A Chinese poker hand at `table` where Ann and Bob surrender to Cy's set rows, and the next
    hand dealt with Bob's surrender entered (Ann and Cy to show)."""
    actions: list[dict[str, object]] = [{"player": name, "surrender": True} for name in ("Ann", "Bob")]
    actions.append({"player": "Cy", "cards": CHINESE_SEED, "rows": ROWS})
    script = {
        "table": table,
        "variant": "chinese",
        "rules": "chinese-typical",
        "users": USERS,
        "dealer": DEALER,
        "seats": [{"name": name, "buy_in": 50} for name in ("Ann", "Bob", "Cy")],
        "button": "Cy",
        "hands": [{"actions": actions}],
    }
    run_replay(database, script, resume=False)
    session_id = next(opened.session_id for opened in list_open_tables(database) if opened.table == table)
    service = TableService.resume(database, session_id, DEALER)
    service.do(StartHand())
    service.do(Show("Bob", surrender=True))
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
