"""Issue 26 at the desk, as a dealer presses it: seats that keep their numbers, the dealer on duty
on the status line and in the hand history, VOID at a Chinese table, a street typed again after
part of it was refused, the sit-in choice, a declined request, the Chinese prompt, and "1 hand
settled"."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

from ofc_desk.core.chinese.deal import CHINESE
from ofc_desk.core.rows import Row
from ofc_desk.desk.actions import Command, Dialog
from ofc_desk.desk.dialogs.attempt import AttemptDialog, SupervisorDialog
from ofc_desk.desk.dialogs.text import ChooseTableDialog
from ofc_desk.desk.records.models import HandHistoryModel
from ofc_desk.service import TableService, TableSetup
from ofc_desk.service.table.commands import CorrectChips, DecideRequest, Request
from ofc_desk.service.terms.setup import SeatSetup, TableRules
from ofc_desk.service.terms.snapshot import Phase
from ofc_desk.storage.account_changes import create_user
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, sign_in
from tests.desk.conftest import SUPERVISOR, Desk, street_keys
from tests.desk.test_chinese_table import BOB_SIX_PAIRS, CY_MISSET, open_chinese_table, show_hands
from tests.desk.test_entering_cards import ANN, BOB, enter_regular_streets
from tests.desk.test_fantasyland_and_supervisor import click_ok
from tests.desk.test_hand_over import hand_over
from tests.desk.test_menus_and_chips import choose, submit
from tests.desk.test_start_and_resume import field


def open_between_hands(desk: Desk, names: tuple[str, ...], button: str) -> None:
    setup = TableSetup("Seats", tuple(SeatSetup(name, 100) for name in names), button, TableRules())
    assert desk.session.open_new_table(setup) is None


def chip_dialog(desk: Desk, action: Dialog) -> AttemptDialog:
    desk.window.action(action).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert dialog is not None
    return dialog


def choices(dialog: AttemptDialog) -> list[str]:
    box = dialog.findChild(QComboBox)
    assert box is not None
    return [box.itemText(index) for index in range(box.count())]


def shown_seats(desk: Desk) -> list[tuple[int, str]]:
    faces = [widget.seat for widget in desk.window.felt.seat_widgets]
    return [(face.seat_number, face.name) for face in faces if face is not None]


def test_a_seat_keeps_its_number_after_a_cash_out_and_a_newcomer_takes_it_by_number(desk: Desk) -> None:
    open_between_hands(desk, ("Ann", "Bob", "Cy"), "Cy")
    cash_out = chip_dialog(desk, Dialog.CASH_OUT)
    choose(cash_out, "Bob")
    submit(desk)
    assert shown_seats(desk) == [(1, "Ann"), (2, ""), (3, "Cy")]
    empty = desk.window.felt.seat_widgets[1]
    assert empty.accessibleName() == "Seat 2: empty"
    desk.screenshot("26-empty-seat")

    desk.press_enter_on(desk.window.between_hands.deal_button)  # Ann and Cy: Ann acts first
    desk.type("3: ")
    assert desk.refusal() == "it is Ann's turn, not Cy's"  # seat 3 is still Cy's
    desk.window.entry.line.clear()
    desk.type("2: ")
    assert desk.refusal() == "seat 2 is empty: name a seat with a player (1 Ann, 3 Cy)"
    desk.window.entry.line.clear()
    desk.type("1: ")
    assert desk.refusal() == ""


def test_a_newcomer_is_offered_the_empty_seats_and_sits_at_the_one_chosen(desk: Desk) -> None:
    open_between_hands(desk, ("Ann", "Bob", "Cy"), "Cy")
    cash_out = chip_dialog(desk, Dialog.CASH_OUT)
    choose(cash_out, "Bob")
    submit(desk)
    join = chip_dialog(desk, Dialog.JOIN)
    assert choices(join) == ["Seat 2, between Ann and Cy", "Seat 4, between Cy and Ann"]
    desk.qtbot.keyClicks(field(join, "Player name"), "Dee")
    submit(desk)
    assert shown_seats(desk) == [(1, "Ann"), (2, "Dee"), (3, "Cy")]
    assert desk.window.between_hands.notice.text() == "Dee joined at seat 2 with 100 chips"


def test_the_dealer_on_duty_is_on_the_status_line_and_in_the_hand_history(
    desk: Desk, database: Database, qtbot: QtBot
) -> None:
    supervisor = sign_in(database, *SUPERVISOR, Role.SUPERVISOR)
    create_user(database, "Yan", Role.DEALER, "5678", approver=supervisor)
    desk.open_table(("Ann", "Bob"), button="Bob")
    assert "dealer Dana, button Bob" in desk.status
    hand_over(desk, "Yan", "5678")  # hand 1 is dealt: Dana dealt it, Yan deals on
    qtbot.waitUntil(lambda: "dealer Yan, button Bob" in desk.status)
    desk.screenshot("26-dealer-on-duty")
    desk.window.action(Command.HISTORY).trigger()
    qtbot.waitUntil(lambda: "Hand history" in desk.session.records.browsers)
    browser = desk.session.records.browsers["Hand history"]
    assert browser.model.rowCount() == 0  # hand 1 is not settled yet
    browser.close()
    enter_regular_streets(desk, ANN, BOB)
    desk.qtbot.mouseClick(desk.window.settlement.hold_button, Qt.MouseButton.LeftButton)
    desk.window.action(Command.HISTORY).trigger()
    qtbot.waitUntil(lambda: browser.model.rowCount() == 1)
    assert browser.proxy.index(0, HandHistoryModel.DEALERS).data() == "Dana, then Yan"


def test_a_voided_hand_at_a_chinese_table_shows_void(desk: Desk) -> None:
    open_chinese_table(desk)
    desk.type("s")
    desk.qtbot.keyClick(desk.window.entry.line, Qt.Key.Key_Return)  # Ann surrenders
    show_hands(desk, BOB_SIX_PAIRS, CY_MISSET)
    assert desk.snapshot.phase is Phase.AWAITING_SETTLEMENT
    desk.qtbot.mouseClick(desk.window.settlement.hold_button, Qt.MouseButton.LeftButton)
    desk.window.action(Dialog.VOID).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert isinstance(dialog, SupervisorDialog)
    desk.qtbot.keyClicks(dialog.supervisor, SUPERVISOR[0])
    desk.qtbot.keyClicks(dialog.pin, SUPERVISOR[1])
    desk.qtbot.keyClicks(field(dialog, "Reason"), "cards exposed")
    click_ok(desk, dialog)
    assert not dialog.isVisible(), dialog.refusal.text()
    assert desk.snapshot.variant == CHINESE and desk.snapshot.hand_voided
    for name in ("Ann", "Bob", "Cy"):
        face = desk.face(name)
        assert face.voided
    assert "Hand 1 VOID  ·  dealer Dana" in desk.status  # a Chinese table counts no cards
    desk.screenshot("26-chinese-void")


def test_a_street_typed_again_after_part_of_it_was_refused_says_the_cards_are_staged(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    desk.type("ks b kd b qs b")
    desk.window.entry.line.clear()  # the dealer starts the street again from its first card
    desk.type("ks b")
    assert desk.refusal().startswith("Ks is staged already, not yet confirmed")
    assert "Esc to take back all 3 cards staged" in desk.refusal()
    desk.qtbot.keyClick(desk.window.entry.line, Qt.Key.Key_Escape)
    assert desk.session.controller.staged == [] and desk.window.entry.line.text() == ""
    assert desk.refusal() == ""
    assert (
        desk.window.entry.notice.text() == "3 cards taken back, none of them recorded: type the street again"
    )
    desk.street(street_keys(ANN[2], "b"))
    assert desk.snapshot.seat("Ann").row(Row.BACK).cards and desk.refusal() == ""


def test_sit_in_offers_only_the_players_sitting_out(desk: Desk) -> None:
    open_between_hands(desk, ("Ann", "Bob", "Cy"), "Cy")
    sit_out = chip_dialog(desk, Dialog.SIT_OUT)
    assert choices(sit_out) == ["Ann", "Bob", "Cy"]
    choose(sit_out, "Bob")
    submit(desk)
    assert choices(chip_dialog(desk, Dialog.SIT_IN)) == ["Bob"]
    desk.session.chip_actions.active_dialog.reject()  # type: ignore[union-attr]
    assert choices(chip_dialog(desk, Dialog.SIT_OUT)) == ["Ann", "Cy"]


def test_a_declined_request_is_said_in_red_with_the_floors_note(desk: Desk, database: Database) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    service = desk.session.controller.service
    assert service is not None
    service.do(Request(CorrectChips("Ann", 5, "short"), "Ann short"))
    floor = TableService.resume(database, service.session_id, "floor")
    floor.do(
        DecideRequest(
            1, False, "counted again: the stack is right", supervisor=SUPERVISOR[0], pin=SUPERVISOR[1]
        )
    )
    desk.session.controller.floor_requests.on_tick()
    assert desk.refusal() == "Request #1 declined by Floor: counted again: the stack is right"
    assert desk.window.entry.notice.text() == ""


def test_the_chinese_prompt_names_the_seat_whose_hand_is_typed(desk: Desk) -> None:
    open_chinese_table(desk)
    assert desk.window.entry.prompt.text().startswith("▶ Ann:")
    desk.qtbot.mouseClick(desk.window.felt.seat_widget("Cy"), Qt.MouseButton.LeftButton)
    desk.type(street_keys(CY_MISSET[0], "f"))
    assert desk.window.entry.prompt.text().startswith("▶ Cy:")


def test_the_resume_list_says_one_hand_settled_in_the_singular(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    enter_regular_streets(desk, ANN, BOB)
    desk.qtbot.mouseClick(desk.window.settlement.hold_button, Qt.MouseButton.LeftButton)
    desk.window.action(Command.RESUME).trigger()
    chooser = desk.session.active_dialog
    assert isinstance(chooser, ChooseTableDialog)
    assert "Test table — 1 hand settled, last action" in chooser.tables.item(0).text()
    chooser.reject()
