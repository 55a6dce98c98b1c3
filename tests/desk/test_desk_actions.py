"""The desk's action table (`desk/actions.py`) is what the desk shows and does: its menus entry by
entry, the between-hands buttons, what is offered at each point of a table (the service's
`can_x`), the dialogs built from their descriptions, and a handler for every command."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLineEdit, QMenu

from ofc_desk.desk.action_parts import FieldKind, Handler, Menu, StandardShortcut, TableNow
from ofc_desk.desk.actions import DESK_ACTIONS, Command, DeskAction, Dialog, Submenu
from ofc_desk.desk.dialogs.attempt import SupervisorDialog
from ofc_desk.desk.shell.menus import connect_commands, handlers_of
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.table.commands import CashOut, CloseSession, Rebuy, SitIn, SitOut, StartHand, newcomer
from tests.desk.conftest import SUPERVISOR, Desk
from tests.desk.test_a_shift_at_the_keyboard import ANN_PLAIN
from tests.desk.test_entering_cards import ANN, BOB, enter_regular_streets


def test_the_table_loads_neither_qt_nor_the_service_and_the_staging_no_qt() -> None:
    """The menus are built as the window completes, before the service is needed: the action table
    must not pull in Qt, the service or SQLAlchemy; the staging model is Qt-free."""
    check = textwrap.dedent(
        """
        import sys
        import ofc_desk.desk.actions
        loaded = [m for m in sys.modules if m.split(".")[0] in ("PySide6", "sqlalchemy")]
        loaded += [m for m in sys.modules if m.startswith("ofc_desk.service")]
        assert not loaded, loaded
        import ofc_desk.desk.entry.staging
        assert not [m for m in sys.modules if m.startswith("PySide6")]
        """
    )
    subprocess.run([sys.executable, "-c", check], check=True, timeout=60)


def test_each_key_has_one_row_and_every_dialog_action_its_dialog() -> None:
    keys = [action.key for action in DESK_ACTIONS]
    assert len(keys) == len(set(keys))
    assert {key for key in keys if isinstance(key, Command)} == set(Command)
    assert {key for key in keys if isinstance(key, Dialog)} == set(Dialog)
    assert {key for key in keys if isinstance(key, Submenu)} == set(Submenu)
    with pytest.raises(ValueError, match="described by its dialog"):
        DeskAction(Dialog.REBUY, Menu.TABLE, DESK_ACTIONS[0].text)
    for action in DESK_ACTIONS:
        ask = action.dialog.ask_the_floor if action.dialog else None
        if ask is not None:
            assert action.dialog is not None and action.dialog.supervised
            assert ask.reason in {field.key for field in action.dialog.fields}


def entries(menu: QMenu) -> list[tuple[str, str, bool, bool]]:
    """Each entry: its text, its shortcuts, whether a separator comes before it, checkable."""
    shown, separated = [], False
    for action in menu.actions():
        if action.isSeparator():
            separated = True
            continue
        keys = ", ".join(sequence.toString() for sequence in action.shortcuts())
        shown.append((action.text(), keys, separated, action.isCheckable()))
        separated = False
    return shown


def described(action: DeskAction) -> tuple[str, str, bool, bool]:
    keys = []
    for shortcut in action.shortcuts:
        standard = isinstance(shortcut, StandardShortcut)
        sequence = QKeySequence(QKeySequence.StandardKey[shortcut] if standard else shortcut)
        keys.append(sequence.toString())
    return (str(action.caption()), ", ".join(keys), action.separator_before, action.checkable)


def test_the_menus_are_the_table_entry_by_entry(desk: Desk) -> None:
    window = desk.window
    assert [top.text() for top in window.menuBar().actions()] == [str(menu.label) for menu in Menu]
    for menu in Menu:
        wanted = [described(action) for action in DESK_ACTIONS if action.menu is menu]
        if menu is Menu.SETTINGS:  # Settings → Language, shared with the floor, comes last
            wanted.append(("&Language", "", False, False))
        assert entries(window.menus[menu]) == wanted, menu
    for action in DESK_ACTIONS:
        if isinstance(action.key, Submenu):
            assert window.submenus[action.key].title() == str(action.caption())
        else:
            assert window.action(action.key).text() == str(action.caption())
    assert window.action(Command.PICKER).isChecked()  # the card picker shows from the start


def test_the_between_hands_buttons_are_exactly_the_actions_with_one(desk: Desk) -> None:
    panel = desk.window.between_hands
    with_button = [action for action in DESK_ACTIONS if action.button is not None]
    assert list(panel.buttons) == [action.key for action in with_button]
    row = panel.deal_button.parentWidget()
    assert row is panel
    shown = [(button.text(), button.accessibleName()) for button in panel.buttons.values()]
    assert shown == [(str(a.button.caption), str(a.button.name)) for a in with_button if a.button]
    assert panel.deal_button is panel.buttons[Command.DEAL]


def test_a_command_without_a_handler_or_with_two_is_a_mistake_said_at_once(desk: Desk) -> None:
    assert set(desk.session.commands) == set(Command)
    actions = desk.window.menu_actions
    partial: dict[Command, Handler] = {
        command: handler for command, handler in desk.session.commands.items() if command != Command.VERIFY
    }
    with pytest.raises(LookupError, match="commands without a handler: verify"):
        connect_commands(actions, partial)
    with pytest.raises(ValueError, match="commands with two handlers: quit"):
        handlers_of({Command.QUIT: desk.window.close}, {Command.QUIT: desk.window.close})


CAN: dict[Dialog, Callable[[TableService, str], bool]] = {
    Dialog.REBUY: lambda service, player: service.can(Rebuy(player, 1)),
    Dialog.CASH_OUT: lambda service, player: service.can(CashOut(player)),
    Dialog.SIT_OUT: lambda service, player: service.can(SitOut(player)),
    Dialog.SIT_IN: lambda service, player: service.can(SitIn(player)),
}


def offers_agree(desk: Desk, state: str) -> dict[str, bool]:
    """Every entry the table offers or not, as the window shows it, is its row's `enabled`; the chip
    operations' are their `can_x` for some seated player, the button's the entry's."""
    controller = desk.session.controller
    service, snapshot = controller.service, controller.snapshot
    now = TableNow(service, snapshot, bool(controller.staged))
    offered = {}
    for action in DESK_ACTIONS:
        if action.enabled is None:
            continue
        shown = desk.window.action(action.key).isEnabled()
        assert shown == action.enabled(now), (state, action.key)
        button = desk.window.between_hands.buttons.get(action.key)
        assert button is None or button.isEnabled() == shown, (state, action.key)
        offered[action.key.value] = shown
    players = [seat.name for seat in snapshot.seats] if snapshot else []
    for key, can in CAN.items():
        expected = service is not None and any(can(service, player) for player in players)
        assert offered[key.value] == expected, (state, key)
    assert offered[Dialog.JOIN.value] == (
        service is not None and service.can(newcomer([seat.name for seat in service.machine.seats]))
    ), state
    assert offered[Command.DEAL.value] == (service is not None and service.can(StartHand())), state
    return offered


