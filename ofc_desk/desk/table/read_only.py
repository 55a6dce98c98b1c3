"""A desk whose table another desk took over (issue 34): nothing is offered, the entry line takes
no card, and every key says why (`TableService.taken_elsewhere`, read by the watch each second and
whenever an action is refused). Menus stay open: the dealer opens another table."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QWidget

from ofc_desk.desk import refusals
from ofc_desk.desk.shell.main_window import MainWindow
from ofc_desk.desk.table.table_view import ServiceGetter

SHORTCUT_MODIFIERS = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
"""Keys with these reach the menus still (the actions the table offers are greyed out)."""


class TakenTableGuard(QObject):
    """Swallows the keys of a desk whose table was taken over, and says why at each."""

    def __init__(self, window: MainWindow, service: ServiceGetter, parent: QObject) -> None:
        super().__init__(parent)
        self.window = window
        self.service = service
        self.filtering = False
        """Whether the application's keys pass through the guard (only while the desk is read-only)."""

    def reason(self) -> str | None:
        """Why this desk is read-only; None while it holds its table."""
        service = self.service()
        return None if service is None else service.taken_elsewhere

    def show(self) -> None:
        """The window as a read-only desk: the line takes nothing, and says why."""
        reason = self.reason()
        self.window.entry.line.setReadOnly(reason is not None)
        self._filter_keys(reason is not None)
        if reason is not None:
            refusals.show_in_window_and_status(self.window, reason)

    def _filter_keys(self, read_only: bool) -> None:
        """The application's keys pass through the guard only while the desk is read-only: an
        application-wide filter written in Python is called for every event of every widget (a
        desk test's run made 770,000 such calls, all for nothing while the table was held)."""
        app = QApplication.instance()
        if app is None or read_only == self.filtering:
            return
        if read_only:
            app.installEventFilter(self)
        else:
            app.removeEventFilter(self)
        self.filtering = read_only

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent):
            return False
        if event.modifiers() & SHORTCUT_MODIFIERS or not isinstance(watched, QWidget):
            return False
        if watched.window() is not self.window:
            return False  # a dialog of its own (Open a table, Settings) takes its keys
        reason = self.reason()
        if reason is None:
            return False
        refusals.show_in_window_and_status(self.window, reason)
        return True
