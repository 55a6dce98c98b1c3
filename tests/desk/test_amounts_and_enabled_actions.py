"""Amounts up to the core's chip limit, the core's own variants and policies, and the actions the
service would refuse greyed out (its `can_x`), with the reason on screen."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from ofc_desk.core.chinese.deal import CHINESE
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.settlement import MAX_CHIPS, SettlementPolicy
from ofc_desk.desk.actions import Command, Dialog
from ofc_desk.desk.dialogs.attempt import SupervisorDialog
from ofc_desk.desk.dialogs.new_table import NewTableDialog
from ofc_desk.service.table.commands import CorrectChips, Rebuy, StartHand
from tests.desk.conftest import SUPERVISOR, Desk, street_keys
from tests.desk.test_entering_cards import ANN
from tests.desk.test_fantasyland_and_supervisor import click_ok, settle_first_hand
from tests.desk.test_start_and_resume import field


def new_table_dialog(desk: Desk) -> NewTableDialog:
    desk.window.action(Command.NEW_TABLE).trigger()
    dialog = desk.session.active_dialog
    assert isinstance(dialog, NewTableDialog)
    return dialog


def retype(desk: Desk, line: QLineEdit, text: str) -> None:
    line.selectAll()
    desk.qtbot.keyClick(line, Qt.Key.Key_Delete)
    desk.qtbot.keyClicks(line, text)


def test_a_buy_in_of_a_million_million_chips_is_entered_and_kept(desk: Desk) -> None:
    dialog = new_table_dialog(desk)
    desk.qtbot.keyClicks(field(dialog, "Seat 1 player"), "Ann")
    desk.qtbot.keyClicks(field(dialog, "Seat 2 player"), "Bob")
    buy_in = field(dialog, "Seat 1 buy-in")
    retype(desk, buy_in, "1,000,000,000,001")
    click_ok(desk, dialog)
    assert dialog.isVisible() and dialog.refusal.text() == "Seat 1 buy-in: at most 1,000,000,000,000 chips"
    assert desk.session.controller.service is None  # nothing was opened
    retype(desk, buy_in, "12abc")
    assert buy_in.text() == "12"  # letters are not taken at all
    retype(desk, buy_in, "1,000,000,000,000")
    click_ok(desk, dialog)
    assert not dialog.isVisible()
    assert desk.snapshot.seat("Ann").stack == MAX_CHIPS == 1_000_000_000_000
    assert desk.snapshot.seat("Bob").stack == 100


def test_a_correction_beyond_any_spin_box_reaches_the_service(desk: Desk) -> None:
    settle_first_hand(desk, deal_next=False)
    ann = desk.snapshot.seat("Ann").stack
    desk.window.action(Dialog.CORRECT).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert isinstance(dialog, SupervisorDialog)
    retype(desk, field(dialog, "Chips (+/−)"), "5,000,000,000")  # past a spin box's 2,147,483,647
    desk.qtbot.keyClicks(field(dialog, "Reason"), "chips brought to the table")
    desk.qtbot.keyClicks(dialog.supervisor, SUPERVISOR[0])
    desk.qtbot.keyClicks(dialog.pin, SUPERVISOR[1])
    click_ok(desk, dialog)
    assert not dialog.isVisible()
    assert desk.snapshot.seat("Ann").stack == ann + 5_000_000_000


def test_the_rules_choices_are_the_cores(desk: Desk) -> None:
    dialog = new_table_dialog(desk)
    variants = [dialog.rules.variant.itemData(i) for i in range(dialog.rules.variant.count())]
    policies = [dialog.rules.settlement.itemText(i) for i in range(dialog.rules.settlement.count())]
    assert variants == [*(variant.value for variant in Variant), CHINESE]
    assert policies == [policy.value for policy in SettlementPolicy]
    dialog.reject()


def test_a_deal_the_service_would_refuse_is_greyed_out_and_says_why(desk: Desk) -> None:
    settle_first_hand(desk, deal_next=False)
    service = desk.session.controller.service
    assert service is not None and desk.window.between_hands.deal_button.isEnabled()
    bob = desk.snapshot.seat("Bob").stack
    service.do(
        CorrectChips("Bob", -bob, "chips taken off the table", supervisor=SUPERVISOR[0], pin=SUPERVISOR[1])
    )
    desk.session.controller.refresh()
    assert not service.can(StartHand())
    assert not desk.window.between_hands.deal_button.isEnabled()
    assert not desk.window.action(Command.DEAL).isEnabled()
    message = desk.window.between_hands.message.text()
    assert "cannot be dealt yet" in message and "Bob" in message
    service.do(Rebuy("Bob", 100))
    desk.session.controller.refresh()
    assert desk.window.action(Command.DEAL).isEnabled() and desk.window.between_hands.deal_button.isEnabled()


def test_undo_is_offered_once_there_is_something_to_undo(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    assert not desk.window.action(Command.UNDO).isEnabled()  # nothing entered yet this hand
    desk.type("ks")
    desk.type("b")
    assert desk.session.controller.staged and desk.window.action(Command.UNDO).isEnabled()  # the staged card
    desk.window.action(Command.UNDO).trigger()
    assert not desk.session.controller.staged and not desk.window.action(Command.UNDO).isEnabled()
    desk.street(street_keys(ANN[2], "b"))
    assert desk.window.action(Command.UNDO).isEnabled()  # Ann's confirmed street, through the service
    desk.window.action(Command.UNDO).trigger()
    assert desk.snapshot.to_act is not None and desk.snapshot.to_act.player == "Ann"
    assert not desk.window.action(Command.UNDO).isEnabled()
