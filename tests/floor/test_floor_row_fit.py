"""The floor's rows fitted to their cells once a reading, and once a change after: a reading of
the room measures each row once, a changed table's row alone is measured again (and grows with its
words), and a reading with nothing new measures nothing. Its columns that are not wide are fitted
to their contents as often: once a reading, each measured once."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ofc_desk.desk.floor import view
from ofc_desk.desk.floor.columns import FLOOR_COLUMNS
from ofc_desk.desk.floor.model import FloorTableModel
from ofc_desk.service.oversight.floor import FloorReader, FloorTable
from ofc_desk.service.terms.snapshot import RequestView
from ofc_desk.storage.database import Database
from tests.helpers.floor_room import play_table


class CountingTableView(view.FloorTableView):
    """The floor's table, counting the rows it measures (each fit measures a row once)."""

    measured: ClassVar[list[int]] = []
    measured_columns: ClassVar[list[int]] = []

    def sizeHintForRow(self, row: int) -> int:
        CountingTableView.measured.append(row)
        return super().sizeHintForRow(row)

    def sizeHintForColumn(self, column: int) -> int:
        CountingTableView.measured_columns.append(column)
        return super().sizeHintForColumn(column)


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> tuple[FloorTable, ...]:
    database = Database(f"sqlite:///{tmp_path_factory.mktemp('floor-row-fit') / 'room.db'}")
    play_table(database, "T1", 2)
    play_table(database, "T2", 5, sitting_out="Cy")
    room = FloorReader(database).read()
    database.dispose()
    return room.tables


def rows_fit(window: view.FloorWindow) -> bool:
    table = window.table
    return all(table.rowHeight(row) >= table.sizeHintForRow(row) for row in range(window.model.rowCount()))


def counting_window(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, counts: str) -> view.FloorWindow:
    """A floor window on screen, empty, whose table counts its measures in `counts` (a list
    attribute of `CountingTableView`, new for the test)."""
    monkeypatch.setattr(view, "FloorTableView", CountingTableView)
    monkeypatch.setattr(CountingTableView, counts, [])
    window = view.FloorWindow(FloorTableModel())
    qtbot.addWidget(window)
    window.resize(1340, 720)
    window.show()
    qtbot.waitExposed(window)
    QApplication.processEvents()
    return window


def test_each_row_is_fitted_once_a_reading_and_once_a_change(
    qtbot: QtBot, tables: tuple[FloorTable, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    window = counting_window(qtbot, monkeypatch, "measured")
    CountingTableView.measured.clear()

    window.model.set_tables(tables)
    QApplication.processEvents()
    assert sorted(CountingTableView.measured) == [0, 1], "each row measured once"
    assert rows_fit(window)

    CountingTableView.measured.clear()
    window.model.set_tables(tables)  # a reading with nothing new
    QApplication.processEvents()
    assert CountingTableView.measured == []

    short = window.table.rowHeight(1)
    request = RequestView(1, "#1 void hand 2 (cards exposed in hand 2) — waiting for the floor " * 3, True)
    window.model.set_tables((tables[0], replace(tables[1], open_requests=(request,))))
    QApplication.processEvents()
    assert CountingTableView.measured == [1], "the changed table's row alone measured again"
    assert window.table.rowHeight(1) > short and rows_fit(window), "it grew with its words"


FITTED = [index for index, column in enumerate(FLOOR_COLUMNS) if not column.wide]
"""The columns as wide as their contents (the wide ones share the room the others leave)."""


def columns_fit(window: view.FloorWindow) -> bool:
    """Each fitted column as wide as Qt's size-to-contents mode makes it: its title or its widest
    cell, whichever is wider."""
    table, header = window.table, window.table.horizontalHeader()
    return all(
        header.sectionSize(column) == max(table.sizeHintForColumn(column), header.sectionSizeHint(column))
        for column in FITTED
    )


def a_room_of(tables: tuple[FloorTable, ...], count: int) -> tuple[FloorTable, ...]:
    """`count` tables made of `tables`, each its own (a room taller than the window: its scroll bar
    narrows the table once the rows are in, one more layout pass)."""
    return tuple(
        replace(table, snapshot=replace(table.snapshot, table=f"T{number}", session_id=number))
        for number, table in enumerate((tables * count)[:count], start=1)
    )


def test_a_room_taller_than_the_window_is_fitted_once_at_the_widths_its_scroll_bar_leaves(
    qtbot: QtBot, tables: tuple[FloorTable, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scroll bar the rows bring narrows the stretched columns: the rows are fitted after it
    comes, once, not at the widths before it and again."""
    window = counting_window(qtbot, monkeypatch, "measured")
    CountingTableView.measured.clear()

    window.model.set_tables(a_room_of(tables, 24))
    QApplication.processEvents()
    assert window.table.verticalScrollBar().isVisible()
    assert sorted(CountingTableView.measured) == list(range(24)), "each row measured once"
    assert rows_fit(window)


def test_each_column_is_fitted_once_a_reading(
    qtbot: QtBot, tables: tuple[FloorTable, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    tables = a_room_of(tables, 24)
    window = counting_window(qtbot, monkeypatch, "measured_columns")
    assert columns_fit(window), "fitted to the titles before the first reading"
    CountingTableView.measured_columns.clear()

    window.model.set_tables(tables)
    QApplication.processEvents()
    assert sorted(CountingTableView.measured_columns) == FITTED, "each measured once"
    assert columns_fit(window)  # (measuring them again)
    CountingTableView.measured_columns.clear()

    window.model.set_tables(tables)  # a reading with nothing new
    QApplication.processEvents()
    assert CountingTableView.measured_columns == []

    renamed = replace(tables[1], snapshot=replace(tables[1].snapshot, table="The long table by the window"))
    window.model.set_tables((tables[0], renamed, *tables[2:]))  # one row changed
    QApplication.processEvents()
    assert sorted(CountingTableView.measured_columns) == FITTED, "measured again for the new words"
    assert columns_fit(window), "the table's column widened with its name"


def test_a_larger_font_fits_the_columns_and_rows_again(
    qtbot: QtBot, tables: tuple[FloorTable, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    window = counting_window(qtbot, monkeypatch, "measured_columns")
    window.model.set_tables(tables)
    QApplication.processEvents()
    narrow = [window.table.horizontalHeader().sectionSize(column) for column in FITTED]

    # A style sheet's font wins over a widget's own (the desk's theme sets one), so the larger
    # text comes as a style sheet would bring it.
    pixels = max(window.table.fontMetrics().height(), 10) * 2
    window.setStyleSheet(f"* {{ font-size: {pixels}px; }}")
    QApplication.processEvents()
    wide = [window.table.horizontalHeader().sectionSize(column) for column in FITTED]
    assert all(after > before for before, after in zip(narrow, wide, strict=True)), (narrow, wide)
    assert columns_fit(window)
    assert rows_fit(window)
