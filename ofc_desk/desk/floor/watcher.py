"""The floor's listening thread: waits for tables to change (PostgreSQL notifications, or a
short poll on SQLite), reads the room, and hands each new reading to the UI thread. It never
blocks the UI: all database work happens here.

Its first reading is the room as this machine's floor kept it, when no table has moved since
(`floor_kept.kept_room`, issue 39): listed without the rules core, which it loads once the window
has shown that listing (`listing_shown`), before the full reading that follows."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QThread, Signal

from ofc_desk.desk.refusals import background_sentence
from ofc_desk.i18n import _
from ofc_desk.service.oversight.floor_kept import FloorRoom, kept_room
from ofc_desk.storage.database import Database

if TYPE_CHECKING:  # loaded by the thread once a first listing of kept tables is shown
    from ofc_desk.service.oversight.floor import ChangeWatch

WAIT_SECONDS = 0.25
"""The longest a wait lasts before the thread looks whether it should stop."""
REFRESH_SECONDS = 30.0
"""A reading is handed over at least this often (hands per hour moves with the clock), and
taken even without a notification, should one have been missed while reconnecting."""
RETRY_SECONDS = 2.0
SHOWN_WAIT_SECONDS = 10.0
"""The longest the thread waits for the face to show a first listing of kept tables before it
loads the rest all the same: a window hidden between the reading and its paint never paints it."""


class FloorWatcher(QThread):
    room_read = Signal(object)
    """A `FloorRoom`, whenever a table changed (and at least every REFRESH_SECONDS). The face that
    shows it calls `listing_shown` once it has painted the first: the thread waits for that after
    a first listing of kept tables (or for `stop`, or `SHOWN_WAIT_SECONDS`)."""
    trouble = Signal(str)
    """The database cannot be read now, in words; the thread retries by itself."""

    def __init__(self, database: Database, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._database = database
        self._watch: ChangeWatch | None = None
        """The watch the thread waits on, for `stop` to wake."""
        self._stopping = threading.Event()
        self._shown = threading.Event()
        postgresql = database.engine.dialect.name == "postgresql"
        self.live_by = (
            _("PostgreSQL notifications")
            if postgresql
            else _("looks every {seconds} s").format(seconds=f"{WAIT_SECONDS:g}")
        )

    def listing_shown(self) -> None:
        """The window has shown a reading (from the UI thread): the thread loads the rest now."""
        self._shown.set()

    def run(self) -> None:
        self._first_listing()
        if self.isInterruptionRequested():
            return  # closed on its first listing: nothing followed, nothing to keep
        from ofc_desk.desk.floor.columns import kept_words
        from ofc_desk.service.oversight.floor import FloorReader, ReadingPace, watch_changes

        reader, pace = FloorReader(self._database, kept_words), ReadingPace()
        watch: ChangeWatch | None = None
        last: FloorRoom | None = None
        changed, next_handover = True, 0.0
        while not self.isInterruptionRequested():
            try:
                if watch is None:
                    watch = self._watch = watch_changes(self._database)
                    changed = True
                    if self.isInterruptionRequested():
                        watch.wake()  # `stop` may have looked before this watch was made
                due = time.monotonic() >= next_handover
                if (changed and pace.may_read()) or due:
                    room = reader.read()
                    pace.took_reading(whole=room.still_reading == 0)
                    changed = room.still_reading > 0  # the tables it had no time for: read next
                    if due or last is None or not room.reads_as(last):
                        self.room_read.emit(room)
                        last, next_handover = room, time.monotonic() + REFRESH_SECONDS
                    reader.keep_checkpoints()  # for the next floor started here, once shown
                # A change seen is read once the pace allows. A room whose schema is still to come
                # says nothing when it comes: look again.
                noticed = watch.wait(pace.wait_seconds(WAIT_SECONDS, changed))
                changed = changed or noticed or (last is not None and last.not_ready is not None)
            except Exception as error:  # a server gone away or a network cut: say so, try again
                self.trouble.emit(background_sentence(error))
                _close(watch)
                watch, last = None, None
                self._stopping.wait(RETRY_SECONDS)
        reader.keep_at_close()  # the next floor started here folds only what is played meanwhile
        _close(watch)

    def _first_listing(self) -> None:
        """The room as kept, handed over first when every open table can be shown so, and the
        rules core loaded only once it is shown (the window's first paint would share the
        interpreter with the import otherwise). Anything this cannot read, the full reading says."""
        try:
            room = kept_room(self._database)
        except Exception:  # the full reading that follows says what is wrong, and retries
            return
        if room is not None:
            self.room_read.emit(room)
            self._shown.wait(SHOWN_WAIT_SECONDS)  # until the face has shown it, or `stop`

    def stop(self) -> None:
        """The thread ended at once, not at the end of its wait: a closing floor goes away as
        it is closed (after keeping its moved tables, `FloorReader.keep_at_close`)."""
        self.requestInterruption()
        self._stopping.set()
        self._shown.set()
        if (watch := self._watch) is not None:
            watch.wake()
        self.wait()


def _close(watch: ChangeWatch | None) -> None:
    if watch is None:
        return
    try:
        watch.close()
    except Exception:  # closing a connection that is already gone: nothing left to undo
        return
