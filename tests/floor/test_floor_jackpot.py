"""The room's jackpot at the floor (issue 28, point 6): the pool shown live, and a supervisor's seed
by keys (Ctrl+J, amount, name, PIN, Enter), recorded between hands at the open table chosen,
signed, and seen by the table's desk."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit
from pytestqt.qtbot import QtBot

from ofc_desk.desk.dialogs.attempt import AttemptDialog
from ofc_desk.desk.dialogs.chip_amount import ChipAmountEdit
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.store.persistence import EventStore
from ofc_desk.service.store.pool_ledger import room_pool
from ofc_desk.storage.database import Database
from tests.desk.conftest import screenshot
from tests.floor.test_floor_window import BEFORE_THE_REFRESH, at_a_desk, floor_on
from tests.helpers.floor_room import play_table
from tests.helpers.room_scripts import SUPERVISOR, SUPERVISOR_PIN


def seed_by_keys(qtbot: QtBot, dialog: AttemptDialog, chips: str, pin: str) -> None:
    lines = {line.accessibleName(): line for line in dialog.findChildren(QLineEdit)}
    amount = dialog.findChild(ChipAmountEdit)
    assert amount is not None
    amount.selectAll()
    qtbot.keyClicks(amount, chips)
    lines["Supervisor"].clear()
    qtbot.keyClicks(lines["Supervisor"], SUPERVISOR)
    lines["Supervisor PIN"].clear()
    qtbot.keyClicks(lines["Supervisor PIN"], pin)
    qtbot.keyClick(lines["Supervisor PIN"], Qt.Key.Key_Return)


def test_the_floor_shows_the_room_pool_live_and_seeds_it_by_keys(
    migrated_database_url: str, qtbot: QtBot, tmp_path: Path
) -> None:
    with floor_on(migrated_database_url, qtbot) as floor:
        session_id = at_a_desk(migrated_database_url, lambda db: play_table(db, "T7", 1).session_id)
        line = floor.window.jackpot_line
        qtbot.waitUntil(
            lambda: floor.model.rowCount() == 1 and line.text() == "Room jackpot pool: 0", timeout=5000
        )

        qtbot.keyClick(floor.window, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
        dialog = floor.seed_dialog
        assert isinstance(dialog, AttemptDialog) and dialog.isVisible()
        seed_by_keys(qtbot, dialog, "1500", "0000")
        qtbot.waitUntil(lambda: "wrong name or PIN" in dialog.refusal.text(), timeout=10_000)
        assert dialog.isVisible()  # said in the dialog, which stays open to be corrected
        seed_by_keys(qtbot, dialog, "1500", SUPERVISOR_PIN)
        qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=10_000)
        assert "seeded the room's jackpot with 1,500 at T7" in floor.window.statusBar().currentMessage()
        qtbot.waitUntil(lambda: line.text() == "Room jackpot pool: 1,500", timeout=BEFORE_THE_REFRESH)
        floor.window.resize(1366, 420)
        QApplication.processEvents()
        screenshot(floor.window, "floor-jackpot")

    database = Database(migrated_database_url)
    try:
        assert room_pool(database) == 1500
        _store, machine = EventStore.load(database, session_id)  # the desk's table folds the seed in
        assert machine.hands_started == 1
        assert verify_database(database, fork=False).hands == 1
    finally:
        database.dispose()
