"""The floor in another language: its own Settings → Language choice (`floor/language`, apart from
the desk's), kept for the next start, which shows the columns, menus and rows in that language."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from ofc_desk.desk.floor.app import build_floor
from ofc_desk.desk.floor.columns import column_index
from ofc_desk.desk.floor.controller import FloorController
from ofc_desk.desk.shell.language import DESK_KEY, FLOOR_KEY, stored_language
from ofc_desk.i18n import Language, active_language
from tests.helpers.floor_room import play_table, room_for_the_floor
from tests.helpers.qt_languages import menu_titles


def headers(controller: FloorController) -> list[str]:
    model = controller.model
    return [str(model.headerData(column, Qt.Orientation.Horizontal)) for column in range(model.columnCount())]


def language_entry(controller: FloorController, name: str) -> QMenu:
    """Settings → Language, found by the words the floor shows now."""
    settings_menu = controller.window.menuBar().actions()[-2].menu()  # Help is last
    assert isinstance(settings_menu, QMenu)
    language = next(action.menu() for action in settings_menu.actions() if action.text() == name)
    assert isinstance(language, QMenu)
    return language


def test_the_floor_chooses_vietnamese_for_itself_and_speaks_it_from_the_next_start(
    qtbot: QtBot,
    tmp_path: Path,
    english_after: None,
) -> None:
    database, store = room_for_the_floor(
        tmp_path, lambda desk: play_table(desk, "T7", 4, next_hand_actions=2)
    )
    try:
        english = build_floor(database, store)
        qtbot.addWidget(english.window)
        assert menu_titles(english.window) == ["&File", "&Table", "&Settings", "&Help"]
        vietnamese = next(
            a for a in language_entry(english, "&Language").actions() if a.text() == "Tiếng Việt"
        )
        vietnamese.trigger()
        assert stored_language(store.settings, FLOOR_KEY) is Language.VI
        assert stored_language(store.settings, DESK_KEY) is None, "the desk's choice is its own"
        assert "Tiếng Việt, from the next start" in english.window.statusBar().currentMessage()
        assert active_language() is Language.EN and headers(english)[0] == "Table"
        english.window.close()

        floor = build_floor(database, store)  # the next start
        qtbot.addWidget(floor.window)
        assert menu_titles(floor.window) == ["Tệp (&F)", "Bàn (&T)", "Cài đặt (&S)", "Trợ giúp (&H)"]
        assert headers(floor) == [
            "Bàn",
            "Trò chơi",
            "Ván",
            "Đến lượt",
            "Người chơi (chip)",
            "Ván/giờ",
            "Thanh toán gần nhất",
            "Yêu cầu đang chờ",
        ]
        assert [a.text() for a in language_entry(floor, "Ngôn ngữ (&L)").actions() if a.isChecked()] == [
            "Tiếng Việt"
        ]
        assert floor.window.windowTitle() == "OFC Desk — Giám sát sàn"
        floor.start()
        try:
            qtbot.waitUntil(lambda: floor.window.heading.text() == "1 bàn đang mở", timeout=5000)
            model = floor.model
            hand = str(model.index(0, column_index("hand")).data())
            assert hand.startswith("Ván 5 · lượt "), hand
            assert model.index(0, column_index("pace")).data() == "còn sớm"
            pace = str(model.index(0, column_index("pace")).data(Qt.ItemDataRole.ToolTipRole))
            assert pace.startswith("4 ván đã thanh toán từ lúc mở bàn "), pace
            assert floor.window.live_line.text().startswith("Trực tiếp (xem lại mỗi 0.25 giây)")
        finally:
            floor.stop()
    finally:
        database.dispose()
