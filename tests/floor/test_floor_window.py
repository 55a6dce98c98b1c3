"""The floor window against a real database: what a desk records appears within a second
(PostgreSQL notifications, a poll on SQLite); a double-click opens the table's records, read-only;
and the floor writes nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QLineEdit
from pytestqt.qtbot import QtBot
from sqlalchemy import text

from ofc_desk.desk.floor import watcher
from ofc_desk.desk.floor.columns import column_index
from ofc_desk.desk.floor.controller import FloorController
from ofc_desk.desk.records.models import OBJECT_ROLE
from ofc_desk.service import TableService, audit_log, chip_ledger, hand_history
from ofc_desk.service.oversight.floor import FloorTable
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.service.table.games.ofc.view_parts import OfcTableView
from ofc_desk.service.terms.snapshot import TableSnapshot
from ofc_desk.storage.database import Database
from ofc_desk.storage.existing_room import open_existing
from ofc_desk.storage.table_notices import EVENTS_CHANNEL
from tests.helpers.floor_room import play_table
from tests.helpers.pdf_text import page_texts
from tests.helpers.pooled_schemas import RoomSchemaPool, migrated_schema
from tests.helpers.room_scripts import DEALER, example_script

T = TypeVar("T")
BEFORE_THE_REFRESH = 10_000
"""How long a test waits for a change to reach the floor (ms): well inside the floor's own re-read
(`watcher.REFRESH_SECONDS`, 30 s), so what arrives was told by a notification or the SQLite poll,
and long enough that a loaded machine does not fail it. How soon it arrives is a benchmark's figure
(benchmarks/cardroom_floor.py), not a test's."""


@contextmanager
def floor_on(url: str, qtbot: QtBot) -> Iterator[FloorController]:
    """The floor on `url`, a room the migrations built (as a desk's first start leaves it)."""
    database = open_existing(url)
    controller = FloorController(database)
    qtbot.addWidget(controller.window)
    controller.start()
    qtbot.waitUntil(lambda: controller.window.heading.text().startswith("No tables yet:"), timeout=5000)
    try:
        yield controller
    finally:
        controller.stop()
        database.dispose()


@pytest.fixture
def floor(migrated_database_url: str, qtbot: QtBot) -> Iterator[FloorController]:
    with floor_on(migrated_database_url, qtbot) as controller:
        yield controller


def at_a_desk(url: str, work: Callable[[Database], T]) -> T:
    """`work` done by a desk of its own (own thread, own connections), committed on return."""

    def desk() -> T:
        database = Database(url)
        try:
            return work(database)
        finally:
            database.dispose()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(desk).result()


def shown(controller: FloorController) -> list[FloorTable]:
    model = controller.model
    return [model.data(model.index(row, 0), OBJECT_ROLE) for row in range(model.rowCount())]


def shows(controller: FloorController, desk: TableSnapshot) -> bool:
    """The floor's row for the desk's table shows exactly what the desk shows."""
    tables = [table for table in shown(controller) if table.session_id == desk.session_id]
    return len(tables) == 1 and tables[0].snapshot == desk


def test_what_a_desk_records_appears_on_the_floor_before_its_refresh(
    floor: FloorController, migrated_database_url: str, qtbot: QtBot
) -> None:
    if migrated_database_url.startswith("postgresql"):
        # Without a notification the floor reads again only every 30 s: arriving before proves LISTEN.
        assert floor.watcher.live_by == "PostgreSQL notifications"
    replayed = at_a_desk(
        migrated_database_url, lambda db: play_table(db, "T7", 4, next_hand_actions=2).snapshot()
    )
    qtbot.waitUntil(lambda: shows(floor, replayed), timeout=BEFORE_THE_REFRESH)
    model = floor.model
    street = OfcTableView.of(replayed).street
    assert model.data(model.index(0, column_index("hand"))) == f"#5 · street {street}"
    assert replayed.to_act is not None
    assert model.data(model.index(0, column_index("to_act"))) == replayed.to_act.player
    assert floor.window.heading.text() == "1 open table"

    def next_entry(database: Database) -> TableSnapshot:
        desk = TableService.resume(database, replayed.session_id, DEALER)
        action = example_script()["hands"][4]["actions"][2]
        return desk.do(Place(action["player"], action["cards"], action["rows"]))

    entered = at_a_desk(migrated_database_url, next_entry)
    assert entered != replayed
    qtbot.waitUntil(lambda: shows(floor, entered), timeout=BEFORE_THE_REFRESH)

    second = at_a_desk(migrated_database_url, lambda db: play_table(db, "T2", 1).snapshot())
    qtbot.waitUntil(lambda: shows(floor, second) and shows(floor, entered), timeout=BEFORE_THE_REFRESH)
    assert [table.table for table in shown(floor)] == ["T2", "T7"]


