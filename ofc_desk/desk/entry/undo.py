"""Ctrl+Z: a QUndoStack command per confirmed entry whose undo only asks the service to undo."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from ofc_desk.desk.refusals import SERVICE_FAILURES, dealer_sentence
from ofc_desk.service.terms.snapshot import TableSnapshot

Redo = Callable[[], TableSnapshot]


class EntryCommand(QUndoCommand):
    """Pushed after the service accepted an entry, so the first redo() does nothing.

    undo() calls the service's undo (recorded as an undo event, never an erasure); redo() enters
    the same cards again through the service. A refusal is shown and the command dropped.
    """

    def __init__(
        self,
        text: str,
        undo_entry: Redo,
        redo_entry: Redo,
        show: Callable[[TableSnapshot], None],
        refuse: Callable[[str], None],
    ) -> None:
        super().__init__(text)
        self._undo_entry = undo_entry
        self._redo_entry = redo_entry
        self._show = show
        self._refuse = refuse
        self._already_done = True

    def redo(self) -> None:
        if self._already_done:
            self._already_done = False
            return
        self._run(self._redo_entry)

    def undo(self) -> None:
        self._run(self._undo_entry)

    def _run(self, action: Redo) -> None:
        try:
            snapshot = action()
        except SERVICE_FAILURES as failure:
            self.setObsolete(True)
            self._refuse(dealer_sentence(failure))
            return
        self._show(snapshot)
