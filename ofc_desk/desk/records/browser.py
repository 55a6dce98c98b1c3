"""A window over one record model: a search box and a sortable table (history, ledger, audit), and
for the audit log the selected event's raw record on demand. Ctrl+F goes to the search box;
Escape and Ctrl+W close the window (as they close a dialog)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ofc_desk.desk.records.models import OBJECT_ROLE, RecordTableModel, searchable_proxy
from ofc_desk.i18n import _

Details = Callable[[Any], str]
"""The full text of one record (the audit log: its stored payload and hashes)."""


class RecordBrowser(QWidget):
    def __init__(
        self,
        title: str,
        model: QAbstractTableModel,
        parent: QWidget | None = None,
        details: Details | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        self.model = model
        self.proxy = searchable_proxy(model, self)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText(_("Search…"))
        self.search.setAccessibleName(_("Search {records}").format(records=title.lower()))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.proxy.setFilterFixedString)
        self.table = QTableView(self)
        self.table.setAccessibleName(title)
        self.table.setModel(self.proxy)
        model.modelReset.connect(self._hide_columns_saying_nothing)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 3)
        self._details = details
        self.details_button: QPushButton | None = None
        self.details_pane: QPlainTextEdit | None = None
        if details is not None:
            self._add_details_pane(top, layout)
        self._add_keys()
        self._fit_screen()

    def _hide_columns_saying_nothing(self) -> None:
        model = self.model
        hidden = model.columns_saying_nothing() if isinstance(model, RecordTableModel) else frozenset()
        for column in range(model.columnCount()):
            self.table.setColumnHidden(column, column in hidden)

    def _add_keys(self) -> None:
        within = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for keys, action in (
            (QKeySequence.StandardKey.Find, self.go_to_search),
            (QKeySequence(Qt.Key.Key_Escape), self.close_window),
            (QKeySequence("Ctrl+W"), self.close_window),
        ):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(within)
            shortcut.activated.connect(action)

    def go_to_search(self) -> None:
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    def close_window(self) -> None:
        """This window, or the floor's records window it is a tab of."""
        self.window().close()

    def _fit_screen(self) -> None:
        """Most of the screen, so the columns show without scrolling sideways where they can."""
        available = self.screen().availableGeometry()
        self.resize(min(available.width() * 9 // 10, 1500), min(available.height() * 8 // 10, 800))

    def _add_details_pane(self, top: QHBoxLayout, layout: QVBoxLayout) -> None:
        button = QPushButton(_("Show the &raw record"), self)
        button.setCheckable(True)
        button.setToolTip(_("The selected row as stored: its payload and the hashes that chain it"))
        pane = QPlainTextEdit(self)
        pane.setReadOnly(True)
        pane.setAccessibleName(_("Raw record of the selected row"))
        pane.setVisible(False)
        button.toggled.connect(self._show_details)
        self.table.selectionModel().currentRowChanged.connect(lambda current, _old: self._fill(current))
        top.addWidget(button)
        layout.addWidget(pane, 2)
        self.details_button, self.details_pane = button, pane

    def _show_details(self, shown: bool) -> None:
        assert self.details_pane is not None and self.details_button is not None
        self.details_pane.setVisible(shown)
        self.details_button.setText(_("Hide the &raw record") if shown else _("Show the &raw record"))
        self._fill(self.table.currentIndex())

    def _fill(self, current: QModelIndex) -> None:
        if self.details_pane is None or self._details is None or not self.details_pane.isVisible():
            return
        record = current.data(OBJECT_ROLE) if current.isValid() else None
        self.details_pane.setPlainText(
            self._details(record) if record is not None else _("Select a row to see its raw record.")
        )
