"""Work that may take longer than a frame (resume, verify, reading records) runs on the thread
pool; the window shows a busy progress line and stays responsive."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QRunnable, QThreadPool, Signal, Slot

from ofc_desk.desk.refusals import background_sentence


class _Relay(QObject):
    """Lives on the UI thread: its slots run there, whichever thread emits. A child of its runner,
    made after the runner's pool: the pool goes first and waits for its work, so a job always
    reports to a relay that is still there. Without an owner, the application's teardown (PySide
    deletes every object Python owns) deleted the relay of a job still running when the desk quit
    (a resume's entries' check, begun as the table was shown), and its report raised "Signal
    source has been deleted"."""

    finished = Signal(object)
    failed = Signal(str)

    def __init__(self, done: Callable[[Any], None], failed: Callable[[str], None], owner: QObject) -> None:
        super().__init__(owner)
        self._done = done
        self._failed = failed
        self.finished.connect(self.on_finished)
        self.failed.connect(self.on_failed)

    @Slot(object)
    def on_finished(self, result: object) -> None:
        self._done(result)

    @Slot(str)
    def on_failed(self, message: str) -> None:
        self._failed(message)


class _Job(QRunnable):
    def __init__(self, work: Callable[[], Any], relay: _Relay) -> None:
        super().__init__()
        self._work = work
        self._relay = relay

    def run(self) -> None:
        try:
            result = self._work()
        except Exception as error:
            self._relay.failed.emit(background_sentence(error))
            return
        self._relay.finished.emit(result)


class BackgroundRunner(QObject):
    """Runs one callable at a time off the UI thread and reports back on it. Work still running
    when the runner goes (with its window, or at the application's teardown) is waited for, never
    cut short: a commit it was making is made. A runner closed (`close`) runs nothing more."""

    busy_changed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relays: set[_Relay] = set()
        self._closed = False

    def run(
        self,
        label: str,
        work: Callable[[], Any],
        done: Callable[[Any], None],
        failed: Callable[[str], None],
    ) -> None:
        if self._closed:
            return  # its window is closing: nothing is started, nor answered

        def finish(result: object) -> None:
            self._release(relay)
            done(result)

        def fail(message: str) -> None:
            self._release(relay)
            failed(message)

        relay = _Relay(finish, fail, self)
        self._relays.add(relay)
        self.busy_changed.emit(label)
        self._pool.start(_Job(work, relay))

    @property
    def busy(self) -> bool:
        """Some work is still running or waiting for its answer."""
        return bool(self._relays)

    def wait(self, milliseconds: int = 30_000) -> bool:
        return self._pool.waitForDone(milliseconds)

    def close(self) -> None:
        """No more work taken; the work running or queued is finished and its answers given now,
        before the caller goes on, rather than on a later turn of the event loop (or never, once
        the loop is over): a desk that closes hears what its work did (a table it took up) while
        it can still undo it (let the table go)."""
        self._closed = True
        self.wait()
        for relay in list(self._relays):
            QCoreApplication.sendPostedEvents(relay, QEvent.Type.MetaCall)

    def _release(self, relay: _Relay) -> None:
        self._relays.discard(relay)
        relay.deleteLater()  # owned by the runner: gone once its answer is given
        if not self._relays:
            self.busy_changed.emit("")