def test_what_is_offered_is_what_the_service_would_take(desk: Desk) -> None:
    assert not any(offers_agree(desk, "no table").values())
    desk.open_table(("Ann", "Bob"), button="Bob")
    dealt = offers_agree(desk, "a hand dealt")
    assert dealt["hand_over"] and dealt["void"] is False and not dealt["rebuy"]
    desk.type("ks b")
    assert offers_agree(desk, "a card staged")["undo"]
    desk.session.controller.on_clear_staged()
    enter_regular_streets(desk, ANN_PLAIN, BOB)  # nobody goes to Fantasyland: Bob may sit out
    desk.qtbot.mouseClick(desk.window.settlement.hold_button, Qt.MouseButton.LeftButton)
    between = offers_agree(desk, "between hands")
    assert between["deal"] and between["rebuy"] and between["void"] and not between["sit_in"]
    service = desk.session.controller.service
    assert service is not None
    desk.session.controller.show_snapshot(service.do(SitOut("Bob")))
    assert offers_agree(desk, "Bob sitting out")["sit_in"]
    desk.session.controller.show_snapshot(
        service.do(CloseSession(supervisor=SUPERVISOR[0], pin=SUPERVISOR[1]))
    )
    assert not any(offers_agree(desk, "closed").values())


def test_each_dialog_is_built_from_its_description(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    enter_regular_streets(desk, ANN, BOB)
    desk.qtbot.mouseClick(desk.window.settlement.hold_button, Qt.MouseButton.LeftButton)
    for action in DESK_ACTIONS:
        form = action.dialog
        if form is None:
            continue
        desk.session.chip_actions.open(form)  # what its entry opens, offered or not (Sit in is not)
        dialog = desk.session.chip_actions.active_dialog
        assert dialog is not None and dialog.windowTitle() == str(form.title), action.key
        dialog.show()
        names = [field.accessibleName() for field in dialog.fields_in_order()]
        labels = [str(field.label) for field in form.fields if field.kind is not FieldKind.RULES]
        assert [name for name in names if name in labels] == labels, action.key
        assert isinstance(dialog, SupervisorDialog) is form.supervised, action.key
        if isinstance(dialog, SupervisorDialog):
            assert names[-2:] == ["Supervisor", "Supervisor PIN"], action.key  # asked last
            assert (dialog.ask_floor is not None) is (form.ask_the_floor is not None), action.key
        dialog.reject()


def test_a_correction_asked_of_the_floor_mid_hand_goes_as_a_request(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    desk.window.action(Dialog.CORRECT).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert isinstance(dialog, SupervisorDialog) and dialog.ask_floor is not None
    fields = {line.accessibleName(): line for line in dialog.findChildren(QLineEdit)}
    fields["Chips (+/−)"].selectAll()
    desk.qtbot.keyClicks(fields["Chips (+/−)"], "-7")
    desk.qtbot.keyClicks(fields["Reason"], "chips fell off")
    desk.qtbot.mouseClick(dialog.ask_floor, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    requests = desk.snapshot.open_requests
    assert len(requests) == 1 and "chips fell off" in requests[0].line and "Ann" in requests[0].line


def test_a_button_does_what_its_menu_entry_does(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    enter_regular_streets(desk, ANN, BOB)
    desk.qtbot.mouseClick(desk.window.settlement.hold_button, Qt.MouseButton.LeftButton)
    chosen: list[str] = []
    entry: QAction = desk.window.action(Dialog.SIT_OUT)
    entry.triggered.connect(lambda: chosen.append("sit out"))
    desk.qtbot.mouseClick(desk.window.between_hands.buttons[Dialog.SIT_OUT], Qt.MouseButton.LeftButton)
    dialog = desk.session.chip_actions.active_dialog
    assert chosen == ["sit out"] and dialog is not None and dialog.windowTitle() == "Sit out"
    dialog.reject()
