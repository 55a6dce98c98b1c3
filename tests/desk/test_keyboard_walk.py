"""The keyboard walk (issue 26): every menu entry has a key of its own (a mnemonic or a shortcut,
none shared within a menu, no shortcut twice), looks disabled when it cannot be used and refuses
nothing silently when it can; every dialog a menu opens is done from its first field with typing,
Tab and Enter alone, and does what the mouse does; reports are saved and printed by keyboard; the
floor's rows, its decision and its shift report too.

Menus are opened as a dealer opens them: Alt and the menu's letter, then the entry's letter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor, QImage, QKeySequence
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QDialog,
    QFileDialog,
    QLineEdit,
    QMainWindow,
    QMenu,
    QPushButton,
    QToolButton,
    QWidget,
)
from pytestqt.qtbot import QtBot

from ofc_desk.core.chinese.deal import CHINESE
from ofc_desk.desk.actions import DESK_ACTIONS, ActionKey, Command, Dialog
from ofc_desk.desk.dialogs.accounts import AccountDialog
from ofc_desk.desk.dialogs.attempt import AttemptDialog, SupervisorDialog
from ofc_desk.desk.dialogs.new_table import NewTableDialog, RulesFields
from ofc_desk.desk.dialogs.settings import SettingsDialog
from ofc_desk.desk.dialogs.text import ChooseTableDialog, TextDialog
from ofc_desk.desk.floor.controller import FloorController
from ofc_desk.desk.games.ofc import PROGRESSIVE
from ofc_desk.desk.records.browser import RecordBrowser
from ofc_desk.desk.records.report_actions import ReportPreview
from ofc_desk.desk.shell.theme import PALETTES, DisplayOptions, ThemeName, application_stylesheet
from ofc_desk.service.table.commands import CloseSession, CorrectChips, Request
from ofc_desk.service.terms.setup import TableRules
from ofc_desk.service.terms.snapshot import Phase
from ofc_desk.storage.existing_room import open_existing
from ofc_desk.storage.users import Role, list_users
from tests.desk.conftest import SUPERVISOR, Desk, street_keys
from tests.desk.test_a_shift_at_the_keyboard import contrast, mnemonic
from tests.desk.test_entering_cards import ANN, BOB, enter_regular_streets, play_regular_streets
from tests.desk.test_fantasyland_and_supervisor import ANN_FANTASYLAND, BOB_SECOND
from tests.helpers.pdf_text import page_count

SLOW = 15_000
"""PIN hashes and reports run on worker threads."""


# ---------------------------------------------------------------------------------------- keys
def focus() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "nothing has the keys"
    return widget


def press(qtbot: QtBot, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """A key pressed where the keys are: the focused widget, or the active window."""
    target = QApplication.focusWidget() or QApplication.activeWindow()
    assert target is not None, "no window has the keys"
    qtbot.keyClick(target, key, modifier)


def type_in(qtbot: QtBot, text: str) -> None:
    qtbot.keyClicks(focus(), text)


def fill_in(qtbot: QtBot, *texts: str) -> None:
    """Each text typed into a field, Tab between them, from the field that has the keys on down."""
    for index, text in enumerate(texts):
        if index:
            press(qtbot, Qt.Key.Key_Tab)
        type_in(qtbot, text)


def tab_to(qtbot: QtBot, name: str, most: int = 30) -> list[str]:
    """Tab until the field called `name` has the keys; the names passed on the way."""
    passed: list[str] = []
    for _ in range(most):
        if focus().accessibleName() == name:
            return passed
        passed.append(focus().accessibleName())
        press(qtbot, Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reached {name!r}: {passed}")


def letter_key(letter: str) -> Qt.Key:
    return Qt.Key(ord(letter.upper()))


def menu_of(window: QMainWindow, action: QAction) -> tuple[QAction, QMenu]:
    for top in window.menuBar().actions():
        menu = top.menu()
        if isinstance(menu, QMenu) and action in menu.actions():
            return top, menu
    raise AssertionError(f"{action.text()} is in no menu")


def choose(desk: Desk, action: QAction) -> None:
    """The entry chosen with the keys: Alt and the menu's letter, then the entry's letter."""
    choose_in(desk.window, desk.qtbot, action)


def choose_in(window: QMainWindow, qtbot: QtBot, action: QAction) -> None:
    top, menu = menu_of(window, action)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(
        window.focusWidget() or window, letter_key(mnemonic(top.text())), Qt.KeyboardModifier.AltModifier
    )
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is menu)
    fired: list[bool] = []
    action.triggered.connect(lambda: fired.append(True))
    qtbot.keyClick(menu, letter_key(mnemonic(action.text())))
    assert fired, f"{action.text()} was not chosen by its letter"


def dialog_up(qtbot: QtBot, kind: type[QDialog] = QDialog) -> QDialog:
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), kind), timeout=SLOW)
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, kind)

    def focus_inside() -> bool:
        focused = QApplication.focusWidget()
        return focused is not None and dialog.isAncestorOf(focused)

    qtbot.waitUntil(focus_inside)
    return dialog


def attempt_up(desk: Desk, action: QAction, kind: type[AttemptDialog] = AttemptDialog) -> AttemptDialog:
    """The menu entry chosen by keys, its dialog up with the keys in its first field."""
    choose(desk, action)
    dialog = dialog_up(desk.qtbot, kind)
    assert isinstance(dialog, kind)
    assert focus() is dialog.fields_in_order()[0], dialog.windowTitle()
    return dialog


def done(desk: Desk, dialog: QWidget) -> None:
    """The dialog gone, and its window active again (a window manager's part, which the offscreen
    platform leaves out)."""
    parent = dialog.parentWidget()
    window = parent.window() if parent is not None else desk.window
    desk.qtbot.waitUntil(lambda: not shiboken6.isValid(dialog) or not dialog.isVisible(), timeout=SLOW)
    window.activateWindow()
    desk.qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def notice(desk: Desk) -> str:
    line = desk.window.notice_line()
    return line.text() if line is not None else ""


# ---------------------------------------------------------------------------------------- menus
def every_entry(window: QMainWindow) -> Iterator[tuple[QAction, QAction]]:
    for top in window.menuBar().actions():
        menu = top.menu()
        assert isinstance(menu, QMenu)
        for action in menu.actions():
            if not action.isSeparator():
                yield top, action


@pytest.mark.parametrize("window_of", ["desk", "floor"])
def test_every_menu_entry_has_a_key_of_its_own(desk: Desk, window_of: str) -> None:
    window: QMainWindow = desk.window
    if window_of == "floor":
        database = desk.session.database
        assert database is not None
        window = FloorController(open_existing(database.url)).window
        desk.qtbot.addWidget(window)
    tops = [mnemonic(top.text()) for top in window.menuBar().actions()]
    assert all(tops) and len(tops) == len(set(tops)), tops
    shortcuts: dict[str, str] = {}
    letters: dict[str, dict[str, str]] = {}
    for top, action in every_entry(window):
        letter, keys = mnemonic(action.text()), action.shortcut().toString()
        assert letter or keys, f"{top.text()} → {action.text()} has no key"
        if letter:
            taken = letters.setdefault(top.text(), {})
            assert letter not in taken, f"{action.text()} and {taken.get(letter)} share &{letter}"
            taken[letter] = action.text()
        for sequence in action.shortcuts():
            text = sequence.toString()
            assert text not in shortcuts, f"{action.text()} and {shortcuts.get(text)} share {text}"
            shortcuts[text] = action.text()


# ---------------------------------------------------------------------------------------- disabled
def ink(image: QImage, area: tuple[int, int, int, int], paper: QColor) -> QColor:
    """The colour in `area` that stands out most from `paper`: the letters' ink (the first pixel
    of it, read column by column). Each colour is measured once: an area's 1,200 to 5,200 pixels
    are 80 to 230 colours (the letters' smoothed edges; most pixels are the paper's)."""
    x0, y0, width, height = area
    colours: dict[int, QColor] = {}  # each colour's first pixel, in the order they are met
    for x in range(x0, x0 + width):
        for y in range(y0, y0 + height):
            colour = image.pixelColor(x, y)
            colours.setdefault(colour.rgba(), colour)
    best, best_contrast = paper, 1.0
    for colour in colours.values():
        ratio = contrast(colour.name(), paper.name())
        if ratio > best_contrast:
            best, best_contrast = colour, ratio
    return best


def drawn_contrast(widget: QWidget, area: tuple[int, int, int, int]) -> float:
    image = widget.grab().toImage()
    paper = image.pixelColor(area[0] + 1, area[1] + 1)
    return contrast(ink(image, area, paper).name(), paper.name())


@pytest.mark.parametrize("theme", list(ThemeName))
def test_what_cannot_be_used_looks_it_in_both_themes(qtbot: QtBot, theme: ThemeName) -> None:
    """Measured on the pixels as drawn under the theme's style sheet: an entry, a box or a button
    that cannot be used is plainly dimmer than one that can, and still legible."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    previous = app.styleSheet()
    app.setStyleSheet(application_stylesheet(DisplayOptions(theme=theme)))
    try:
        menu = QMenu()
        qtbot.addWidget(menu)
        live, dead = menu.addAction("&Rebuy…"), menu.addAction("&Sit in…")
        dead.setEnabled(False)
        menu.ensurePolished()
        menu.adjustSize()
        pairs = [
            (
                drawn_contrast(menu, _area(menu.actionGeometry(live))),
                drawn_contrast(menu, _area(menu.actionGeometry(dead))),
            )
        ]
        holder = QWidget()
        qtbot.addWidget(holder)
        dialog = AttemptDialog("Rules", "", holder)
        fields = RulesFields(dialog, TableRules(variant=CHINESE))  # no progressive Fantasyland here
        assert not fields.options[PROGRESSIVE].isEnabled()
        other = QCheckBox("Progressive Fantasyland", dialog)
        dialog.form.addRow("", other)
        button, dead_button = QPushButton("Deal", dialog), QPushButton("Sit in…", dialog)
        dead_button.setEnabled(False)
        dialog.form.addRow(button, dead_button)
        dialog.show()
        QApplication.processEvents()
        for on, off in ((other, fields.options[PROGRESSIVE]), (button, dead_button)):
            pairs.append((drawn_contrast(on, _area(on.rect())), drawn_contrast(off, _area(off.rect()))))
    finally:
        app.setStyleSheet(previous)
    for enabled, disabled in pairs:
        assert enabled >= 4.5, pairs
        assert disabled <= enabled / 2 and disabled >= 1.4, pairs
    palette = PALETTES[theme]
    muted = contrast(palette.muted, palette.window)
    assert 1.8 <= contrast(palette.disabled, palette.window) <= muted / 2


