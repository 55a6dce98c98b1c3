"""Fantasyland at the desk (the set dialog, the button held) and a supervisor-guarded void."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox
from pytestqt.qtbot import QtBot

from ofc_desk.core.rows import Row
from ofc_desk.desk.actions import Dialog
from ofc_desk.desk.dialogs.attempt import AttemptDialog, SupervisorDialog
from ofc_desk.desk.dialogs.chip_amount import ChipAmountEdit
from ofc_desk.desk.dialogs.new_table import TABLE_OWN_PRESET, RulesFields
from ofc_desk.desk.floor.columns import hand_text
from ofc_desk.desk.games.ofc import PROGRESSIVE
from ofc_desk.desk.games.ofc_set_dialog import FantasylandSetDialog
from ofc_desk.desk.table.seatface import SeatMark
from ofc_desk.service.oversight.floor import FloorTable
from ofc_desk.service.table.games.ofc.view_parts import OfcTableView, OfcTurn
from ofc_desk.service.terms.setup import TableRules
from ofc_desk.service.terms.snapshot import Phase
from ofc_desk.storage.database import Database
from tests.desk.conftest import SUPERVISOR, Desk, street_keys
from tests.desk.test_entering_cards import ANN, BOB, enter_regular_streets
from tests.desk.test_start_and_resume import field, reopen_signed_in


def amount_field(dialog: AttemptDialog, caption: str) -> ChipAmountEdit:
    return next(amount for amount in dialog.amounts if amount.caption == caption)


ANN_FANTASYLAND = ("Ah Ad 3c", "Kh Kd 7s 7c 2h", "9c 9d 9h 4s 4d")
BOB_SECOND = ("Ks Kc 5s", "Js Jc 8h 8d 3h", "Qc Tc 8c 6c 2c")


def click_ok(desk: Desk, dialog: AttemptDialog) -> None:
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    desk.qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)


def settle_first_hand(desk: Desk, *, deal_next: bool = True) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    enter_regular_streets(desk, ANN, BOB)
    if deal_next:
        desk.press_enter_on(desk.window.settlement.confirm_button)
    else:
        desk.qtbot.mouseClick(desk.window.settlement.hold_button, Qt.MouseButton.LeftButton)


def test_button_held_then_the_fantasyland_set_dialog(desk: Desk) -> None:
    settle_first_hand(desk)
    snapshot = desk.snapshot
    assert snapshot.hand_number == 2
    assert snapshot.button == "Bob" and OfcTableView.of(snapshot).button_held_for_fantasyland
    assert "button Bob (held: Fantasyland)" in desk.status
    ann_face = desk.face("Ann")
    assert ann_face.marks.dealt == SeatMark(
        "FL 13", "Fantasyland, 13 cards", "[FL 13]", "in Fantasyland this hand, 13 cards"
    )
    assert snapshot.to_act is not None and snapshot.to_act.player == "Bob"
    desk.street(street_keys(BOB_SECOND[2], "b"))
    for card in BOB_SECOND[1].split():
        desk.street(f"{card} m")
    for card in BOB_SECOND[0].split():
        desk.street(f"{card} f")
    assert desk.snapshot.to_act is not None and desk.snapshot.to_act.kind is OfcTurn.FANTASYLAND_SET
    waiting = desk.snapshot
    assert waiting.phase is Phase.LIVE
    floor_row = FloorTable(waiting, "", 1, None, None, ())
    assert hand_text(floor_row) == "#2 · waiting for Fantasyland sets"  # the floor's Hand column
    desk.qtbot.waitUntil(lambda: desk.session.controller.set_dialog is not None)
    dialog = desk.session.controller.set_dialog
    assert isinstance(dialog, FantasylandSetDialog) and dialog.player == "Ann"
    desk.qtbot.keyClicks(dialog.front, "ah ad ks")
    assert "Ks" in dialog.refusal.text()  # Bob's king of spades is already on the table
    dialog.front.clear()
    desk.qtbot.keyClicks(dialog.front, "ah ad 3c")
    assert dialog.refusal.text() == ""
    desk.qtbot.keyClicks(dialog.middle, ANN_FANTASYLAND[1].lower())
    desk.qtbot.keyClicks(dialog.back, ANN_FANTASYLAND[2].lower())
    assert desk.face("Ann").rows[2].pending == tuple(ANN_FANTASYLAND[2].split())
    desk.screenshot("04-fantasyland-set")
    desk.screenshot("04b-fantasyland-set-dialog", dialog)
    click_ok(desk, dialog)
    assert desk.snapshot.phase is Phase.AWAITING_SETTLEMENT
    assert [str(c) for c in desk.snapshot.seat("Ann").row(Row.FRONT).cards] == ["Ah", "Ad", "3c"]


def test_a_half_typed_fantasyland_set_is_not_kept_as_a_draft(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk
) -> None:
    settle_first_hand(desk)
    desk.street(street_keys(BOB_SECOND[2], "b"))
    for card in BOB_SECOND[1].split():
        desk.street(f"{card} m")
    for card in BOB_SECOND[0].split():
        desk.street(f"{card} f")
    desk.qtbot.waitUntil(lambda: desk.session.controller.set_dialog is not None)
    dialog = desk.session.controller.set_dialog
    assert isinstance(dialog, FantasylandSetDialog)
    desk.qtbot.keyClicks(dialog.front, "ah ad 3c")
    session_id = desk.snapshot.session_id
    desk.window.close()
    reopened = reopen_signed_in(qtbot, tmp_path, database, session_id)
    assert reopened.session.controller.staged == [] and reopened.refusal() == ""
    assert reopened.snapshot.to_act is not None and reopened.snapshot.to_act.kind is OfcTurn.FANTASYLAND_SET
    reopened.window.close()


def test_void_is_refused_without_the_supervisor_pin_and_done_with_it(desk: Desk) -> None:
    settle_first_hand(desk, deal_next=False)
    assert desk.window.bottom.currentIndex() == desk.window.BETWEEN_HANDS_PAGE
    stacks_after_hand = {seat.name: seat.stack for seat in desk.snapshot.seats}
    assert stacks_after_hand != {"Ann": 100, "Bob": 100}
    desk.window.action(Dialog.VOID).trigger()
    supervisor_dialog = desk.session.chip_actions.active_dialog
    assert isinstance(supervisor_dialog, SupervisorDialog)
    desk.qtbot.keyClicks(supervisor_dialog.supervisor, SUPERVISOR[0])
    click_ok(desk, supervisor_dialog)
    assert supervisor_dialog.refusal.text() != ""
    assert supervisor_dialog.isVisible()
    assert {seat.name: seat.stack for seat in desk.snapshot.seats} == stacks_after_hand
    desk.qtbot.keyClicks(supervisor_dialog.pin, "0000")
    click_ok(desk, supervisor_dialog)
    assert supervisor_dialog.refusal.text() != ""
    supervisor_dialog.pin.clear()
    desk.qtbot.keyClicks(supervisor_dialog.pin, SUPERVISOR[1])
    click_ok(desk, supervisor_dialog)
    assert not supervisor_dialog.isVisible()
    assert {seat.name: seat.stack for seat in desk.snapshot.seats} == {"Ann": 100, "Bob": 100}


def test_chip_correction_and_closing_the_table_need_the_supervisor(desk: Desk) -> None:
    settle_first_hand(desk, deal_next=False)
    ann = desk.snapshot.seat("Ann").stack
    desk.window.action(Dialog.CORRECT).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert isinstance(dialog, SupervisorDialog)
    amount = amount_field(dialog, "Chips (+/−)")
    amount.setValue(5)
    desk.qtbot.keyClicks(field(dialog, "Reason"), "miscounted buy-in")
    desk.qtbot.keyClicks(dialog.supervisor, SUPERVISOR[0])
    desk.qtbot.keyClicks(dialog.pin, SUPERVISOR[1])
    click_ok(desk, dialog)
    assert not dialog.isVisible()
    assert desk.snapshot.seat("Ann").stack == ann + 5
    desk.window.action(Dialog.CLOSE_TABLE).trigger()
    closing = desk.session.chip_actions.active_dialog
    assert isinstance(closing, SupervisorDialog)
    click_ok(desk, closing)
    assert closing.isVisible() and closing.refusal.text() != ""
    desk.qtbot.keyClicks(closing.supervisor, SUPERVISOR[0])
    desk.qtbot.keyClicks(closing.pin, SUPERVISOR[1])
    click_ok(desk, closing)
    assert desk.snapshot.closed
    assert "closed" in desk.window.between_hands.message.text()
    assert not desk.window.between_hands.deal_button.isEnabled()


def test_a_supervisor_changes_the_stakes_between_hands_and_the_rest_of_the_rules_stay(desk: Desk) -> None:
    settle_first_hand(desk, deal_next=False)
    service = desk.session.controller.service
    assert service is not None
    before = service.rules
    desk.window.action(Dialog.CHANGE_RULES).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert isinstance(dialog, SupervisorDialog)
    unit = amount_field(dialog, "Chips per point")
    assert unit.value() == before.unit == 1
    unit.setValue(5)
    click_ok(desk, dialog)
    assert dialog.isVisible() and dialog.refusal.text() != ""
    assert desk.snapshot.unit == 1
    desk.qtbot.keyClicks(dialog.supervisor, SUPERVISOR[0])
    desk.qtbot.keyClicks(dialog.pin, SUPERVISOR[1])
    click_ok(desk, dialog)
    assert not dialog.isVisible()
    assert desk.snapshot.unit == 5
    assert service.rules == replace(before, unit=5)
    assert "5 a point" in desk.status


def test_mid_hand_a_rules_change_is_refused_with_a_pin_and_asked_of_the_floor_instead(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    # Offered while a hand is dealt only because it may be asked of the floor.
    assert desk.window.action(Dialog.CHANGE_RULES).isEnabled()
    desk.window.action(Dialog.CHANGE_RULES).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert isinstance(dialog, SupervisorDialog) and dialog.ask_floor is not None
    desk.qtbot.keyClicks(dialog.supervisor, SUPERVISOR[0])
    desk.qtbot.keyClicks(dialog.pin, SUPERVISOR[1])
    click_ok(desk, dialog)
    assert "only between hands: hand 1 is live" in dialog.refusal.text() and dialog.isVisible()
    desk.qtbot.keyClicks(field(dialog, "Reason (asked of the floor)"), "higher stakes asked by both")
    desk.qtbot.mouseClick(dialog.ask_floor, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible() and desk.snapshot.phase is Phase.LIVE
    assert desk.window.requests_line.text() == (
        "Requests to the floor: #1 change the rules and stakes (higher stakes asked by both)"
        " — waiting for the floor"
    )
    assert desk.window.requests_line.isVisible()


def test_the_rules_fields_keep_a_table_own_preset_and_what_they_do_not_show(qtbot: QtBot) -> None:
    own_preset = {"name": "house", "scoring": "1-6"}
    current = TableRules(
        preset=own_preset, house_options={"foul_penalty": 3}, unit=3, settle_from="dealer", progressive=True
    )
    dialog = AttemptDialog("Change rules or stakes", "")
    qtbot.addWidget(dialog)
    fields = RulesFields(dialog, current, lambda _game: ["classic", "standard"])
    assert fields.preset.currentText() == str(TABLE_OWN_PRESET)
    assert (fields.unit.value(), fields.options[PROGRESSIVE].isChecked()) == (3, True)
    assert fields.rules() == current
    fields.preset.setCurrentText("classic")
    fields.settlement.setCurrentText("chip-exposure")
    assert fields.rules() == replace(current, preset="classic", settlement="chip-exposure")


def test_a_dialog_takes_typing_in_its_first_field_at_once(desk: Desk) -> None:
    settle_first_hand(desk, deal_next=False)
    desk.window.action(Dialog.VOID).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert isinstance(dialog, SupervisorDialog)
    number = dialog.fields_in_order()[0]  # what is done first, the supervisor who approves it last
    desk.qtbot.waitUntil(lambda: QApplication.focusWidget() is number)
    assert dialog.fields_in_order()[-2:] == [dialog.supervisor, dialog.pin]
    desk.qtbot.keyClicks(QApplication.focusWidget(), "1")
    assert number.accessibleName() == "Hand number" and "1" in number.text()  # type: ignore[attr-defined]