def test_a_double_click_opens_the_tables_records_read_only(tmp_path: Path, qtbot: QtBot) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    desk = at_a_desk(url, lambda db: play_table(db, "T8", 5).snapshot())
    database = open_existing(url)
    before = audit_log(database)
    floor = FloorController(database)
    qtbot.addWidget(floor.window)
    floor.start()
    try:
        qtbot.waitUntil(lambda: shows(floor, desk), timeout=5000)
        view = floor.window.table
        cell = view.visualRect(floor.model.index(0, column_index("table"))).center()
        # A person's double-click: the first press selects, the second comes as a double-click.
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=cell)
        qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=cell)
        records = floor.records[desk.session_id]
        expected: tuple[Sequence[object], ...] = (
            hand_history(database, desk.session_id),
            chip_ledger(database, desk.session_id),
            audit_log(database, desk.session_id),
        )
        counts = tuple(len(rows) for rows in expected)
        assert all(counts)

        def filled() -> bool:
            return tuple(browser.model.rowCount() for browser in records.browsers) == counts

        qtbot.waitUntil(filled, timeout=5000)
        assert records.isVisible() and "T8" in records.windowTitle()
        for browser, rows in zip(records.browsers, expected, strict=True):
            assert browser.table.editTriggers() == QAbstractItemView.EditTrigger.NoEditTriggers
            model = browser.model
            assert [model.data(model.index(row, 0), OBJECT_ROLE) for row in range(len(rows))] == rows
            assert not model.flags(model.index(0, 0)) & Qt.ItemFlag.ItemIsEditable
    finally:
        floor.stop()
    assert audit_log(database) == before  # the floor wrote nothing
    database.dispose()


@pytest.mark.postgres
def test_the_floor_says_when_it_lost_the_server_and_carries_on(
    request: pytest.FixtureRequest,
    postgres_url: str | None,
    room_schemas: RoomSchemaPool | None,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The floor tries the server again after a pause; how long it waits is not what is tested.
    monkeypatch.setattr(watcher, "RETRY_SECONDS", 4 * watcher.WAIT_SECONDS)
    with migrated_schema(request, postgres_url, room_schemas) as url, floor_on(url, qtbot) as floor:
        first = at_a_desk(url, lambda db: play_table(db, "T3", 1).snapshot())
        qtbot.waitUntil(lambda: shows(floor, first), timeout=BEFORE_THE_REFRESH)
        at_a_desk(url, cut_the_floors_connection)
        qtbot.waitUntil(lambda: floor.window.live_line.text().startswith("NOT LIVE"), timeout=5000)
        second = at_a_desk(url, lambda db: play_table(db, "T4", 1).snapshot())
        qtbot.waitUntil(lambda: shows(floor, second), timeout=10_000)
        assert floor.window.live_line.text().startswith("Live (PostgreSQL notifications)")


def cut_the_floors_connection(database: Database) -> None:
    """What a network cut does to the floor's listening connection (the only one that LISTENs)."""
    with database.session() as session:
        session.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
                f" AND query = 'LISTEN {EVENTS_CHANNEL}' AND pid <> pg_backend_pid()"
            )
        )


def test_file_shift_report_writes_the_verified_shift_pdf(
    migrated_database_url: str, qtbot: QtBot, tmp_path: Path
) -> None:
    with floor_on(migrated_database_url, qtbot) as floor:
        at_a_desk(migrated_database_url, lambda db: play_table(db, "T9", 1).snapshot())
        floor.window.action_shift_report.trigger()
        dialog = floor.shift_dialog
        assert dialog is not None
        lines = {line.accessibleName(): line for line in dialog.findChildren(QLineEdit)}
        lines["From (UTC)"].setText("not a time")
        qtbot.keyClick(lines["PDF file"], Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: "not a time" in dialog.refusal.text(), timeout=5000)
        pdf = tmp_path / "shift.pdf"
        lines["From (UTC)"].setText("2000-01-01 00:00")
        lines["PDF file"].setText(str(pdf))
        qtbot.keyClick(lines["PDF file"], Qt.Key.Key_Return)
        qtbot.waitUntil(
            lambda: floor.window.statusBar().currentMessage().startswith("Shift report"), timeout=20_000
        )
        printed = "".join(page_texts(pdf))
        assert "T9" in printed and "Shift manager" in printed
