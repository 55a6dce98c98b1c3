"""Between-hand chip work, display options, help, the report menu and accessible names."""

from __future__ import annotations

import sys
import types

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QDialogButtonBox,
    QLineEdit,
    QMenuBar,
    QWidget,
)
from pytestqt.qtbot import QtBot

from ofc_desk.desk.actions import Command, Dialog, Submenu
from ofc_desk.desk.dialogs.attempt import AttemptDialog, SupervisorDialog
from ofc_desk.desk.dialogs.chip_amount import ChipAmountEdit
from ofc_desk.desk.dialogs.text import TextDialog
from ofc_desk.i18n import Language
from ofc_desk.service.terms.snapshot import Phase
from tests.desk.conftest import SUPERVISOR, Desk
from tests.desk.test_entering_cards import ANN, BOB, enter_regular_streets
from tests.desk.test_start_and_resume import field
from tests.helpers.pdf_text import page_texts


def settled_and_held(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    enter_regular_streets(desk, ANN, BOB)
    desk.qtbot.mouseClick(desk.window.settlement.hold_button, Qt.MouseButton.LeftButton)


def choose(dialog: AttemptDialog, text: str) -> None:
    """Pick `text` in the dialog's list (the player it is for)."""
    box = dialog.findChild(QComboBox)
    assert box is not None
    box.setCurrentText(text)


def submit(desk: Desk) -> AttemptDialog:
    dialog = desk.session.chip_actions.active_dialog
    assert dialog is not None
    desk.qtbot.mouseClick(
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton
    )
    return dialog


def unnamed_interactive_widgets(root: QWidget) -> list[str]:
    interactive = (QAbstractButton, QLineEdit, QComboBox, QAbstractSpinBox, QAbstractItemView)
    missing = []
    for widget in root.findChildren(QWidget):
        if not isinstance(widget, interactive) or _inside_qt_composite(widget):
            continue
        if not widget.accessibleName():
            missing.append(f"{type(widget).__name__} in {type(widget.parent()).__name__}")
    return missing


def _inside_qt_composite(widget: QWidget) -> bool:
    """Parts Qt builds itself (a spin box's editor, a combo's popup, the menu bar's overflow arrow)
    are named through their owner."""
    parent = widget.parent()
    while parent is not None:
        if isinstance(parent, QAbstractSpinBox | QComboBox | QMenuBar):
            return True
        parent = parent.parent()
    return False


def test_enter_on_a_focused_button_presses_that_button(desk: Desk) -> None:
    """A dealer who tabbed to a button and pressed Enter means that button, not the panel's deal."""
    desk.open_table(("Ann", "Bob"), button="Bob")
    enter_regular_streets(desk, ANN, BOB)
    hold = desk.window.settlement.hold_button
    hold.setFocus()
    desk.qtbot.keyClick(hold, Qt.Key.Key_Return)
    assert (desk.snapshot.hand_number, desk.snapshot.phase) == (1, Phase.SETTLED)  # confirmed, not dealt
    rebuy = desk.window.between_hands.buttons[Dialog.REBUY]
    rebuy.setFocus()
    desk.qtbot.keyClick(rebuy, Qt.Key.Key_Return)
    assert desk.session.chip_actions.active_dialog is not None and desk.snapshot.hand_number == 1
    desk.session.chip_actions.active_dialog.reject()
    desk.window.between_hands.deal_button.setFocus()
    desk.press_enter_on(desk.window.between_hands.deal_button)
    assert desk.snapshot.hand_number == 2


def test_chip_operations_between_hands(desk: Desk) -> None:
    settled_and_held(desk)
    ann_stack = desk.snapshot.seat("Ann").stack
    desk.qtbot.mouseClick(desk.window.between_hands.buttons[Dialog.REBUY], Qt.MouseButton.LeftButton)
    dialog = desk.session.chip_actions.active_dialog
    assert dialog is not None
    choose(dialog, "Ann")
    submit(desk)
    assert desk.snapshot.seat("Ann").stack == ann_stack + 100
    desk.window.action(Dialog.JOIN).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert dialog is not None
    desk.qtbot.keyClicks(field(dialog, "Player name"), "Cy")
    submit(desk)
    assert [seat.name for seat in desk.snapshot.seats] == ["Ann", "Bob", "Cy"]
    assert len(desk.window.felt.seat_widgets) == 3
    desk.window.action(Dialog.SIT_OUT).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert dialog is not None
    choose(dialog, "Cy")
    submit(desk)
    assert desk.face("Cy").sitting_out
    desk.press_enter_on(desk.window.between_hands.deal_button)
    assert desk.snapshot.hand_number == 2


def test_a_refused_chip_operation_stays_in_its_dialog(desk: Desk) -> None:
    settled_and_held(desk)
    desk.window.action(Dialog.JOIN).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert dialog is not None
    desk.qtbot.keyClicks(field(dialog, "Player name"), "Ann")
    submit(desk)
    assert dialog.isVisible() and "Ann" in dialog.refusal.text()  # Ann is seated already


def test_zoom_colours_and_theme(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    seat = desk.window.felt.seat_widgets[0]
    width, letters = seat.natural_size().width(), desk.window.entry.line.font().pixelSize()
    desk.window.action(Command.ZOOM_IN).trigger()
    # Bigger cards where the window has room for them (the felt fits the seats to it), bigger text.
    assert seat.natural_size().width() > width
    assert desk.window.entry.line.font().pixelSize() > letters
    assert desk.session.store.load().zoom_percent > 100
    four_colour = desk.session.options.four_colour
    desk.window.action(Command.FOUR_COLOUR).trigger()
    assert desk.session.options.four_colour is not four_colour
    desk.window.action(Command.DARK).trigger()
    assert desk.session.options.theme.value == "light"
    desk.screenshot("06-light-theme-zoomed")


def test_help_menu_and_settings(desk: Desk) -> None:
    desk.window.action(Command.KEYBOARD).trigger()
    dialog = desk.session.active_dialog
    assert isinstance(dialog, TextDialog)
    assert "Ctrl+Z" in dialog.browser.toPlainText()
    dialog.reject()
    desk.window.action(Command.ABOUT).trigger()
    about = desk.session.active_dialog
    assert about is not None
    text = about.browser.toPlainText()  # type: ignore[attr-defined]
    assert "MIT" in text and desk.session.database is not None and desk.session.database.url in text
    about.reject()
    desk.window.action(Command.SETTINGS).trigger()
    settings = desk.session.active_dialog
    assert settings is not None
    assert settings.presets.count() >= 3  # type: ignore[attr-defined]
    assert '"' in settings.preset_text.toPlainText()  # type: ignore[attr-defined]
    assert unnamed_interactive_widgets(settings) == []
    settings.reject()


def test_every_interactive_widget_has_an_accessible_name(desk: Desk) -> None:
    settled_and_held(desk)
    assert unnamed_interactive_widgets(desk.window) == []
    for action in (
        desk.window.action(Dialog.JOIN),
        desk.window.action(Dialog.VOID),
        desk.window.action(Dialog.CORRECT),
    ):
        action.trigger()
        dialog = desk.session.chip_actions.active_dialog
        assert dialog is not None
        assert unnamed_interactive_widgets(dialog) == []
        dialog.reject()
    desk.window.action(Command.NEW_TABLE).trigger()
    new_table = desk.session.active_dialog
    assert new_table is not None and unnamed_interactive_widgets(new_table) == []
    new_table.reject()


def test_file_session_report_hands_over_the_database_and_session(
    desk: Desk, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[object, str | None, int | None, Language | None, str]] = []
    fake = types.ModuleType("ofc_desk.desk.records.report_actions")
    fake.open_session_report = lambda parent, url, session_id, refuse, language=None, table="": calls.append(  # type: ignore[attr-defined]
        (parent, url, session_id, language, table)
    )
    monkeypatch.setitem(sys.modules, "ofc_desk.desk.records.report_actions", fake)
    desk.open_table(("Ann", "Bob"), button="Bob")
    desk.window.action(Command.REPORT).trigger()
    chinese = [a for a in desk.window.submenus[Submenu.REPORT_LANGUAGE].actions() if a.text() == "简体中文"]
    chinese[0].trigger()  # File → Session report in → 简体中文: printed in Chinese by an English desk
    service = desk.session.controller.service
    assert service is not None and desk.session.database is not None
    url = desk.session.database.url
    table = desk.snapshot.table  # the file's proposed name says it
    assert calls == [
        (desk.window, url, service.session_id, None, table),
        (desk.window, url, service.session_id, Language.ZH_CN, table),
    ]


def test_report_preview_screenshot(desk: Desk, qtbot: QtBot) -> None:
    from ofc_desk.desk.records.report_actions import ReportPreview

    settled_and_held(desk)
    desk.window.action(Command.REPORT).trigger()

    def preview() -> QWidget | None:
        found = desk.window.findChildren(ReportPreview)
        return found[0] if found else None

    qtbot.waitUntil(lambda: preview() is not None and preview().isVisible(), timeout=20_000)  # type: ignore[union-attr]
    shown = preview()
    assert shown is not None
    desk.screenshot("05-report-preview", shown)
    shown.close()


def test_verify_runs_in_the_background_and_reports(desk: Desk, qtbot: QtBot) -> None:
    settled_and_held(desk)
    desk.window.action(Command.VERIFY).trigger()
    qtbot.waitUntil(lambda: isinstance(desk.session.active_dialog, TextDialog), timeout=20_000)
    dialog = desk.session.active_dialog
    assert isinstance(dialog, TextDialog)
    assert "hash chains intact" in dialog.browser.toPlainText()
    dialog.reject()


def test_table_close_report_takes_the_counted_chips(desk: Desk, qtbot: QtBot) -> None:
    from ofc_desk.desk.records.report_actions import ReportPreview

    settled_and_held(desk)
    desk.window.action(Command.CLOSE_REPORT).trigger()
    dialog = desk.session.active_dialog
    assert isinstance(dialog, AttemptDialog)
    counted = dialog.findChild(ChipAmountEdit)
    assert counted is not None and counted.accessibleName() == "Chips counted on the table"
    counted.selectAll()
    qtbot.keyClicks(counted, "195")
    assert isinstance(dialog, SupervisorDialog)  # the count is the supervisor's, signed with a PIN
    qtbot.keyClicks(dialog.supervisor, SUPERVISOR[0])
    qtbot.keyClicks(dialog.pin, "00000000")
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and "PIN" in dialog.refusal.text()  # a wrong PIN builds nothing
    dialog.pin.clear()
    qtbot.keyClicks(dialog.pin, SUPERVISOR[1])
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)

    def preview() -> ReportPreview | None:
        found = desk.window.findChildren(ReportPreview)
        return found[0] if found else None

    qtbot.waitUntil(lambda: preview() is not None and preview().isVisible(), timeout=20_000)  # type: ignore[union-attr]
    shown = preview()
    assert shown is not None and shown.windowTitle() == "Table close"
    page = " ".join(page_texts(shown.pdf)[0].split())
    # Two players bought in for 100 each; 195 counted leaves the table 5 chips short.
    assert f"Counted chips (entered by {SUPERVISOR[0]}) 195" in page
    assert f"Floor supervisor {SUPERVISOR[0]}" in page
    assert "SHORT by 5 chips" in page
    shown.close()


def test_the_desk_carries_its_icon_and_desktop_file_name(desk: Desk) -> None:
    from PySide6.QtWidgets import QApplication

    from ofc_desk.desk.shell.application import application

    assert application() is QApplication.instance()
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    assert app.desktopFileName() == "ofc-desk"
    assert not app.windowIcon().isNull()
