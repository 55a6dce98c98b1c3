"""Wires the floor together: the listening thread's readings into the model and the status line,
Enter or a double-click on a row into that table's records (read on the worker thread, shown
read-only)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QModelIndex, QObject, Qt

from ofc_desk import __version__
from ofc_desk.desk.floor.model import FloorTableModel
from ofc_desk.desk.floor.view import FloorWindow
from ofc_desk.desk.floor.watcher import FloorWatcher
from ofc_desk.desk.shell.collector import LaunchHold
from ofc_desk.desk.shell.worker import BackgroundRunner
from ofc_desk.i18n import _, lazy_gettext, ngettext
from ofc_desk.i18n.formatting import number
from ofc_desk.service.oversight.floor_kept import FloorRoom
from ofc_desk.storage.database import Database

if TYPE_CHECKING:  # the dialogs, the records and what they read load when first opened
    from ofc_desk.desk.dialogs.attempt import AttemptDialog
    from ofc_desk.desk.floor.records_window import TableRecordsWindow
    from ofc_desk.service.store.records import AuditRecord, HandRecord, LedgerRecord

ABOUT = lazy_gettext(
    """# OFC Desk {version} — Floor

The floor supervisor's window over every open table of the room: it reads the tables' records,
and writes only the requests it decides, the jackpot's seeds and the shift report.

- Licence: MIT
- Database in use: `{database}`
"""
)
SHOWN = QEvent.Type(QEvent.registerEventType())
"""The window has painted a reading (posted from the paint, so handled after it)."""
Records = tuple[Sequence["HandRecord"], Sequence["LedgerRecord"], Sequence["AuditRecord"]]
"""A table's hand history, chip ledger and audit log, as its records window shows them."""


class FloorController(QObject):
    def __init__(self, database: Database) -> None:
        super().__init__()
        self.database = database
        self.model = FloorTableModel(self)
        self.window = FloorWindow(self.model)
        self.records: dict[int, TableRecordsWindow] = {}
        self.runner = BackgroundRunner(self)
        self.watcher = FloorWatcher(database, self)
        self.watcher.room_read.connect(self.on_room_read)
        self.watcher.trouble.connect(self.on_trouble)
        # Enter on a row or a double-click (Qt's `activated` is both).
        self.window.table.activated.connect(self.open_records)
        self.window.action_shift_report.triggered.connect(self.on_shift_report)
        self.window.action_decide.triggered.connect(self.on_decide)
        self.window.action_seed.triggered.connect(self.on_seed)
        self.window.action_about.triggered.connect(self.on_about)
        self.shift_dialog: AttemptDialog | None = None
        self.decision_dialog: AttemptDialog | None = None
        self.seed_dialog: AttemptDialog | None = None
        self.launch = LaunchHold(held=False)
        """The collector's hold through the launch (`app.run_floor`), ended once a reading is shown."""
        self._told_shown = False
        """The watcher is told (or will be, after the table's next paint) the first reading is shown
        (`_tell_once_painted`)."""

    def start(self) -> None:
        self.window.show()
        self.watcher.start()

    def stop(self) -> None:
        self.watcher.stop()
        self.runner.wait()

    def on_room_read(self, room: FloorRoom) -> None:
        self._tell_once_painted()
        current = self.window.table.currentIndex()
        was = self.model.table_at(current.row()).session_id if current.isValid() else None
        self.model.set_tables(room.tables)
        self._keep_a_row_current(was)
        self.window.heading.setText(room_heading(room))
        self.window.jackpot_line.setText(jackpot_words(room))
        self.window.live_line.setText(
            _("Live ({how}) · updated {time} UTC · {where}").format(
                how=self.watcher.live_by, time=f"{room.read_at:%H:%M:%S}", where=self._where()
            )
        )
        self.launch.end()

    def _tell_once_painted(self) -> None:
        """The watcher told the first reading is shown once the window has painted it (it then
        loads the rules, which would otherwise share the interpreter with that paint): by an event
        the table's next paint posts, handled after the paint. A window off the screen paints
        nothing: told at once. Later readings wait for nothing (nor does the watcher). The table
        itself says when it has painted: a filter on its viewport needs the viewport's Python
        wrapper, which PySide makes by trying every widget class it knows (about 50 M instructions
        of the launch, most of QtWidgets' classes and their enums made)."""
        if self._told_shown:
            return
        self._told_shown = True
        handle = self.window.windowHandle()
        if handle is not None and handle.isExposed():
            self.window.table.tell_after_paint(self._tell_shown)
        else:
            self._tell_shown()

    def _tell_shown(self) -> None:
        QCoreApplication.postEvent(self, QEvent(SHOWN))

    def customEvent(self, event: QEvent) -> None:
        if event.type() == SHOWN:
            self.watcher.listing_shown()

    def on_trouble(self, sentence: str) -> None:
        self.window.live_line.setText(_("NOT LIVE: {reason} · trying again…").format(reason=sentence))
        self.launch.end()

    def open_records(self, index: QModelIndex) -> None:
        from ofc_desk.desk.floor.records_window import TableRecordsWindow
        from ofc_desk.desk.records.models import AuditModel, HandHistoryModel, LedgerModel, RecordTableModel
        from ofc_desk.service import audit_log, chip_ledger, hand_history

        table = self.model.table_at(index.row())
        window = self.records.get(table.session_id)
        if window is None:
            models = (HandHistoryModel(self), LedgerModel(self), AuditModel(self))
            window = TableRecordsWindow(table.table, models, self.window)
            self.records[table.session_id] = window
        window.show()
        window.raise_()
        database, session_id = self.database, table.session_id

        def read() -> Records:
            return (
                hand_history(database, session_id),
                chip_ledger(database, session_id),
                audit_log(database, session_id),
            )

        def show(records: Records) -> None:
            for browser, rows in zip(window.browsers, records, strict=True):
                model = browser.model
                assert isinstance(model, RecordTableModel)
                model.set_records(rows)
            window.status.setText(records_read(*(len(rows) for rows in records)))

        def fail(sentence: str) -> None:
            window.status.setText(sentence)

        self.runner.run(_("Reading {table}'s records…").format(table=table.table), read, show, fail)

    def on_shift_report(self) -> None:
        from ofc_desk.desk.floor.shift_dialog import shift_report_dialog

        self.shift_dialog = shift_report_dialog(self.database, self.runner, self.window, self.say)
        self.shift_dialog.open()

    def on_decide(self) -> None:
        from ofc_desk.desk.floor.decision_dialog import decision_dialog

        self.decision_dialog = decision_dialog(
            self.database, self.model.tables, self.runner, self.window, self.say
        )
        self.decision_dialog.open()

    def on_seed(self) -> None:
        from ofc_desk.desk.floor.seed_dialog import seed_dialog

        self.seed_dialog = seed_dialog(self.database, self.model.tables, self.runner, self.window, self.say)
        self.seed_dialog.open()

    def on_about(self) -> None:
        from ofc_desk.desk.dialogs.text import TextDialog

        text = str(ABOUT).format(version=__version__, database=self._where())
        about = TextDialog(_("About OFC Desk"), text, self.window)
        about.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        about.open()

    def _keep_a_row_current(self, session_id: int | None) -> None:
        """A row is always current once there is one, the same table's after the list changed:
        Enter opens the first table's records without a Down first (a view starts with none)."""
        table, model = self.window.table, self.model
        if not model.rowCount() or table.currentIndex().isValid():
            return
        rows = [row for row in range(model.rowCount()) if model.table_at(row).session_id == session_id]
        table.setCurrentIndex(model.index(rows[0] if rows else 0, 0))

    def say(self, sentence: str) -> None:
        """What a floor dialog did, in the status bar for ten seconds."""
        self.window.statusBar().showMessage(sentence, timeout=10_000)

    def _where(self) -> str:
        return self.database.engine.url.render_as_string(hide_password=True)


