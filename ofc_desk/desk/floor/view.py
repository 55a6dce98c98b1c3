"""The floor's window, layout only: the room, one row per open table (a table's records open in
`records_window`, loaded when first opened)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QRect, Qt, QTimer
from PySide6.QtGui import QKeySequence, QPaintEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QMainWindow,
    QSizePolicy,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ofc_desk.desk.floor.columns import FLOOR_COLUMNS
from ofc_desk.desk.floor.model import FloorTableModel
from ofc_desk.i18n import _, lazy_gettext

TITLE = lazy_gettext("OFC Desk — Floor")
HINT = lazy_gettext(
    "Enter or a double-click on a table opens its hand history, chip ledger and audit log."
    " Table → Decide a request (Ctrl+D) approves or declines what a desk asked for;"
    " Table → Seed the jackpot (Ctrl+J) adds the house's chips to the room's jackpot pool."
)
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


class FloorTableView(QTableView):
    """The floor's table, which calls `fit_rows` each time Qt lays it out again (a column's width
    or the viewport's changed, as a scroll bar comes or goes): before the next paint, where a
    timer's fit came after it, and that paint showed rows fitted to the widths before. It says
    when it has painted its rows, once asked (`tell_after_paint`)."""

    def __init__(self, parent: QWidget, fit_rows: Callable[[], None]) -> None:
        super().__init__(parent)
        self._fit_rows = fit_rows
        self._after_paint: Callable[[], None] | None = None

    def updateGeometries(self) -> None:
        super().updateGeometries()
        self._fit_rows()

    def tell_after_paint(self, told: Callable[[], None]) -> None:
        """`told` called once, as the table's next paint of its rows ends."""
        self._after_paint = told

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if (told := self._after_paint) is not None:
            self._after_paint = None
            told()


class FloorWindow(QMainWindow):
    def __init__(self, model: FloorTableModel) -> None:
        super().__init__()
        self.setWindowTitle(str(TITLE))
        self.model = model
        self._rows_fitted_to: tuple[int, ...] = ()
        """The columns' widths the rows were last fitted at."""
        self.heading = QLabel(_("Reading the open tables…"), self)
        self.heading.setAccessibleName(_("Open tables"))
        self.heading.setWordWrap(True)  # a new room's heading says why it has no tables yet
        self.jackpot_line = QLabel(self)
        self.jackpot_line.setObjectName("jackpot")
        self.jackpot_line.setAccessibleName(_("Room jackpot pool"))
        self.jackpot_line.setWordWrap(True)
        self.table = FloorTableView(self, self._fit_rows_if_moved)
        self.table.setAccessibleName(_("Open tables"))
        self.table.setModel(model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(True)
        self.table.verticalHeader().setVisible(False)
        # The rows are fitted by the window itself, once a reading or change (`_fit_rows`): a header
        # resizing to contents fitted every row again at each layout pass, five times a listing.
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header = self.table.horizontalHeader()
        # The columns that are not wide are fitted to their contents by the window itself, once a
        # reading or change (`_fit_columns`): Qt's size-to-contents mode measured each of them again
        # at every layout pass, three a listing, though only new words can change their widths.
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self._fitted_columns = tuple(index for index, column in enumerate(FLOOR_COLUMNS) if not column.wide)
        for index, column in enumerate(FLOOR_COLUMNS):
            if column.wide:
                header.setSectionResizeMode(index, QHeaderView.ResizeMode.Stretch)
        header.setDefaultAlignment(HEADER_WRAP)
        # A chosen row would turn every title bold (Qt highlights the sections of a whole row),
        # wider than measured: a title that fitted on two lines then needed three and was cut.
        header.setHighlightSections(False)
        # Once after a resize, not once per column it moved: the fit measures every title and row.
        self._header_fit = self._once_events_settle(self._fit_header_height)
        header.sectionResized.connect(lambda *_moved: self._header_fit.start())
        # Once after a new font or style, not once per event: a style sheet set sends several.
        self._restyled_fit = self._once_events_settle(self._fit_to_contents)
        model.modelReset.connect(self._fit_to_contents)
        model.dataChanged.connect(
            lambda first, last: self._fit_to_contents(range(first.row(), last.row() + 1))
        )
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
        self.ensurePolished()  # measured in the style and font it is shown in
        self._fit_columns()  # the titles alone, before the first reading

    def _once_events_settle(self, fit: Callable[[], None]) -> QTimer:
        """A timer that, started any number of times, calls `fit` once the events queued are done."""
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(0)
        timer.timeout.connect(fit)
        return timer

    def changeEvent(self, event: QEvent) -> None:
        """A new font or style (a style sheet, a font set on the window) measures every word anew:
        the columns and rows fitted once a reading are fitted again. Not before the window is
        polished: the window's first fit, after polishing, measures in its font already."""
        super().changeEvent(event)
        polished = self.testAttribute(Qt.WidgetAttribute.WA_WState_Polished)
        if polished and event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._restyled_fit.start()

    def _fit_to_contents(self, rows: range | None = None) -> None:
        """The columns fitted to the model's words, then each row of `rows` (all when None)."""
        self._fit_columns()
        if rows is None:
            # Laid out for the new rows first: a scroll bar they bring (Qt shows it at a queued
            # call, sent now) narrows the stretched columns, and the rows are fitted once, at the
            # widths it leaves (by the layout's pass, `updateGeometries`), not at the widths before
            # it as well: 24 rows' fit is about 25 M instructions.
            before = self._rows_fitted_to = self._column_widths()
            self.table.updateGeometries()
            QCoreApplication.sendPostedEvents(self.table, QEvent.Type.MetaCall)
            if self._rows_fitted_to is not before:
                return  # fitted by the pass the scroll bar made
        self._fit_rows(rows)

    def _fit_columns(self) -> None:
        """Each column that is not wide as wide as its title or its widest cell, as Qt's
        size-to-contents mode sizes it (the same two measures, within the header's bounds). A
        cell's width does not depend on the columns' widths: it is measured on one line."""
        header = self.table.horizontalHeader()
        for section in self._fitted_columns:
            wanted = max(self.table.sizeHintForColumn(section), header.sectionSizeHint(section))
            header.resizeSection(
                section, min(max(wanted, header.minimumSectionSize()), header.maximumSectionSize())
            )

    def _fit_header_height(self) -> None:
        """As tall as its most wrapped title (the table view takes the header's minimum height); the
        rows follow the columns' new widths by `FloorTableView.updateGeometries`."""
        header = self.table.horizontalHeader()
        one_line = header.fontMetrics().height()
        tallest = max((header_text_height(header, section) for section in range(header.count())), default=0)
        header.setMinimumHeight(header.sizeHint().height() + max(tallest - one_line, 0))

    def _fit_rows_if_moved(self) -> None:
        """The rows fitted again if a column's width moved since (a narrower column wraps its cells
        onto more lines); Qt lays the table out again far more often than that."""
        if self._column_widths() != self._rows_fitted_to:
            self._fit_rows()

    def _fit_rows(self, rows: range | None = None) -> None:
        """Each row of `rows` (all when None) as tall as its most wrapped cell, at the columns' widths
        once laid out for the rows the model now has (the header lays them out when asked its length)."""
        self.table.horizontalHeader().length()
        if rows is None:
            self.table.resizeRowsToContents()
        else:
            for row in rows:
                self.table.resizeRowToContents(row)
        self._rows_fitted_to = self._column_widths()

    def _column_widths(self) -> tuple[int, ...]:
        header = self.table.horizontalHeader()
        return tuple(header.sectionSize(section) for section in range(header.count()))
