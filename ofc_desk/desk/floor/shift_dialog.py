"""File → Shift report… in the floor view: the same PDF as `ofc-desk report --shift`, for the
hours the floor supervisor gives (UTC), verified first and written whole or not at all."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLineEdit, QPushButton, QWidget

from ofc_desk.desk.dialogs.attempt import AttemptDialog, Report, run_and_say
from ofc_desk.desk.shell.worker import BackgroundRunner
from ofc_desk.i18n import _, ngettext
from ofc_desk.reports.atomic import write_atomically
from ofc_desk.reports.shift import ShiftWindow, parse_shift_time, verified_shift_report
from ofc_desk.reports.shift_pdf import write_shift_report
from ofc_desk.service.audit.verify import VerifyFault
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.storage.database import Database

DEFAULT_SHIFT = timedelta(hours=8)
TIME_SHOWN = "%Y-%m-%d %H:%M"


def shift_report_dialog(
    database: Database, runner: BackgroundRunner, parent: QWidget, written: Callable[[str], None]
) -> AttemptDialog:
    now = datetime.now(UTC)
    dialog = AttemptDialog(
        _("Shift report"),
        _(
            "Every table open during the shift, for the floor supervisor and the shift manager to sign."
            " Times are UTC; the shift runs from From up to, not including, To. Left as it is, To is"
            " now: the minute under way is in. The room is verified first."
        ),
        parent,
    )
    start = dialog.add_line(_("From (UTC)"), text=(now - DEFAULT_SHIFT).strftime(TIME_SHOWN))
    shown_end = next_minute(now).strftime(TIME_SHOWN)
    end = dialog.add_line(_("To (UTC)"), text=shown_end)
    path = _file_row(dialog)

    def begin(report: Report) -> None:
        try:
            window = shift_window(start.text(), end.text(), shown_end, datetime.now(UTC))
        except ValueError as error:
            report(str(error))
            return
        if not path.text().strip():
            report(_("give the PDF file to write"))
            return
        # Said and written with its whole folder: "written to shift.pdf" leaves the supervisor
        # to guess which folder the floor was started in.
        target = str(Path(path.text().strip()).expanduser().resolve())
        run_and_say(
            runner, _("Writing the shift report…"), lambda: _write(database, window, target), report, written
        )

    dialog.set_background_attempt(begin)
    return dialog


def next_minute(moment: datetime) -> datetime:
    """The minute after the one under way: a shift up to it, not including it, runs to now."""
    return moment.replace(second=0, microsecond=0) + timedelta(minutes=1)


def shift_window(start: str, end: str, shown_end: str, now: datetime) -> ShiftWindow:
    """The shift the dialog's fields give. A To left as the dialog showed it means now, when the
    report is written (the minute under way included), however long the dialog stayed open."""
    ending = next_minute(now) if end.strip() == shown_end else parse_shift_time(end)
    return ShiftWindow(parse_shift_time(start), ending)


def _write(database: Database, window: ShiftWindow, target: str) -> str:
    try:
        report = verified_shift_report(database, window)
    except VerifyFault as fault:
        raise ActionRefused(
            _("verify failed: {fault}; no shift report was written").format(fault=fault)
        ) from None
    try:
        write_atomically(target, lambda temporary: write_shift_report(report, temporary))
    except OSError as error:
        raise ActionRefused(
            _("cannot write {path}: {reason}").format(path=target, reason=error.strerror or error)
        ) from None
    tables = len(report.tables)
    return ngettext(
        "Shift report of {count} table written to {path}",
        "Shift report of {count} tables written to {path}",
        tables,
    ).format(count=tables, path=target)


def _file_row(dialog: AttemptDialog) -> QLineEdit:
    """The PDF's path, typed or chosen in a file dialog (Choose…, Tab then Enter)."""
    row = QWidget(dialog)
    path = QLineEdit("shift-report.pdf", row)
    path.setAccessibleName(_("PDF file"))
    choose = QPushButton(_("&Choose…"), row)
    choose.setAccessibleName(_("Choose the PDF file"))

    def chosen() -> None:
        name, _filter = QFileDialog.getSaveFileName(
            dialog, _("Save the shift report"), path.text(), _("PDF files (*.pdf)")
        )
        if name:
            path.setText(name)
            path.setFocus()

    choose.clicked.connect(chosen)
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(path, 1)
    layout.addWidget(choose)
    dialog.form.addRow(_("PDF file"), row)
    return path
