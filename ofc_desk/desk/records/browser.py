"""A window over one record model: a search box and a sortable table (history, ledger, audit)."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLineEdit, QTableView, QVBoxLayout, QWidget

from ofc_desk.desk.records.models import searchable_proxy


class RecordBrowser(QWidget):
    def __init__(self, title: str, model: QAbstractTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        self.model = model
        self.proxy = searchable_proxy(model, self)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search…")
        self.search.setAccessibleName(f"Search {title.lower()}")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.proxy.setFilterFixedString)
        self.table = QTableView(self)
        self.table.setAccessibleName(title)
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.table)
        self.resize(1000, 560)
