"""The floor's table model: one row per open table, one column per thing a supervisor watches
(`floor/columns.py` says which, and how each is shown).

Display text, a tooltip with the detail, and OBJECT_ROLE (the service's `FloorTable` itself).
A new reading of the room updates rows in place when the same tables are open, so a selection
survives the live updates; a table opening or closing resets the rows. A row's texts are made once
a reading (the view sizes every row and column to its contents, asking for each cell's text dozens
of times); the language they are said in changes only at the next start. A table shown as kept is
shown in the words kept with it (`columns.row_texts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from ofc_desk.desk.floor.columns import FLOOR_COLUMNS, row_detail, row_texts
from ofc_desk.desk.records.roles import OBJECT_ROLE
from ofc_desk.service.oversight.floor_kept import FloorTable

AnyIndex = QModelIndex | QPersistentModelIndex
DISPLAY = int(Qt.ItemDataRole.DisplayRole)
TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
ROLES_ANSWERED = frozenset({DISPLAY, TOOLTIP, int(Qt.ItemDataRole.FontRole), OBJECT_ROLE})


class FloorTableModel(QAbstractTableModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tables: list[FloorTable] = []
        self._texts: list[tuple[str, ...]] = []
        """Each row's text in each column, made from its table once."""
        self._bold = QFont()
        self._bold.setBold(True)

    def set_tables(self, tables: Sequence[FloorTable]) -> None:
        if [t.session_id for t in tables] != [t.session_id for t in self._tables]:
            self.beginResetModel()
            self._tables = list(tables)
            self._texts = [row_texts(table) for table in tables]
            self.endResetModel()
            return
        for row, (old, new) in enumerate(zip(self._tables, tables, strict=True)):
            if old != new:
                self._tables[row], self._texts[row] = new, row_texts(new)
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(FLOOR_COLUMNS) - 1))

    def table_at(self, row: int) -> FloorTable:
        return self._tables[row]

    @property
    def tables(self) -> tuple[FloorTable, ...]:
        return tuple(self._tables)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 - Qt API
        return 0 if parent.isValid() else len(self._tables)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 - Qt API
        return 0 if parent.isValid() else len(FLOOR_COLUMNS)

    def data(self, index: AnyIndex, role: int = DISPLAY) -> Any:
        # Asked for eight roles of every cell at each sizing and paint, most of which no cell has:
        # those are answered first, without looking at the cell.
        if role not in ROLES_ANSWERED or not index.isValid() or index.row() >= len(self._tables):
            return None
        row, column = index.row(), index.column()
        if role == DISPLAY:
            return self._texts[row][column]
        table = self._tables[row]
        if role == OBJECT_ROLE:
            return table
        if role == TOOLTIP:
            return row_detail(table, column)
        return self._bold if FLOOR_COLUMNS[column].bold else None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        """Selectable, never editable: the floor reads tables, it does not change them."""
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = int(Qt.ItemDataRole.DisplayRole)
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return str(FLOOR_COLUMNS[section].header)
        return None
