"""The floor's windows, layout only: the room (one row per open table) and one table's records
(hand history, chip ledger, audit log), read-only."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QAbstractTableModel, QRect, Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QMainWindow,
    QSizePolicy,
    QStyle,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ofc_desk.desk.floor.columns import FLOOR_COLUMNS
from ofc_desk.desk.floor.model import FloorTableModel
from ofc_desk.desk.records.browser import RecordBrowser
from ofc_desk.i18n import _, lazy_gettext

TITLE = lazy_gettext("OFC Desk — Floor")
HINT = lazy_gettext(
    "Enter or a double-click on a table opens its hand history, chip ledger and audit log."
    " Table → Decide a request (Ctrl+D) approves or declines what a desk asked for;"
    " Table → Seed the jackpot (Ctrl+J) adds the house's chips to the room's jackpot pool."
)
RECORD_TITLES = (lazy_gettext("Hand history"), lazy_gettext("Chip ledger"), lazy_gettext("Audit log"))
HEADER_WRAP = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
"""A column's title wraps in its width, as its cells do: a longer language takes two lines there
rather than cut the title short."""


def header_text_height(header: QHeaderView, section: int) -> int:
    """The height the title of `section` takes, wrapped at the section's width."""
    model = header.model()
    text = str(model.headerData(section, header.orientation())) if model is not None else ""
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    room = QRect(0, 0, max(header.sectionSize(section) - 2 * margin, 1), 100_000)
    return header.fontMetrics().boundingRect(room, int(HEADER_WRAP), text).height()


class FloorWindow(QMainWindow):
    def __init__(self, model: FloorTableModel) -> None:
        super().__init__()
        self.setWindowTitle(str(TITLE))
        self.model = model
        self.heading = QLabel(_("Reading the open tables…"), self)
        self.heading.setAccessibleName(_("Open tables"))
        self.heading.setWordWrap(True)  # a new room's heading says why it has no tables yet
        self.jackpot_line = QLabel(self)
        self.jackpot_line.setObjectName("jackpot")
        self.jackpot_line.setAccessibleName(_("Room jackpot pool"))
        self.jackpot_line.setWordWrap(True)
        self.table = QTableView(self)
        self.table.setAccessibleName(_("Open tables"))
        self.table.setModel(model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(True)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        for index, column in enumerate(FLOOR_COLUMNS):
            if column.wide:
                header.setSectionResizeMode(index, QHeaderView.ResizeMode.Stretch)
        header.setDefaultAlignment(HEADER_WRAP)
        # A chosen row would turn every title bold (Qt highlights the sections of a whole row),
        # wider than measured: a title that fitted on two lines then needed three and was cut.
        header.setHighlightSections(False)
        # Once after a resize, not once per column it moved: the fit measures every title and row.
        self._header_fit = QTimer(self)
        self._header_fit.setSingleShot(True)
        self._header_fit.setInterval(0)
        self._header_fit.timeout.connect(self._fit_header_height)
        header.sectionResized.connect(lambda *_moved: self._header_fit.start())
        self.hint = QLabel(str(HINT), self)
        self.hint.setWordWrap(True)  # a longer language wraps it rather than widen the window off the screen
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.addWidget(self.heading)
        layout.addWidget(self.jackpot_line)
        layout.addWidget(self.table)
        layout.addWidget(self.hint)
        self.setCentralWidget(central)
        self.live_line = QLabel(self)
        # Never wider than the window gives it (a long database address in a longer language), and
        # one line: a wrapping label in a status bar asks for two lines whatever its width.
        self.live_line.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.statusBar().addWidget(self.live_line, 1)
        file_menu = self.menuBar().addMenu(_("&File"))
        self.action_shift_report = file_menu.addAction(_("&Shift report…"))
        self.action_shift_report.setShortcut("Ctrl+P")
        file_menu.addSeparator()
        self.action_quit = file_menu.addAction(_("&Quit"))
        self.action_quit.setShortcut(QKeySequence.StandardKey.Quit)
        self.action_quit.triggered.connect(self.close)
        table_menu = self.menuBar().addMenu(_("&Table"))
        self.action_decide = table_menu.addAction(_("&Decide a request…"))
        self.action_decide.setShortcut("Ctrl+D")
        self.action_seed = table_menu.addAction(_("Seed the &jackpot…"))
        self.action_seed.setShortcut("Ctrl+J")
        self.help_menu = self.menuBar().addMenu(_("&Help"))
        self.action_about = self.help_menu.addAction(_("&About OFC Desk"))

    def _fit_header_height(self) -> None:
        """As tall as its most wrapped title (the table view takes the header's minimum height),
        and each row as tall as its most wrapped cell at the columns' new widths."""
        header = self.table.horizontalHeader()
        one_line = header.fontMetrics().height()
        tallest = max((header_text_height(header, section) for section in range(header.count())), default=0)
        header.setMinimumHeight(header.sizeHint().height() + max(tallest - one_line, 0))
        self.table.resizeRowsToContents()  # a narrower column wraps its cells onto more lines


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
