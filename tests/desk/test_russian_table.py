"""A desk started in Russian: a table opened and dealt by keys alone, and what the dealer reads on
the way (the menus, the between-hands page, the status line, the card entry) is Russian."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ofc_desk.desk.shell.language import install_language
from ofc_desk.i18n import Language
from ofc_desk.service.snapshot import Phase
from ofc_desk.storage.users import Account
from tests.desk.conftest import Desk, make_desk
from tests.desk.test_keyboard_walk import focus, new_table_dialog_by_keys, open_table_by_keys, press
from tests.desk.test_languages import english_after  # noqa: F401  (a fixture: English again afterwards)

CYRILLIC = re.compile("[А-Яа-яЁё]")


@pytest.fixture
def russian_desk(qtbot: QtBot, tmp_path: Path, template_accounts: tuple[Path, Account]) -> Desk:
    """The desk as a Russian-speaking room starts it: the language installed before the window."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    install_language(app, Language.RU)
    path = tmp_path / "desk.db"
    shutil.copyfile(template_accounts[0], path)
    desk = make_desk(qtbot, tmp_path, f"sqlite:///{path}")
    desk.session.start()  # opens the database on the worker thread, as at a start
    qtbot.waitUntil(lambda: desk.session.database is not None, timeout=15_000)
    if desk.session.active_dialog is not None:
        desk.session.active_dialog.reject()  # signed in below without hashing the PIN again
    desk.session.account = template_accounts[1]
    return desk


def russian(text: str) -> bool:
    return bool(CYRILLIC.search(text))


@pytest.mark.usefixtures("english_after")
def test_a_russian_desk_opens_and_deals_a_table_in_russian(russian_desk: Desk) -> None:
    desk, qtbot = russian_desk, russian_desk.qtbot
    window = desk.window
    assert [action.text() for action in window.menuBar().actions()] == [
        "&Файл",
        "&Правка",
        "&Стол",
        "&Вид",
        "&Настройки",
        "&Справка",
    ]
    english = [action.text() for action in window.menu_actions.values() if not russian(action.text())]
    assert not english, f"menu entries still in English: {english}"

    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    # QTest types Latin-1 only: the name stays Latin
    open_table_by_keys(desk, new_table_dialog_by_keys(desk), "Walk")

    between = window.between_hands
    assert between.message.text() == "Между раздачами — следующая раздача 1. Enter сдаёт её."
    assert between.deal_button.text() == "Сдать следующую раздачу (Enter)"
    assert all(russian(button.text()) for button in between.buttons.values())
    assert focus() is between.deal_button
    press(qtbot, Qt.Key.Key_Return)  # deals hand 1
    assert desk.snapshot.phase is Phase.LIVE

    status = window.status_line.text().replace("\u00a0", " ")
    assert status.startswith("Walk  ·  standard классика, 1 за очко, лимит выигрыша  ·  Раздача 1, улица 1:")
    assert "ходит Ann" in status and "баттон Bob" in status
    assert window.windowTitle().startswith("OFC Desk — Walk — standard классика")
    entry = window.entry
    assert entry.confirm_button.text() == "Подтвердить улицу (Enter)"
    assert [entry.row_buttons[key].text() for key in "fmbx?"] == [
        "Верхний",
        "Средний",
        "Нижний",
        "Сброс",
        "Неизвестная",
    ]
    desk.type("ks b")
    assert entry.staged.text() == "Эта улица: Ks→нижний"
    qtbot.keyClick(entry.line, Qt.Key.Key_Escape)
    assert entry.notice.text() == "1 карта убрана, ничего не записано: введите улицу заново"
    seat = window.felt.seat_widgets[0]
    assert seat.accessibleName() == "Место 1: Ann"
    desk.screenshot("russian-table-dealing")