def records_read(hands: int, movements: int, events: int) -> str:
    """What a table's records window read, and when."""
    return _(
        "Read at {time} UTC: {hands}, {movements}, {events}."
        " Read-only; Enter on the table again reads the latest."
    ).format(
        time=f"{datetime.now(UTC):%H:%M:%S}",
        hands=ngettext("{count} hand", "{count} hands", hands).format(count=hands),
        movements=ngettext("{count} chip movement", "{count} chip movements", movements).format(
            count=movements
        ),
        events=ngettext("{count} event", "{count} events", events).format(count=events),
    )


def jackpot_words(room: FloorRoom) -> str:
    """The room's jackpot pool as last read: every table's drops and seeds less the awards paid
    (nothing said before it is read: a first listing of kept tables, moments before)."""
    if room.not_ready is not None or room.jackpot_pool is None:
        return ""
    return _("Room jackpot pool: {chips}").format(chips=number(room.jackpot_pool))


def room_heading(room: FloorRoom) -> str:
    """What the room holds, over the list: a new room says so and why, rather than an empty list."""
    count = len(room.tables)
    if room.not_ready is not None and not room.ever_opened:
        return _("No tables yet: {reason}. Then each table appears here as its desk opens it.").format(
            reason=room.not_ready
        )
    if room.not_ready is not None:
        return _(
            "The tables cannot be shown: {reason}. The list comes back by itself once they can be."
        ).format(reason=room.not_ready)
    if room.still_reading:  # a floor started without checkpoints lists a room's day a few at a time
        return ngettext(
            "Reading the open tables: {more} more table to list…",
            "Reading the open tables: {more} more tables to list…",
            room.still_reading,
        ).format(more=room.still_reading)
    if count == 0 and room.ever_opened:
        return _("No open tables: each table appears here as its desk opens it.")
    if count == 0:
        return _("No tables yet: each table appears here as its desk opens it.")
    return ngettext("{count} open table", "{count} open tables", count).format(count=count)
