"""The floor's rows fitted to their cells once a reading, and once a change after: a reading of
the room measures each row once, a changed table's row alone is measured again (and grows with its
words), and a reading with nothing new measures nothing."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ofc_desk.desk.floor import view
from ofc_desk.desk.floor.model import FloorTableModel
from ofc_desk.service.oversight.floor import FloorReader, FloorTable
from ofc_desk.service.terms.snapshot import RequestView
from ofc_desk.storage.database import Database
from tests.helpers.floor_room import play_table


class CountingTableView(view.FloorTableView):
    """The floor's table, counting the rows it measures (each fit measures a row once)."""

    measured: ClassVar[list[int]] = []

    def sizeHintForRow(self, row: int) -> int:
        CountingTableView.measured.append(row)
        return super().sizeHintForRow(row)


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


def test_each_row_is_fitted_once_a_reading_and_once_a_change(
    qtbot: QtBot, tables: tuple[FloorTable, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(view, "FloorTableView", CountingTableView)
    monkeypatch.setattr(CountingTableView, "measured", [])
    window = view.FloorWindow(FloorTableModel())
    qtbot.addWidget(window)
    window.resize(1340, 720)
    window.show()
    qtbot.waitExposed(window)
    QApplication.processEvents()
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
