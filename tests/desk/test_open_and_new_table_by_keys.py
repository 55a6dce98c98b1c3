"""Open a table (Ctrl+O) and New table (Ctrl+N) by keys (issue 36): the keys are in the list of
tables with the first chosen, never the table at this desk (Ctrl+O, Enter re-resumed it and the
next Enter dealt a stray hand), every row whole without a sideways scroll bar; in New table the
Button field's Enter opens the table as every field's does, every preset's name fits its box and
the preset's description shows whole, wrapped."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QComboBox, QStyle, QStyleOptionComboBox

from ofc_desk.desk.dialogs.new_table import NewTableDialog
from ofc_desk.desk.dialogs.text import ChooseTableDialog
from ofc_desk.desk.shell.language import install_language
from ofc_desk.i18n import Language
from ofc_desk.service import TableSetup
from ofc_desk.service.terms.setup import SeatSetup, TableRules
from tests.desk.conftest import Desk
from tests.desk.test_keyboard_walk import (
    dialog_up,
    done,
    focus,
    new_table_dialog_by_keys,
    press,
    tab_to,
    type_in,
)
from tests.desk.test_screen_matrix import SCREENS

LONG_NAME = "Table 7 — high stakes, Chinese poker 4p"


def open_another(desk: Desk, name: str) -> None:
    """A table opened at another desk on the same database (the service, not this window)."""
    from ofc_desk.service import open_table

    database, account = desk.session.database, desk.session.account
    assert database is not None and account is not None
    setup = TableSetup(name, (SeatSetup("Ann", 100), SeatSetup("Bob", 100)), "Bob", TableRules())
    open_table(database, setup, account)


def open_a_table_dialog(desk: Desk) -> ChooseTableDialog:
    desk.window.activateWindow()
    desk.qtbot.waitUntil(lambda: QApplication.activeWindow() is desk.window)
    press(desk.qtbot, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    dialog = dialog_up(desk.qtbot, ChooseTableDialog)
    assert isinstance(dialog, ChooseTableDialog)
    return dialog


def test_ctrl_o_enter_never_resumes_the_table_at_this_desk(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")  # "Test table", at this desk, dealt
    dialog = open_a_table_dialog(desk)
    assert dialog.tables.currentRow() == -1, "nothing else is open: none chosen"
    assert focus().accessibleName() == "New table"
    press(desk.qtbot, Qt.Key.Key_Return)  # a new table, never this one again
    new_table = dialog_up(desk.qtbot, NewTableDialog)
    press(desk.qtbot, Qt.Key.Key_Escape)
    done(desk, new_table)

    open_another(desk, LONG_NAME)
    dialog = open_a_table_dialog(desk)
    rows = [dialog.tables.item(row).text() for row in range(dialog.tables.count())]
    assert rows[0].startswith(LONG_NAME) and rows[-1].startswith("Test table"), rows
    assert focus() is dialog.tables and dialog.tables.currentRow() == 0
    press(desk.qtbot, Qt.Key.Key_Return)
    done(desk, dialog)
    desk.qtbot.waitUntil(lambda: desk.snapshot.table == LONG_NAME, timeout=15_000)


def test_every_row_of_open_a_table_shows_whole_on_the_smallest_screen(desk: Desk) -> None:
    for number in range(3):
        open_another(desk, f"{LONG_NAME[:-2]}{number}")
    dialog = open_a_table_dialog(desk)
    screen = SCREENS["1366x768"]
    assert dialog.width() <= screen.width()
    view = dialog.tables
    assert not view.horizontalScrollBar().isVisible()
    for row in range(view.count()):
        shown, text = view.visualItemRect(view.item(row)), view.item(row).text()
        assert shown.right() <= view.viewport().width(), text
        wrapped = view.fontMetrics().boundingRect(
            QRect(0, 0, shown.width(), 10_000), int(Qt.TextFlag.TextWordWrap), text
        )
        assert wrapped.height() <= shown.height(), text  # wrapped on the test's small screen


def test_at_the_first_start_enter_opens_a_new_table_without_an_empty_list(desk: Desk) -> None:
    dialog = open_a_table_dialog(desk)
    assert not dialog.tables.isVisible()
    press(desk.qtbot, Qt.Key.Key_Return)
    dialog_up(desk.qtbot, NewTableDialog)


def test_enter_in_the_button_field_opens_the_table(desk: Desk) -> None:
    desk.window.activateWindow()
    desk.qtbot.waitUntil(lambda: QApplication.activeWindow() is desk.window)
    dialog = new_table_dialog_by_keys(desk)
    type_in(desk.qtbot, "Buttoned")
    for seat, name in (("Seat 1 player", "Ann"), ("Seat 2 player", "Bob")):
        tab_to(desk.qtbot, seat)
        type_in(desk.qtbot, name)
    tab_to(desk.qtbot, "Button (dealer)")
    type_in(desk.qtbot, "Ann")
    press(desk.qtbot, Qt.Key.Key_Return)  # the first Enter, here as in any other field
    done(desk, dialog)
    assert (desk.snapshot.table, desk.snapshot.button) == ("Buttoned", "Ann")


def edit_field(box: QComboBox) -> QRect:
    option = QStyleOptionComboBox()
    box.initStyleOption(option)
    style = box.style()
    return style.subControlRect(
        QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, box
    )


def test_every_preset_name_fits_and_its_description_shows_whole(desk: Desk) -> None:
    dialog = NewTableDialog(desk.window)
    desk.qtbot.addWidget(dialog)
    dialog.show()
    rules, problems = dialog.rules, []
    for game in range(rules.variant.count()):
        rules.variant.setCurrentIndex(game)
        for preset in range(rules.preset.count()):
            rules.preset.setCurrentIndex(preset)
            QApplication.processEvents()
            name = rules.preset.currentText()
            if rules.preset.fontMetrics().horizontalAdvance(name) > edit_field(rules.preset).width():
                problems.append(f"the preset {name!r} is cut in its box")
            pays = rules.pays
            if pays.heightForWidth(pays.width()) > pays.height():
                problems.append(f"{name}'s description is cut: {pays.text()!r}")
    assert not problems, "\n".join(problems)


def test_a_long_description_wraps_and_the_dialog_grows_for_it(desk: Desk) -> None:
    """Whatever a preset's description says (a jackpot's hands say more), all of it shows."""
    dialog = NewTableDialog(desk.window)
    desk.qtbot.addWidget(dialog)
    dialog.show()
    QApplication.processEvents()
    before = dialog.height()
    long_text = " ".join(["a jackpot award: a straight flush or better in the back wins 10% of the pool"] * 3)
    dialog.rules.pays.setText(long_text)
    dialog.fit_height()
    QApplication.processEvents()
    pays = dialog.rules.pays
    assert pays.wordWrap() and pays.heightForWidth(pays.width()) <= pays.height()
    assert dialog.height() > before


@pytest.mark.usefixtures("english_after")
@pytest.mark.parametrize("language", list(Language), ids=[language.value for language in Language])
def test_every_game_and_preset_fits_its_box_in_every_language(desk: Desk, language: Language) -> None:
    """ "Mậu Binh" was cut in the game list: every choice of the game and preset boxes shows whole."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    install_language(app, language)
    dialog = NewTableDialog(desk.window)
    desk.qtbot.addWidget(dialog)
    dialog.show()
    rules, problems = dialog.rules, []
    for game in range(rules.variant.count()):
        rules.variant.setCurrentIndex(game)
        QApplication.processEvents()
        for box in (rules.variant, rules.preset):
            text = box.currentText()
            if box.fontMetrics().horizontalAdvance(text) > edit_field(box).width():
                problems.append(f"{text!r} is cut in its box")
    assert not problems, "\n".join(problems)


def test_the_preset_list_opens_no_wider_than_the_screen(desk: Desk) -> None:
    """Each preset's line ends in "…" at the screen's edge; the chosen one shows whole below."""
    dialog = NewTableDialog(desk.window)
    desk.qtbot.addWidget(dialog)
    rules = dialog.rules
    screen = rules.preset.screen().availableGeometry().width()
    for game in range(rules.variant.count()):
        rules.variant.setCurrentIndex(game)
        assert rules.preset.view().minimumWidth() <= screen, rules.variant.currentText()
