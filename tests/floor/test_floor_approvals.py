"""An approval from the floor reaches the desk: the dealer asks the floor to void a hand while the
next one is dealt, the request appears on the floor view, the supervisor approves it there with
their PIN, the desk says so and deals on, and voids the hand once the hand being dealt is settled."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QPushButton
from pytestqt.qtbot import QtBot

from ofc_desk.desk.actions import Dialog
from ofc_desk.desk.dialogs.attempt import AttemptDialog, SupervisorDialog
from ofc_desk.desk.floor.columns import column_index
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.service.terms.snapshot import Phase
from ofc_desk.storage.database import Database
from tests.desk.conftest import Desk, make_desk, screenshot
from tests.floor.test_floor_window import BEFORE_THE_REFRESH, at_a_desk, floor_on
from tests.helpers.floor_room import play_table
from tests.helpers.room_scripts import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN, example_script

DESK_WATCH = 3000
"""The desk reads the floor's decisions once a second."""


def a_desk_dealing_hand_2(qtbot: QtBot, tmp_path: Path, url: str) -> Desk:
    session_id = at_a_desk(url, lambda db: play_table(db, "T7", 1).session_id)
    desk = make_desk(qtbot, tmp_path, url)
    desk.session.start_signed_in((DEALER, DEALER_PIN), session_id)
    qtbot.waitUntil(lambda: desk.session.controller.service is not None, timeout=10_000)
    desk.press_enter_on(desk.window.between_hands.deal_button)
    assert desk.snapshot.phase is Phase.LIVE and desk.snapshot.hand_number == 2
    return desk


def ask_the_floor_to_void_hand_1(desk: Desk) -> None:
    desk.window.action(Dialog.VOID).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert isinstance(dialog, SupervisorDialog) and dialog.ask_floor is not None
    fields = {line.accessibleName(): line for line in dialog.findChildren(QLineEdit)}
    desk.qtbot.keyClicks(fields["Reason"], "cards exposed in hand 1")
    desk.qtbot.mouseClick(dialog.ask_floor, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible(), dialog.refusal.text()


def test_an_approval_from_the_floor_reaches_the_desk_which_voids_between_hands(
    migrated_database_url: str, qtbot: QtBot, tmp_path: Path
) -> None:
    with floor_on(migrated_database_url, qtbot) as floor:
        desk = a_desk_dealing_hand_2(qtbot, tmp_path, migrated_database_url)
        ask_the_floor_to_void_hand_1(desk)
        waiting = "#1 void hand 1 (cards exposed in hand 1) — waiting for the floor"
        assert desk.window.requests_line.text() == f"Requests to the floor: {waiting}"
        desk.screenshot("desk-request-waiting")
        model = floor.model
        qtbot.waitUntil(
            lambda: model.rowCount() == 1 and model.data(model.index(0, column_index("requests"))) == waiting,
            timeout=BEFORE_THE_REFRESH,
        )

        floor.window.action_decide.trigger()
        dialog = floor.decision_dialog
        assert isinstance(dialog, AttemptDialog)
        lines = {line.accessibleName(): line for line in dialog.findChildren(QLineEdit)}
        approve = next(b for b in dialog.findChildren(QPushButton) if b.accessibleName() == "Approve")
        qtbot.keyClicks(lines["Supervisor"], SUPERVISOR)
        qtbot.keyClicks(lines["Supervisor PIN"], "0000")
        qtbot.mouseClick(approve, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: "wrong name or PIN" in dialog.refusal.text(), timeout=10_000)
        assert dialog.isVisible()  # said in the dialog, which stays open to be corrected
        lines["Supervisor PIN"].clear()
        qtbot.keyClicks(lines["Supervisor PIN"], SUPERVISOR_PIN)
        qtbot.keyClicks(lines["Note (optional)"], "seen on camera")
        floor.window.resize(1366, 420)  # the narrowest screen a card room uses
        QApplication.processEvents()
        screenshot(floor.window, "floor-request")
        screenshot(dialog, "floor-request-dialog")
        qtbot.mouseClick(approve, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(
            lambda: floor.window.statusBar().currentMessage() == "request #1 at T7 approved by Sam",
            timeout=10_000,
        )

        # The desk hears of it by itself, and deals on: the void waits for the hand to end.
        qtbot.waitUntil(lambda: "approved by Sam" in desk.window.requests_line.text(), timeout=DESK_WATCH)
        assert "Request #1 approved by Sam" in desk.window.entry.notice.text()
        service = desk.session.controller.service
        assert service is not None
        for action in example_script()["hands"][1]["actions"]:
            service.do(Place(action["player"], action["cards"], action["rows"]))
        desk.session.controller.refresh()
        assert desk.snapshot.phase is Phase.AWAITING_SETTLEMENT
        desk.qtbot.keyClick(desk.window.settlement, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        assert 1 in service.machine.voided and not desk.window.requests_line.isVisible()
        assert "request #1 done: void hand 1, approved by Sam" in desk.window.between_hands.notice.text()
        desk.window.close()
    database = Database(migrated_database_url)
    try:
        verify_database(database)
    finally:
        database.dispose()
