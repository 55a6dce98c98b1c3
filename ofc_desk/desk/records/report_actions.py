"""File → Session report… (and the table-close page): build the PDF off the UI thread, preview
it, print it, save it.

The report is reportlab's PDF (`ofc_desk.reports`); the preview and the printer get its pages as
images rendered with PDFium (pypdfium2), because PySide6-Essentials has no QtPdf. "Save as PDF"
writes the reportlab file itself, byte for byte, not a re-print.
"""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Callable
from datetime import date
from pathlib import Path

from PySide6.QtCore import (
    QEvent,
    QObject,
    QRect,
    QRunnable,
    QSize,
    Qt,
    QThreadPool,
    Signal,
)
from PySide6.QtGui import QAction, QImage, QKeyEvent, QKeySequence, QPainter
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import QFileDialog, QProgressDialog, QToolBar, QToolButton, QWidget

from ofc_desk.desk import refusals
from ofc_desk.desk.records.report_folder import remember_report_folder, report_folder
from ofc_desk.i18n import Language, _, active_language, in_language

SAVE_KEYS, PRINT_KEYS = QKeySequence.StandardKey.Save, QKeySequence.StandardKey.Print
PREVIEW_DPI = 150
MAX_PRINT_DPI = 200
MIN_PREVIEW_WIDTH = 900
PREVIEW_MARGIN = 24
"""Pixels around the preview's toolbar (the dialog's layout margins)."""
_running: set[QObject] = set()
"""Jobs' signal carriers, kept alive until their job reports back."""
_open_previews: set[QPrintPreviewDialog] = set()
Refuse = Callable[[str], None]
"""Shows a refusal where the report was asked for (ofc_desk.desk.refusals): never a modal box."""


def build_session_report(
    database_url: str | None, session_id: int | None, room: str = "", language: Language | None = None
) -> bytes:
    """The session report of a stored session as PDF bytes (runs in a worker thread), in
    `language` (default: the desk's). Read in it too: the loader says some words as it reads (an
    undo's entry, the rules page's values)."""
    from ofc_desk.reports.loader import load_session_record
    from ofc_desk.reports.session_pdf import write_session_report

    chosen = language or active_language()
    with in_language(chosen):
        record = load_session_record(database_url, session_id=session_id, room=room)
    buffer = io.BytesIO()
    write_session_report(record, buffer, chosen)
    return buffer.getvalue()


def build_table_close_report(
    database_url: str | None,
    session_id: int | None,
    counted: int | None,
    room: str = "",
    language: Language | None = None,
    counted_by: str = "",
) -> bytes:
    """The table-close report as PDF bytes (runs in a worker thread), read and written in
    `language` (default: the desk's); `counted_by` the supervisor who entered the count."""
    from ofc_desk.reports.loader import load_session_record
    from ofc_desk.reports.table_close_pdf import write_table_close_report

    with in_language(language or active_language()):
        record = load_session_record(database_url, session_id=session_id, room=room)
        buffer = io.BytesIO()
        write_table_close_report(record, buffer, counted, counted_by=counted_by)
    return buffer.getvalue()


class PdfPages:
    """Renders the PDF's pages one at a time (a long report never sits in memory as images)."""

    def __init__(self, pdf: bytes) -> None:
        import pypdfium2

        self._document = pypdfium2.PdfDocument(pdf)

    def __len__(self) -> int:
        return len(self._document)

    def close(self) -> None:
        self._document.close()

    def image(self, index: int, dpi: int = PREVIEW_DPI) -> QImage:
        page = self._document[index]
        bitmap = page.render(scale=dpi / 72, rev_byteorder=True)
        image = QImage(bitmap.buffer, bitmap.width, bitmap.height, bitmap.stride, QImage.Format.Format_RGB888)
        return image.copy()  # the bitmap's memory goes with the page


def pdf_pages(pdf: bytes) -> PdfPages | None:
    """The pages of `pdf`, or None when pypdfium2 is not installed."""
    try:
        return PdfPages(pdf)
    except ImportError:
        return None


class _JobSignals(QObject):
    finished = Signal(bytes)
    failed = Signal(str)


class _ReportJob(QRunnable):
    def __init__(self, signals: _JobSignals, build: Callable[[], bytes]) -> None:
        super().__init__()
        self.signals = signals
        self._build = build

    def run(self) -> None:
        try:
            pdf = self._build()
        except Exception as error:  # the dealer sees the reason; the desk keeps running
            self.signals.failed.emit(str(error) or type(error).__name__)
            return
        self.signals.finished.emit(pdf)


