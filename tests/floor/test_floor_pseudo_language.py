"""The floor and the desk's New table and Add an account dialogs in the pseudo-language (every
string about 40% longer) on the card room's narrowest screen, 1366x768: nothing wider or taller
than the screen, no column title, cell, label or button cut short (docs/translating.md)."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QStyle, QWidget
from pytestqt.qtbot import QtBot

from ofc_desk.desk.dialogs.accounts import AccountDialog, AccountTask
from ofc_desk.desk.dialogs.new_table import NewTableDialog
from ofc_desk.desk.floor.app import DEFAULT_WINDOW_SIZE, build_floor
from ofc_desk.desk.floor.controller import FloorController
from ofc_desk.desk.floor.view import header_text_height
from ofc_desk.desk.shell.app import FRAME_ALLOWANCE
from ofc_desk.desk.shell.language import FLOOR_KEY
from ofc_desk.storage.database import Database
from tests.desk.test_screen_matrix import frame_problems
from tests.helpers.floor_room import play_table, room_for_the_floor

SCREEN = QSize(1366, 768)
BREAKS = re.compile(r"[ \n]+")
"""Where a cell's words may wrap (not at the no-break spaces that hold a seat together)."""


def too_big(window: QWidget) -> list[str]:
    return [f"{window.windowTitle()!r}: {problem}" for problem in frame_problems(window, SCREEN)]


def cut_widgets(window: QWidget) -> list[str]:
    """Labels and buttons whose words need more room than they have, or that run off the window."""
    problems = []
    inside = window.rect()
    widgets: list[QLabel | QAbstractButton] = [
        *window.findChildren(QLabel),
        *window.findChildren(QAbstractButton),
    ]
    for widget in widgets:
        text = widget.text()
        if not widget.isVisible() or not text or widget.window() is not window:
            continue
        if isinstance(widget, QLabel) and widget.wordWrap():
            cut = widget.heightForWidth(widget.width()) > widget.height()
        else:
            cut = widget.sizeHint().width() > widget.width()
        if cut or not inside.contains(QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())):
            problems.append(f"{window.windowTitle()!r}: {text!r} is cut")
    return problems


def cut_cells(floor: FloorController) -> list[str]:
    """Column titles taller than the header, rows shorter than their wrapped cells, and words wider
    than their column (a word that cannot wrap is cut short with '…')."""
    table, model = floor.window.table, floor.model
    header = table.horizontalHeader()
    margin = 2 * table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 2
    problems = [
        f"the title of column {column} is cut"
        for column in range(model.columnCount())
        if header_text_height(header, column) > header.height()
    ]
    for row in range(model.rowCount()):
        if table.rowHeight(row) < table.sizeHintForRow(row):
            problems.append(f"row {row} is shorter than its cells")
        for column in range(model.columnCount()):
            room = table.columnWidth(column) - margin
            for word in BREAKS.split(str(model.index(row, column).data())):
                if table.fontMetrics().horizontalAdvance(word) > room:
                    problems.append(f"{word!r} does not fit in column {column}")
    return problems


def test_nothing_is_cut_or_off_the_screen_in_the_pseudo_language(
    qtbot: QtBot,
    tmp_path: Path,
    english_after: None,
) -> None:

    def two_tables(desk: Database) -> None:
        play_table(desk, "Table 12 — high stakes", 4, next_hand_actions=2)
        play_table(desk, "T8", 2, sitting_out="Cy")

    database, store = room_for_the_floor(tmp_path, two_tables)
    store.settings.setValue(FLOOR_KEY, "en_XA")
    floor = build_floor(database, store)
    qtbot.addWidget(floor.window)
    floor.window.resize(QSize(*DEFAULT_WINDOW_SIZE).boundedTo(SCREEN.shrunkBy(FRAME_ALLOWANCE)))
    floor.start()
    try:
        qtbot.waitUntil(lambda: floor.model.rowCount() == 2, timeout=5000)
        floor.window.show()
        QApplication.processEvents()
        assert floor.window.heading.text().startswith("⟦2 "), "the floor speaks the pseudo-language"
        problems = [*too_big(floor.window), *cut_widgets(floor.window), *cut_cells(floor)]
        for dialog in (NewTableDialog(floor.window), AccountDialog(AccountTask.ADD, [], floor.window)):
            qtbot.addWidget(dialog)
            dialog.show()
            QApplication.processEvents()
            problems += [*too_big(dialog), *cut_widgets(dialog)]
            dialog.close()
    finally:
        floor.stop()
        database.dispose()
    assert not problems, "\n".join(problems)
