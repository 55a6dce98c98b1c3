"""Every language by the keys of a Latin layout (issue 36): the dealer types cards with a Latin
layout, so every menu's and every dialog's underlined key is a Latin letter or a digit, typed
without a modifier, and no two share one in a menu, a menu bar or a dialog; Qt's own dialogs
(file, print) speak the desk's language, Vietnamese included (Qt ships none: our catalogs give
those words); the pseudo-language is a developer's; Qt starts without a locale warning."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, Qt
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QMenuBar,
    QWidget,
)
from pytestqt.qtbot import QtBot

from ofc_desk.desk.dialogs.accounts import AccountDialog, AccountTask
from ofc_desk.desk.dialogs.new_table import NewTableDialog
from ofc_desk.desk.dialogs.settings import SettingsDialog
from ofc_desk.desk.dialogs.text import ChooseTableDialog, TextDialog
from ofc_desk.desk.floor.app import add_settings_menu
from ofc_desk.desk.floor.controller import FloorController
from ofc_desk.desk.floor.decision_dialog import decision_dialog
from ofc_desk.desk.floor.seed_dialog import seed_dialog
from ofc_desk.desk.floor.shift_dialog import shift_report_dialog
from ofc_desk.desk.games.ofc_set_dialog import FantasylandSetDialog
from ofc_desk.desk.records.browser import RecordBrowser
from ofc_desk.desk.records.models import AuditModel
from ofc_desk.desk.shell.application import use_a_utf8_locale
from ofc_desk.desk.shell.language import (
    DESK_KEY,
    PSEUDO_WANTED,
    add_language_menu,
    draw_dialogs_ourselves,
    install_language,
)
from ofc_desk.desk.shell.theme import DisplayOptions, DisplaySettingsStore
from ofc_desk.desk.shell.worker import BackgroundRunner
from ofc_desk.i18n import Language, pgettext
from ofc_desk.storage.database import Database
from ofc_desk.storage.existing_room import open_existing
from tests.desk.conftest import make_desk

LATIN_KEYS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def key_of(text: str) -> str:
    """The key a text's `&` underlines, lower case ("" without one; "&&" is a plain ampersand)."""
    plain = text.replace("&&", "")
    index = plain.find("&")
    return plain[index + 1 : index + 2].lower() if index >= 0 else ""


def key_problems(where: str, texts: list[str]) -> list[str]:
    """What is wrong with the keys of one menu, menu bar or dialog: a key not on a Latin layout
    without a modifier, or a key twice."""
    problems, taken = [], dict[str, str]()
    for text in texts:
        key = key_of(text)
        if not key:
            continue
        if key not in LATIN_KEYS:
            problems.append(f"{where}: {text!r} underlines {key!r}, not a Latin letter or digit")
        elif key in taken:
            problems.append(f"{where}: {text!r} and {taken[key]!r} share &{key}")
        else:
            taken[key] = text
    return problems


def menu_problems(where: str, menu: QMenu) -> Iterator[str]:
    entries = [action for action in menu.actions() if not action.isSeparator()]
    yield from key_problems(where, [action.text() for action in entries])
    for action in entries:
        submenu = action.menu()
        if isinstance(submenu, QMenu):
            yield from menu_problems(f"{where} → {action.text()}", submenu)


def menu_bar_problems(where: str, bar: QMenuBar) -> list[str]:
    tops = bar.actions()
    problems = key_problems(f"{where}'s menu bar", [top.text() for top in tops])
    for top in tops:
        menu = top.menu()
        assert isinstance(menu, QMenu)
        problems += menu_problems(f"{where} → {top.text()}", menu)
    return problems


def dialog_problems(dialog: QWidget) -> list[str]:
    """The keys of a window as shown: its buttons' and its labels' (a label's key goes to its field)."""
    dialog.show()
    QApplication.processEvents()
    shown = [
        widget.text()
        for widget in dialog.findChildren(QWidget)
        if isinstance(widget, QAbstractButton | QLabel) and widget.isVisible()
    ]
    dialog.close()
    return key_problems(f"the dialog {dialog.windowTitle()!r}", shown)


def every_dialog(parent: QWidget, database: Database, runner: BackgroundRunner) -> Iterator[QWidget]:
    """One of each kind the desk and the floor open, and Qt's own the dealer meets."""
    yield NewTableDialog(parent)
    yield ChooseTableDialog(["T1"], parent)
    yield SettingsDialog(DisplayOptions(), "", database.url, parent)
    yield TextDialog("About", "text", parent)
    yield AccountDialog(AccountTask.ADD, ["Dana"], parent)
    yield shift_report_dialog(database, runner, parent, lambda _said: None)
    yield decision_dialog(database, [], runner, parent, lambda _said: None)  # its Decline button
    yield seed_dialog(database, [], runner, parent, lambda _said: None)
    yield FantasylandSetDialog("Ann", 14, parent)
    browser = RecordBrowser("Audit log", AuditModel(), parent, details=str)
    assert browser.details_button is not None
    browser.details_button.setChecked(True)  # "Hide the raw record"
    yield browser
    yield QFileDialog(parent)
    printer = QPrinter()  # the dialog does not keep it alive
    yield QPrintDialog(printer, parent)
    yes_no = QDialogButtonBox(QDialogButtonBox.StandardButton.Yes | QDialogButtonBox.StandardButton.No)
    yes_no.setParent(parent, Qt.WindowType.Dialog)
    yield yes_no


