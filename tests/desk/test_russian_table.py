"""A desk started in Russian: a table opened and dealt by keys alone, and what the dealer reads on
the way (the menus, the between-hands page, the status line, the card entry) is Russian."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from ofc_desk.i18n import Language
from ofc_desk.service.terms.snapshot import Phase
from tests.desk.conftest import Desk
from tests.desk.test_keyboard_walk import focus, new_table_dialog_by_keys, open_table_by_keys, press

CYRILLIC = re.compile("[А-Яа-яЁё]")


@pytest.fixture
def russian_desk(desk_in: Callable[[Language], Desk]) -> Desk:
    """The desk as a Russian-speaking room starts it: the language installed before the window."""
    return desk_in(Language.RU)


def russian(text: str) -> bool:
    return bool(CYRILLIC.search(text))


@pytest.mark.usefixtures("english_after")
def test_a_russian_desk_opens_and_deals_a_table_in_russian(russian_desk: Desk) -> None:
    desk, qtbot = russian_desk, russian_desk.qtbot
    window = desk.window
    assert [action.text() for action in window.menuBar().actions()] == [
        "Файл (&F)",
        "Правка (&E)",
        "Стол (&T)",
        "Вид (&V)",
        "Настройки (&S)",
        "Справка (&H)",
    ]  # the keys of the Latin layout the dealer types cards in, as in every language
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

    status = desk.status
    assert status.startswith("Walk  ·  standard обычный, 1 за очко, лимит выигрыша  ·  Раздача 1, улица 1:")
    assert "ходит Ann" in status and "баттон Bob" in status
    assert window.windowTitle().startswith("OFC Desk — Walk — standard обычный")
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