class ReportPreview(QPrintPreviewDialog):
    """Qt's print preview of the report, saved (Ctrl+S) or printed (Ctrl+P) by keyboard as by
    mouse: Tab reaches every button of its toolbar, Save and Print first, and Enter presses the one
    it is on. Print opens the print dialog, then paints the report's pages onto the printer."""

    def __init__(
        self,
        pdf: bytes,
        pages: PdfPages,
        parent: QWidget | None,
        title: str | None = None,
        table: str = "",
    ) -> None:
        """`table`: the table the report is of, which the file's proposed name says."""
        # Kept on the dialog: Qt does not own the printer it is given.
        self._report_printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        super().__init__(self._report_printer, parent)
        self.pdf = pdf
        self.pages = pages
        title = title or _("Session report")
        self.setWindowTitle(title)
        self.setAccessibleName(_("{report} print preview").format(report=title))
        self.title = title
        self.table = table
        self.paintRequested.connect(self.paint_pages)
        save = QAction(_("Save as PDF… (Ctrl+S)"), self)
        save.setObjectName("save_report_pdf")
        save.triggered.connect(self.ask_and_save)
        print_report = QAction(_("Print… (Ctrl+P)"), self)
        print_report.setObjectName("print_report")
        print_report.triggered.connect(self.print_report)
        self.refusal = refusals.refusal_label(self)
        self.notice = refusals.notice_label(self)
        self.save_action, self.print_action = save, print_report
        self.addActions([save, print_report])
        toolbar = self.findChild(QToolBar)
        if toolbar is None:
            return
        # First in the toolbar, so a narrow window pushes Qt's zoom buttons into the overflow menu,
        # never Save or Print (Qt's own Print, last, is this one's); the refusal gets its own line
        # below the pages instead of squeezing the bar.
        qt_actions = toolbar.actions()
        if qt_actions:
            qt_actions[-1].setVisible(False)  # Qt's Print, its last (by place: Qt translates its text)
            toolbar.insertActions(qt_actions[0], [save, print_report])
            toolbar.insertSeparator(qt_actions[0])
        else:
            toolbar.addActions([save, print_report])
        self._tab_through(toolbar)
        layout = self.layout()
        if layout is not None:
            layout.addWidget(self.refusal)
            layout.addWidget(self.notice)
        self.resize(_default_size(toolbar, self.screen().availableGeometry().size()))

    def event(self, event: QEvent) -> bool:
        """Ctrl+S and Ctrl+P are the preview's while it is up, not the main window's (whose Ctrl+P
        would open another report): taken as keys here before any shortcut sees them."""
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            ours = self._action_for(event) is not None
            if ours:
                event.accept()
            return ours or super().event(event)
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        action = self._action_for(event)
        focused = self.focusWidget()
        if action is not None:
            action.trigger()
        elif event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and isinstance(focused, QToolButton):
            focused.click()  # a toolbar button the dealer tabbed to: Enter presses it
        else:
            super().keyPressEvent(event)

    def _action_for(self, event: QKeyEvent) -> QAction | None:
        pressed = QKeySequence(event.keyCombination())
        for action, keys in ((self.save_action, SAVE_KEYS), (self.print_action, PRINT_KEYS)):
            bindings = QKeySequence.keyBindings(keys)
            if any(pressed.matches(keys) == QKeySequence.SequenceMatch.ExactMatch for keys in bindings):
                return action
        return None

    def _tab_through(self, toolbar: QToolBar) -> None:
        """Every toolbar button takes Tab (Qt's take only the mouse), in the toolbar's order."""
        shown = {action: index for index, action in enumerate(toolbar.actions())}
        buttons = [button for button in toolbar.findChildren(QToolButton) if button.defaultAction() in shown]
        buttons.sort(key=lambda button: shown[button.defaultAction()])
        for button in buttons:
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        for before, after in itertools.pairwise(buttons):
            QWidget.setTabOrder(before, after)

    def print_report(self) -> None:
        """The print dialog, then every page onto the printer chosen."""
        if self.choose_printer(self._report_printer):
            self.paint_pages(self._report_printer)

    def choose_printer(self, printer: QPrinter) -> bool:
        dialog = QPrintDialog(printer, self)
        dialog.setWindowTitle(_("Print the {report}").format(report=self.title.lower()))
        return dialog.exec() == QPrintDialog.DialogCode.Accepted

    def paint_pages(self, printer: QPrinter) -> None:
        dpi = min(printer.resolution(), MAX_PRINT_DPI)
        painter = QPainter(printer)
        try:
            for index in range(len(self.pages)):
                if index:
                    printer.newPage()
                image = self.pages.image(index, dpi)
                area = painter.viewport()
                size = image.size().scaled(area.size(), Qt.AspectRatioMode.KeepAspectRatio)
                painter.drawImage(QRect(area.x(), area.y(), size.width(), size.height()), image)
        finally:
            painter.end()

    def done(self, result: int) -> None:
        """Closing the preview lets go of the PDF's pages."""
        super().done(result)
        _open_previews.discard(self)
        self.pages.close()

    def save_pdf(self, path: str) -> None:
        from ofc_desk.reports.atomic import write_atomically

        write_atomically(path, self._write_pdf)

    def _write_pdf(self, path: str) -> None:
        with open(path, "wb") as out:
            out.write(self.pdf)

    def ask_and_save(self) -> None:
        suggested = str(report_folder() / report_file_name(self.title, self.table, date.today()))
        path, _filter = QFileDialog.getSaveFileName(
            self, _("Save {report}").format(report=self.title.lower()), suggested, _("PDF files (*.pdf)")
        )
        if not path:
            return
        try:
            self.save_pdf(path)
        except OSError as error:
            refusals.show_on(
                self.refusal, _("could not save {path}: {reason}").format(path=path, reason=error.strerror)
            )
            return
        remember_report_folder(Path(path).parent)
        refusals.show_on(self.refusal, "")
        self.notice.setText(_("Saved: {path}").format(path=str(Path(path).resolve())))