@pytest.mark.usefixtures("english_after")
@pytest.mark.parametrize("language", list(Language), ids=[language.value for language in Language])
def test_every_key_is_on_a_latin_layout_and_its_own_in_its_menu_or_dialog(
    qtbot: QtBot, tmp_path: Path, database: Database, language: Language
) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    install_language(app, language)
    desk = make_desk(qtbot, tmp_path, database.url)
    problems = menu_bar_problems("the desk", desk.window.menuBar())
    floor = FloorController(open_existing(database.url))
    qtbot.addWidget(floor.window)
    add_settings_menu(
        floor.window, DisplaySettingsStore(QSettings(str(tmp_path / "f.ini"), QSettings.Format.IniFormat))
    )
    problems += menu_bar_problems("the floor", floor.window.menuBar())
    field = QLineEdit()
    qtbot.addWidget(field)
    problems += menu_problems("a text field's menu", field.createStandardContextMenu())
    for dialog in every_dialog(desk.window, database, BackgroundRunner(desk.window)):
        problems += dialog_problems(dialog)
    assert not problems, "\n".join(problems)


QT_DIALOG_WORDS = {
    # (context, English): Qt's words that must not stay English in another language
    ("QFileDialog", "File &name:"),
    ("QFileDialog", "Files of &type:"),
    ("QFileDialog", "&Look in:"),
    ("QFileDialog", "&Save"),
    ("QPrintDialog", "&Print"),
    ("QPrintWidget", "Location:"),
    ("QPrintWidget", "Output &file:"),
}


@pytest.mark.usefixtures("english_after")
@pytest.mark.parametrize("language", [Language.RU, Language.VI, Language.ZH_CN], ids=lambda lang: lang.value)
def test_qts_file_and_print_dialogs_speak_the_desks_language(qtbot: QtBot, language: Language) -> None:
    """Opened as the desk opens them (no option given): drawn by Qt, not the system, so every
    word the dealer reads there is in the desk's language."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    install_language(app, language)
    draw_dialogs_ourselves()  # as the desk's session and the floor do when they build their windows
    assert app.testAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs)
    wanted = {QCoreApplication.translate(context, english) for context, english in QT_DIALOG_WORDS}
    assert not wanted & {english for _context, english in QT_DIALOG_WORDS}, "each has its translation"
    assert wanted == {pgettext(context, english) for context, english in QT_DIALOG_WORDS}
    files = QFileDialog(None, "", "", "PDF (*.pdf)")
    files.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    printer = QPrinter()  # the dialog does not keep it alive
    printing = QPrintDialog(printer)
    shown: set[str] = set()
    for dialog in (files, printing):
        qtbot.addWidget(dialog)
        dialog.show()
        shown |= {
            widget.text()
            for widget in dialog.findChildren(QWidget)
            if isinstance(widget, QAbstractButton | QLabel) and widget.isVisible()
        }
        dialog.close()
    assert wanted <= shown, sorted(wanted - shown)


def test_the_pseudo_language_is_offered_to_developers_only(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)

    def offered() -> list[str]:
        menu = QMenu()
        qtbot.addWidget(menu)
        return [action.text() for action in add_language_menu(menu, settings, DESK_KEY, print).actions()]

    monkeypatch.delenv(PSEUDO_WANTED, raising=False)
    assert offered() == ["English", "Русский", "Tiếng Việt", "简体中文"]
    monkeypatch.setenv(PSEUDO_WANTED, "1")
    assert offered()[-1] == Language.PSEUDO.native_name


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ({}, {"LC_CTYPE": "C.UTF-8"}),
        ({"LC_ALL": "C"}, {"LC_CTYPE": "C.UTF-8"}),
        ({"LC_ALL": "ru_RU.KOI8-R"}, {"LC_MESSAGES": "ru_RU.KOI8-R", "LC_CTYPE": "C.UTF-8"}),
        ({"LANG": "vi_VN.UTF-8"}, {"LANG": "vi_VN.UTF-8"}),
        ({"LC_ALL": "zh_CN.utf8"}, {"LC_ALL": "zh_CN.utf8"}),
    ],
)
def test_qt_is_given_a_utf8_locale_and_the_language_kept(
    before: dict[str, str], after: dict[str, str]
) -> None:
    environment = dict(before)
    use_a_utf8_locale(environment)
    assert environment == after


def test_the_desk_starts_without_a_locale_warning_under_a_plain_c_locale() -> None:
    environment = {name: value for name, value in os.environ.items() if not name.startswith(("LANG", "LC_"))}
    environment |= {"LC_ALL": "C", "QT_QPA_PLATFORM": "offscreen"}
    started = subprocess.run(
        [sys.executable, "-c", "from ofc_desk.desk.shell.app import application; application()"],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "locale" not in started.stderr, started.stderr
