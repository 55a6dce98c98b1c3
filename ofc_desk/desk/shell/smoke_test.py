"""`ofc-desk demo --smoke-test`: proof that an installed desk works, for the installer's check.

The demo table opens exactly as for a dealer, on whatever display Qt is given (offscreen in the
check): the window, the database opened and migrated on a worker thread, the dealer signed in, the
table resumed from its events and drawn. The desk then prints what it drew, or the reason if that
has not happened within the time allowed, closes its window as a dealer does (the table let go, the
database disposed) and exits 0 or 1.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

if TYPE_CHECKING:  # the floor's check uses PolledCheck without the desk's session
    from ofc_desk.desk.shell.session import DeskSession
    from ofc_desk.service.terms.snapshot import TableSnapshot

SMOKE_TEST_SECONDS = 60
POLL_MS = 100


class PolledCheck(QObject):
    """A check that looks every `POLL_MS` until it passes or fails, or its `seconds` are up; it
    prints one line saying which and exits with 0 or 1 (`ofc-desk demo` and `ofc-desk floor`)."""

    def __init__(self, parent: QObject, exit_with: Callable[[int], None], seconds: int) -> None:
        super().__init__(parent)
        self.exit_with = exit_with
        self.deadline = time.monotonic() + seconds
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.on_poll)

    def start(self) -> None:
        self.timer.start(POLL_MS)

    def on_poll(self) -> None:
        raise NotImplementedError

    def timed_out(self) -> bool:
        return time.monotonic() > self.deadline

    def finish(self, status: int, message: str) -> None:
        self.timer.stop()
        if status == 0:
            print(f"smoke test passed: {message}", flush=True)
        else:
            print(f"smoke test FAILED: {message}", file=sys.stderr, flush=True)
        self.exit_with(status)


class SmokeTest(PolledCheck):
    def __init__(self, session: DeskSession, exit_with: Callable[[int], None]) -> None:
        super().__init__(session, exit_with, SMOKE_TEST_SECONDS)
        self.session = session

    def finish(self, status: int, message: str) -> None:
        self.session.window.close()  # the close a dealer makes, checked too: before the exit
        super().finish(status, message)

    def on_poll(self) -> None:
        snapshot = self.session.controller.snapshot
        if snapshot is not None:
            self.finish(*self._check_drawn(snapshot))
        elif self.timed_out():
            waiting = self.session.window.statusBar().currentMessage() or "nothing"
            self.finish(1, f"no table drawn after {SMOKE_TEST_SECONDS}s (the desk shows: {waiting})")

    def _check_drawn(self, snapshot: TableSnapshot) -> tuple[int, str]:
        window = self.session.window
        drawn = [widget.seat.name for widget in window.felt.seat_widgets if widget.seat is not None]
        expected = [seat.name for seat in snapshot.seats]
        if drawn != expected:
            return 1, f"the table has seats {expected} but the felt shows {drawn}"
        if window.grab().isNull():
            return 1, "the window could not be painted"
        status = window.status_line.text().replace("\u00a0", " ")
        return 0, f"{status}; seats drawn: {', '.join(drawn)}"