@pytest.mark.parametrize("theme", list(ThemeName))
def test_the_field_with_the_keys_is_outlined_in_both_themes(qtbot: QtBot, theme: ThemeName) -> None:
    """A box, a field or a button that has the keys is outlined in the turn's amber; the others in
    the muted ink (a focused box looked like any other in the dark theme)."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    previous = app.styleSheet()
    app.setStyleSheet(application_stylesheet(DisplayOptions(theme=theme)))
    palette = PALETTES[theme]
    try:
        dialog = AttemptDialog("Rules", "")
        qtbot.addWidget(dialog)
        fields = RulesFields(dialog, TableRules())
        dialog.show()
        dialog.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
        for focused, other in ((fields.settlement, fields.settle_from), (fields.unit, fields.settlement)):
            focused.setFocus()
            qtbot.waitUntil(focused.hasFocus)
            for widget, ink in ((focused, palette.turn), (other, palette.muted)):
                edge = widget.grab().toImage().pixelColor(0, widget.height() // 2)
                assert edge.name() == ink, (widget.accessibleName(), edge.name(), ink)
    finally:
        app.setStyleSheet(previous)


def _area(rect: object) -> tuple[int, int, int, int]:
    from PySide6.QtCore import QRect

    assert isinstance(rect, QRect)
    inner = rect.adjusted(3, 3, -3, -3)
    return inner.x(), inner.y(), inner.width(), inner.height()


def what_shows(desk: Desk) -> tuple[object, ...]:
    """Everything a refusal, a notice or an action could change on screen."""
    window = desk.window
    shown_windows = tuple(w for w in QApplication.topLevelWidgets() if w.isVisible() and w is not window)
    lines = tuple(label.text() for label in (*window.refusal_lines(), *window.notice_lines()))
    service = desk.session.controller.service
    head = service.snapshot().last_event_hash if service is not None else None
    return (shown_windows, lines, window.statusBar().currentMessage(), head, desk.session.options)


def close_what_opened(desk: Desk) -> None:
    for widget in QApplication.topLevelWidgets():
        if widget is not desk.window and widget.isVisible():
            widget.close()
    QApplication.processEvents()


TABLE_ACTIONS: tuple[ActionKey, ...] = (
    *(row.key for row in DESK_ACTIONS if row.enabled is not None),  # what a table offers or not
    Command.REDO,
    Command.CLOSE_REPORT,
)


def sweep(desk: Desk, state: str) -> dict[ActionKey, bool]:
    """Each table action at this state: whether it is offered; and if it is, that it does something
    the dealer sees (a dialog, a refusal in words, a change on the table)."""
    offered = {}
    for name in TABLE_ACTIONS:
        action: QAction = desk.window.action(name)
        offered[name] = action.isEnabled()
        if not action.isEnabled() or name in (Command.DEAL, Command.UNDO, Command.REDO):
            continue  # dealing and undoing change the table; what they do is tested elsewhere
        before = what_shows(desk)
        action.trigger()
        QApplication.processEvents()
        assert what_shows(desk) != before, f"{state}: {action.text()} is offered but does nothing"
        close_what_opened(desk)
    return offered


def test_nothing_offered_is_refused_silently_and_a_closed_table_offers_nothing(desk: Desk) -> None:
    no_table = sweep(desk, "no table")  # the reports say a table must be open first
    assert [name for name, offered in no_table.items() if offered] == [Command.CLOSE_REPORT]
    desk.open_table(("Ann", "Bob"), button="Bob")
    assert sweep(desk, "a hand dealt")[Command.HAND_OVER]
    enter_regular_streets(desk, ANN, BOB)
    desk.qtbot.mouseClick(desk.window.settlement.hold_button, Qt.MouseButton.LeftButton)
    between = sweep(desk, "between hands")
    assert between[Dialog.VOID] and between[Dialog.CLOSE_TABLE] and not between[Command.HAND_SET]
    service = desk.session.controller.service
    assert service is not None
    desk.session.controller.show_snapshot(
        service.do(CloseSession(supervisor=SUPERVISOR[0], pin=SUPERVISOR[1]))
    )
    closed = sweep(desk, "closed")
    assert not any(offered for name, offered in closed.items() if name != Command.CLOSE_REPORT), closed


# ---------------------------------------------------------------------------------------- the walk
def test_a_shift_by_keys_alone(desk: Desk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    desk.window.activateWindow()
    desk.qtbot.waitUntil(lambda: QApplication.activeWindow() is desk.window)
    new_table_by_keys(desk)
    fantasyland_set_by_keys(desk)
    chip_actions_by_keys(desk)
    supervisor_actions_by_keys(desk)
    reports_by_keys(desk, tmp_path, monkeypatch)
    record_views_by_keys(desk)
    accounts_and_hand_over_by_keys(desk)
    settings_and_help_by_keys(desk)
    close_by_keys(desk)


def new_table_dialog_by_keys(desk: Desk) -> NewTableDialog:
    """Ctrl+N, and the new-table dialog up with the keys inside it."""
    press(desk.qtbot, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    dialog = dialog_up(desk.qtbot, NewTableDialog)
    assert isinstance(dialog, NewTableDialog)
    return dialog


def open_table_by_keys(desk: Desk, dialog: NewTableDialog, name: str) -> list[str]:
    """The table named (typing replaces the proposed name, which is selected), Ann in seat 1 and
    Bob in seat 2, Enter: the table opens. Returns the fields Tab passed on the way to seat 1."""
    qtbot = desk.qtbot
    first_player, second_player = dialog.seats[0][0], dialog.seats[1][0]
    type_in(qtbot, name)
    passed = tab_to(qtbot, first_player.accessibleName())
    assert focus() is first_player
    type_in(qtbot, "Ann")
    press(qtbot, Qt.Key.Key_Tab)
    press(qtbot, Qt.Key.Key_Tab)
    assert focus() is second_player
    type_in(qtbot, "Bob")
    press(qtbot, Qt.Key.Key_Return)
    done(desk, dialog)
    return passed


def new_table_by_keys(desk: Desk) -> None:
    dialog = new_table_dialog_by_keys(desk)
    fields = [field.accessibleName() for field in dialog.fields_in_order()]
    assert open_table_by_keys(desk, dialog, "Walk") == fields[: fields.index("Seat 1 player")]
    snapshot = desk.snapshot
    assert (snapshot.table, [seat.name for seat in snapshot.seats], snapshot.button) == (
        "Walk",
        ["Ann", "Bob"],
        "Bob",
    )
    assert (snapshot.preset, snapshot.variant) == ("standard", "regular")
    assert focus() is desk.window.between_hands.deal_button
    press(desk.qtbot, Qt.Key.Key_Return)  # deals hand 1
    assert desk.snapshot.phase is Phase.LIVE


def fantasyland_set_by_keys(desk: Desk) -> None:
    """Ann earns Fantasyland; at her set's turn its dialog opens by itself (F6 opens it too)."""
    qtbot = desk.qtbot
    play_regular_streets(desk, ANN, BOB)
    press(qtbot, Qt.Key.Key_Return)  # on the settlement: confirms it and deals hand 2
    assert desk.snapshot.hand_number == 2
    desk.street(street_keys(BOB_SECOND[2], "b"))
    for card in BOB_SECOND[1].split():
        desk.street(f"{card} m")
    for card in BOB_SECOND[0].split():
        desk.street(f"{card} f")
    dialog = dialog_up(qtbot, AttemptDialog)
    assert dialog.windowTitle() == "Fantasyland set — Ann"
    press(qtbot, Qt.Key.Key_Escape)
    done(desk, dialog)
    press(qtbot, Qt.Key.Key_F6)
    dialog = dialog_up(qtbot, AttemptDialog)
    for row in ANN_FANTASYLAND:
        type_in(qtbot, row.lower())
        press(qtbot, Qt.Key.Key_Tab)
    press(qtbot, Qt.Key.Key_Return)
    done(desk, dialog)
    set_in_full = desk.snapshot
    assert set_in_full.phase is Phase.AWAITING_SETTLEMENT
    press(qtbot, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # settled, the deal held
    assert desk.snapshot.phase is Phase.SETTLED


def chip_actions_by_keys(desk: Desk) -> None:
    window, qtbot = desk.window, desk.qtbot
    dialog = attempt_up(desk, window.action(Dialog.JOIN))
    fill_in(qtbot, "Cy", "150")
    press(qtbot, Qt.Key.Key_Return)
    done(desk, dialog)
    assert desk.snapshot.seat("Cy").stack == 150 and notice(desk) == "Cy joined at seat 3 with 150 chips"
    bob = desk.snapshot.seat("Bob").stack
    dialog = attempt_up(desk, window.action(Dialog.REBUY))
    fill_in(qtbot, "b", "50")  # the player box finds Bob by its first letter
    press(qtbot, Qt.Key.Key_Return)
    done(desk, dialog)
    assert desk.snapshot.seat("Bob").stack == bob + 50
    for action, said in (
        (window.action(Dialog.SIT_OUT), "Cy sits out"),
        (window.action(Dialog.SIT_IN), "Cy sits in"),
    ):
        dialog = attempt_up(desk, action)
        type_in(qtbot, "c")
        press(qtbot, Qt.Key.Key_Return)
        done(desk, dialog)
        assert notice(desk).startswith(said)


def supervisor_actions_by_keys(desk: Desk) -> None:
    """What is done first, who approves it last; a refused PIN is selected to be typed again."""
    window, qtbot = desk.window, desk.qtbot
    ann = desk.snapshot.seat("Ann").stack
    dialog = attempt_up(desk, window.action(Dialog.CORRECT), SupervisorDialog)
    fill_in(qtbot, "a", "-5", "miscounted rebuy", SUPERVISOR[0], "0000")
    press(qtbot, Qt.Key.Key_Return)
    assert isinstance(dialog, SupervisorDialog)
    qtbot.waitUntil(lambda: "PIN" in dialog.refusal.text(), timeout=SLOW)
    assert focus() is dialog.pin and dialog.pin.selectedText() == "0000"
    type_in(qtbot, SUPERVISOR[1])
    press(qtbot, Qt.Key.Key_Return)
    done(desk, dialog)
    assert desk.snapshot.seat("Ann").stack == ann - 5
    dialog = attempt_up(desk, window.action(Dialog.VOID), SupervisorDialog)  # the hand just settled
    press(qtbot, Qt.Key.Key_Tab)
    fill_in(qtbot, "cards exposed", *SUPERVISOR)
    press(qtbot, Qt.Key.Key_Return)
    done(desk, dialog)
    assert desk.snapshot.hand_voided and notice(desk).startswith("Hand 2 voided by Floor")
    dialog = attempt_up(desk, window.action(Dialog.CHANGE_RULES), SupervisorDialog)
    tab_to(qtbot, "Chips per point")
    type_in(qtbot, "2")
    tab_to(qtbot, "Supervisor")
    fill_in(qtbot, *SUPERVISOR)
    press(qtbot, Qt.Key.Key_Return)
    done(desk, dialog)
    service = desk.session.controller.service
    assert service is not None and service.rules.unit == 2
    dialog = attempt_up(desk, window.action(Dialog.CASH_OUT))
    type_in(qtbot, "c")
    press(qtbot, Qt.Key.Key_Return)
    done(desk, dialog)
    assert notice(desk).startswith("Cy cashed out")


def reports_by_keys(desk: Desk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+P previews the session report; there Ctrl+S saves it, Ctrl+P prints it, and Tab reaches
    both buttons, Enter pressing them. The table-close report's count, then its preview."""
    qtbot = desk.qtbot
    saved = tmp_path / "session.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_args: (str(saved), ""))
    printed: list[QPrinter] = []

    def choose_printer(_self: ReportPreview, printer: QPrinter) -> bool:
        printed.append(printer)
        return False  # the print dialog cancelled: nothing is sent to a printer

    monkeypatch.setattr(ReportPreview, "choose_printer", choose_printer)
    press(qtbot, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    preview = dialog_up(qtbot, ReportPreview)
    assert isinstance(preview, ReportPreview)
    press(qtbot, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert saved.read_bytes() == preview.pdf
    press(qtbot, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert len(printed) == 1 and preview.isVisible()  # the print dialog, not a second report
    saved.unlink()
    wanted: list[tuple[QAction, Callable[[], bool]]] = [
        (preview.save_action, saved.exists),
        (preview.print_action, lambda: len(printed) == 2),
    ]
    for action, happened in wanted:
        for _ in range(40):
            focused = focus()
            if isinstance(focused, QToolButton) and focused.defaultAction() is action:
                break
            press(qtbot, Qt.Key.Key_Tab)
        press(qtbot, Qt.Key.Key_Return)
        assert happened(), action.text()
    press(qtbot, Qt.Key.Key_Escape)
    done(desk, preview)
    attempt_up(desk, desk.window.action(Command.CLOSE_REPORT), SupervisorDialog)
    fill_in(qtbot, "1,000", SUPERVISOR[0], SUPERVISOR[1])  # the count, signed by the supervisor
    press(qtbot, Qt.Key.Key_Return)
    preview = dialog_up(qtbot, ReportPreview)
    assert isinstance(preview, ReportPreview) and preview.title == "Table close"
    press(qtbot, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert page_count(saved) == 1
    press(qtbot, Qt.Key.Key_Escape)
    done(desk, preview)


def record_views_by_keys(desk: Desk) -> None:
    """F7, F8, F9: Ctrl+F goes to the search box, Escape or Ctrl+W closes the window."""
    qtbot = desk.qtbot
    control, plain = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.NoModifier
    closers = {
        (Qt.Key.Key_F7, "Hand history"): (Qt.Key.Key_Escape, plain),
        (Qt.Key.Key_F8, "Chip ledger"): (Qt.Key.Key_W, control),
        (Qt.Key.Key_F9, "Audit log"): (Qt.Key.Key_Escape, plain),
    }
    for (opener, title), (closer, modifier) in closers.items():
        press(qtbot, opener)
        browser = wait_for_browser(desk, title)
        browser.table.setFocus()
        press(qtbot, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
        assert focus() is browser.search
        type_in(qtbot, "Ann")
        assert 0 < browser.proxy.rowCount() <= browser.model.rowCount()
        press(qtbot, closer, modifier)
        assert not browser.isVisible(), browser.windowTitle()
        desk.window.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is desk.window)


def wait_for_browser(desk: Desk, title: str) -> RecordBrowser:
    qtbot, browsers = desk.qtbot, desk.session.records.browsers
    qtbot.waitUntil(lambda: title in browsers and browsers[title].isVisible(), timeout=SLOW)
    browser = browsers[title]
    qtbot.waitUntil(lambda: browser.model.rowCount() > 0, timeout=SLOW)
    browser.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is browser)
    return browser


def accounts_and_hand_over_by_keys(desk: Desk) -> None:
    """Add an account: Name → Role → PIN → Supervisor → Supervisor PIN → OK (never Cancel);
    change its role; then Yan takes the table over."""
    window, qtbot = desk.window, desk.qtbot
    database = desk.session.database
    assert database is not None
    dialog = attempt_up(desk, window.action(Command.ADD_ACCOUNT), AccountDialog)
    order = [field.accessibleName() for field in dialog.fields_in_order()]
    assert order == ["Name", "Role", "PIN", "Supervisor", "Supervisor PIN"]
    fill_in(qtbot, "Yan", "d", "56785678", *SUPERVISOR)
    press(qtbot, Qt.Key.Key_Tab)
    assert focus() is dialog.ok_button  # the last field's Tab goes to OK
    press(qtbot, Qt.Key.Key_Tab)
    assert focus().accessibleName() == "Cancel"
    press(qtbot, Qt.Key.Key_Tab)  # round to the first field, then back down to the PIN
    tab_to(qtbot, "Supervisor PIN")
    press(qtbot, Qt.Key.Key_Return)  # Enter does what OK does, wherever Tab has been
    done(desk, dialog)
    assert {account.name: account.role for account in list_users(database)}["Yan"] is Role.DEALER
    dialog = attempt_up(desk, window.action(Command.CHANGE_ROLE), AccountDialog)
    fill_in(qtbot, "y", "s", *SUPERVISOR)
    press(qtbot, Qt.Key.Key_Return)
    done(desk, dialog)
    assert {account.name: account.role for account in list_users(database)}["Yan"] is Role.SUPERVISOR
    dialog = attempt_up(desk, window.action(Command.HAND_OVER))
    fill_in(qtbot, "Yan", "56785678")
    press(qtbot, Qt.Key.Key_Return)
    done(desk, dialog)
    account = desk.session.account
    assert account is not None and account.name == "Yan"


def settings_and_help_by_keys(desk: Desk) -> None:
    qtbot = desk.qtbot
    press(qtbot, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    settings = dialog_up(qtbot, SettingsDialog)
    tab_to(qtbot, "Theme")
    press(qtbot, Qt.Key.Key_End)  # light
    press(qtbot, Qt.Key.Key_Return)
    done(desk, settings)
    chosen = desk.session.options
    assert chosen.theme is ThemeName.LIGHT
    choose(desk, desk.window.action(Command.DARK))  # View → Dark theme by its letter
    assert desk.session.options.theme is ThemeName.DARK
    for action in (
        desk.window.action(Command.KEYBOARD),
        desk.window.action(Command.ABOUT),
        desk.window.action(Command.VERIFY),
    ):
        choose(desk, action)
        page = dialog_up(qtbot, TextDialog)
        press(qtbot, Qt.Key.Key_Escape)
        done(desk, page)


def close_by_keys(desk: Desk) -> None:
    qtbot = desk.qtbot
    dialog = attempt_up(desk, desk.window.action(Dialog.CLOSE_TABLE), SupervisorDialog)
    fill_in(qtbot, *SUPERVISOR)
    press(qtbot, Qt.Key.Key_Return)
    done(desk, dialog)
    assert desk.snapshot.phase is Phase.CLOSED
    assert (
        not desk.window.action(Command.HAND_SET).isEnabled()
        and not desk.window.action(Command.HAND_OVER).isEnabled()
    )
    press(qtbot, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)  # no open table: Enter starts a new one
    dialog_up(qtbot, ChooseTableDialog)
    press(qtbot, Qt.Key.Key_Return)
    dialog_up(qtbot, NewTableDialog)
    press(qtbot, Qt.Key.Key_Escape)


# ---------------------------------------------------------------------------------------- floor
def records_closed_after_ctrl_tab(
    floor: FloorController, qtbot: QtBot, closer: Qt.Key, modifier: Qt.KeyboardModifier
) -> None:
    """Enter on the current row opens its records; Ctrl+Tab goes to the next tab, and `closer`
    still closes the window."""
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: bool(floor.records) and next(iter(floor.records.values())).isVisible())
    records = next(iter(floor.records.values()))
    records.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is records)
    shown = records.tabs.currentIndex()
    records.browsers[shown].table.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is records.browsers[shown].table)
    press(qtbot, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)  # the next tab
    assert records.tabs.currentIndex() == (shown + 1) % 3
    press(qtbot, closer, modifier)
    assert not records.isVisible(), closer
    floor.window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is floor.window)


def test_the_floor_by_keys(desk: Desk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Enter on the first row opens its records as the floor opens (no Down first); Escape closes
    them, and Ctrl+W after Ctrl+Tab; Ctrl+D decides a request by keys; Ctrl+P's shift report takes
    its file from a file dialog reached by Tab and says its whole folder; Help → About by its
    letters; Ctrl+Q quits."""
    qtbot = desk.qtbot
    control, plain = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.NoModifier
    desk.open_table(("Ann", "Bob"), button="Bob")
    service = desk.session.controller.service
    assert service is not None
    service.do(Request(CorrectChips("Ann", 5, "short"), "short"))
    database = desk.session.database
    assert database is not None
    desk.window.close()  # the floor runs on a machine of its own: no desk's Ctrl+P beside its own
    floor = FloorController(open_existing(database.url))
    qtbot.addWidget(floor.window)
    floor.start()
    try:
        qtbot.waitUntil(lambda: floor.model.rowCount() == 1, timeout=SLOW)
        floor.window.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is floor.window)
        assert focus() is floor.window.table
        for closer, modifier in ((Qt.Key.Key_Escape, plain), (Qt.Key.Key_W, control)):
            records_closed_after_ctrl_tab(floor, qtbot, closer, modifier)
        press(qtbot, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
        decide = dialog_up(qtbot, AttemptDialog)
        press(qtbot, Qt.Key.Key_Tab)
        fill_in(qtbot, *SUPERVISOR, "counted again")
        press(qtbot, Qt.Key.Key_Return)
        done(desk, decide)
        qtbot.waitUntil(lambda: "approved" in floor.window.statusBar().currentMessage(), timeout=SLOW)
        target = tmp_path / "shift.pdf"
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_args: (str(target), ""))
        press(qtbot, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
        shift = dialog_up(qtbot, AttemptDialog)
        type_in(qtbot, "2000-01-01 00:00")
        tab_to(qtbot, "Choose the PDF file")
        press(qtbot, Qt.Key.Key_Return)  # the file dialog; the path comes back into the field
        assert focus().accessibleName() == "PDF file"
        monkeypatch.chdir(tmp_path)
        field = focus()
        assert isinstance(field, QLineEdit)
        field.selectAll()
        type_in(qtbot, target.name)  # typed without its folder: the working one
        press(qtbot, Qt.Key.Key_Return)
        done(desk, shift)
        assert page_count(target) >= 1
        said = floor.window.statusBar().currentMessage()
        assert said.endswith(f"written to {target}"), said
        choose_in(floor.window, qtbot, floor.window.action_about)
        about = dialog_up(qtbot, TextDialog)
        assert isinstance(about, TextDialog) and about.windowTitle() == "About OFC Desk"
        assert database.url.split("/")[-1] in about.browser.toPlainText()
        press(qtbot, Qt.Key.Key_Escape)
        done(desk, about)
        # File → Quit by its letters (the desk's own Ctrl+Q, application-wide, is still in this
        # process: the floor's machine has only the floor's).
        assert floor.window.action_quit.shortcut() == QKeySequence(QKeySequence.StandardKey.Quit)
        choose_in(floor.window, qtbot, floor.window.action_quit)
        assert not floor.window.isVisible(), "File → Quit closes the floor"
    finally:
        floor.stop()