def report_file_name(title: str, table: str, day: date) -> str:
    """ "session-report-jade-1-2026-12-06.pdf": the report, its table and the day, in letters every
    file system keeps (a name's other characters become hyphens)."""
    words = [title, table, day.isoformat()] if table else [title, day.isoformat()]
    slug = "-".join(_FILE_UNSAFE.sub("-", word.strip().lower()).strip("-") for word in words if word.strip())
    return f"{slug}.pdf"


_FILE_UNSAFE = re.compile(r"[^\w.]+")


def _default_size(toolbar: QToolBar, screen: QSize) -> QSize:
    """Wide enough for the whole toolbar and a readable page, tall enough for most of one; never
    bigger than the screen."""
    width = max(toolbar.sizeHint().width() + PREVIEW_MARGIN, MIN_PREVIEW_WIDTH)
    height = screen.height() * 9 // 10
    return QSize(min(width, screen.width()), height)


def open_session_report(
    parent: QWidget | None,
    database_url: str | None,
    session_id: int | None,
    room: str = "",
    *,
    refuse: Refuse,
    language: Language | None = None,
    table: str = "",
) -> None:
    """Build the session report in the background, then show its print preview (`table`: its
    table's name, for the file's proposed name).

    `room` is the card room's name for the header (sessions do not store it); `language` the
    report's, chosen when printing (default: the desk's, taken now: the job runs on another thread)."""
    chosen = language or active_language()
    _open_in_background(
        parent,
        _("Session report"),
        _("Building the session report…"),
        lambda: build_session_report(database_url, session_id, room, chosen),
        refuse,
        table,
    )


def open_table_close_report(
    parent: QWidget | None,
    database_url: str | None,
    session_id: int | None,
    counted: int | None,
    room: str = "",
    *,
    refuse: Refuse,
    counted_by: str = "",
    table: str = "",
) -> None:
    """The one-page table-close report; `counted` is the supervisor's chip count (None: blank),
    entered by the supervisor `counted_by`. In the desk's language, taken now: the job runs on
    another thread."""
    chosen = active_language()
    _open_in_background(
        parent,
        _("Table close"),
        _("Building the table close report…"),
        lambda: build_table_close_report(database_url, session_id, counted, room, chosen, counted_by),
        refuse,
        table,
    )


def _open_in_background(
    parent: QWidget | None,
    title: str,
    building: str,
    build: Callable[[], bytes],
    refuse: Refuse,
    table: str = "",
) -> None:
    progress = QProgressDialog(building, "", 0, 0, parent)
    progress.setCancelButton(None)
    progress.setWindowTitle(title)
    progress.setMinimumDuration(300)
    signals = _JobSignals()
    _running.add(signals)

    def done(pdf: bytes) -> None:
        _running.discard(signals)
        progress.close()
        show_preview(parent, pdf, title, refuse=refuse, table=table)

    def failed(message: str) -> None:
        _running.discard(signals)
        progress.close()
        refuse(_("the report could not be built: {reason}").format(reason=message))

    signals.finished.connect(done)
    signals.failed.connect(failed)
    QThreadPool.globalInstance().start(_ReportJob(signals, build))


def show_preview(
    parent: QWidget | None, pdf: bytes, title: str | None = None, *, refuse: Refuse, table: str = ""
) -> ReportPreview | None:
    """Open the preview window (not blocking the desk); None if pages cannot be rendered."""
    title = title or _("Session report")
    pages = pdf_pages(pdf)
    if pages is None:
        refuse(_("no print preview: it needs pypdfium2, which is not installed; save the PDF instead"))
        path, _filter = QFileDialog.getSaveFileName(
            parent, _("Save {report}").format(report=title.lower()), "", _("PDF files (*.pdf)")
        )
        if path:
            with open(path, "wb") as out:
                out.write(pdf)
        return None
    preview = ReportPreview(pdf, pages, parent, title, table)
    # Without a parent nothing else holds the window: keep it until the dealer closes it.
    _open_previews.add(preview)
    preview.open()
    return preview
