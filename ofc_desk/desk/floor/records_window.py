"""One table's records at the floor (hand history, chip ledger, audit log), read-only: loaded when
a supervisor first opens a table's records, not before the room is listed."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QAbstractTableModel, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from ofc_desk.desk.records.browser import RecordBrowser
from ofc_desk.i18n import _, lazy_gettext

RECORD_TITLES = (lazy_gettext("Hand history"), lazy_gettext("Chip ledger"), lazy_gettext("Audit log"))


class TableRecordsWindow(QWidget):
    """One table's records in three tabs; every view is read-only (no edit triggers)."""

    def __init__(self, table: str, models: tuple[QAbstractTableModel, ...], parent: QWidget) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle(_("{table} — records (read-only)").format(table=table))
        self.tabs = QTabWidget(self)
        titles = [str(title) for title in RECORD_TITLES]
        self.browsers = tuple(
            RecordBrowser(title, model) for title, model in zip(titles, models, strict=True)
        )
        for title, browser in zip(titles, self.browsers, strict=True):
            self.tabs.addTab(browser, title)
        # Ctrl+Tab leaves the keys on the tab just hidden: give them to the one shown, whose
        # Escape and Ctrl+W close the window; and the tab bar (clicked) closes it with them too.
        self.tabs.currentChanged.connect(lambda index: self.browsers[index].table.setFocus())
        for keys in (QKeySequence(Qt.Key.Key_Escape), QKeySequence("Ctrl+W")):
            closer = QShortcut(keys, self.tabs.tabBar())
            closer.setContext(Qt.ShortcutContext.WidgetShortcut)
            closer.activated.connect(self.close)
        # Ctrl+Tab moves between the tabs from a records table too (a table with rows would take
        # it as Tab and move its cell instead).
        for standard, step in (
            (QKeySequence.StandardKey.NextChild, 1),
            (QKeySequence.StandardKey.PreviousChild, -1),
        ):
            switch = QShortcut(QKeySequence(standard), self)
            switch.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            switch.activated.connect(partial(self._step_tab, step))
        self.status = QLabel(_("Reading the records…"), self)
        self.status.setWordWrap(True)  # what was read, in a longer language, must not widen the window
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(self.status)
        # Most of the screen, as the desk's record windows: the transfers' column shows without
        # scrolling sideways where the screen lets it.
        available = parent.screen().availableGeometry()
        self.resize(min(available.width() * 9 // 10, 1500), min(available.height() * 8 // 10, 800))

    def _step_tab(self, step: int) -> None:
        self.tabs.setCurrentIndex((self.tabs.currentIndex() + step) % self.tabs.count())
