"""`ofc-desk floor --smoke-test N`: proof that a floor shows the room, for an installation check
and for the tests of a room's first minutes.

The floor opens exactly as for a supervisor, on whatever display Qt is given (offscreen in a
check). Once its list shows N open tables it prints the heading and the tables' names as the
window shows them, with every heading it showed before, and exits 0; after `SMOKE_TEST_SECONDS`
without, it exits 1 saying what it showed. It looks at every reading the window shows, as it shows
it (a poll alone would say a listing up to a poll late), and at every poll for the time out.
"""

from __future__ import annotations

from collections.abc import Callable

from ofc_desk.desk.floor.columns import column_index
from ofc_desk.desk.floor.controller import FloorController
from ofc_desk.desk.shell.smoke_test import PolledCheck

SMOKE_TEST_SECONDS = 120


class FloorSmokeTest(PolledCheck):
    def __init__(self, controller: FloorController, tables: int, exit_with: Callable[[int], None]) -> None:
        super().__init__(controller, exit_with, SMOKE_TEST_SECONDS)
        self.controller = controller
        self.tables = tables
        self.headings: list[str] = []
        controller.watcher.room_read.connect(self.on_reading)  # after the window's own handler

    def on_reading(self, _room: object) -> None:
        if self.timer.isActive():  # not once finished
            self.on_poll()

    def on_poll(self) -> None:
        window = self.controller.window
        heading = window.heading.text()
        if not self.headings or self.headings[-1] != heading:
            self.headings.append(heading)
        shown = self.shown_tables()
        if len(shown) == self.tables and not window.grab().isNull():
            self.finish(0, f"{heading}: {', '.join(shown)}{self._before()}")
        elif self.timed_out():
            live = window.live_line.text()
            self.finish(
                1, f"the floor shows {heading!r} ({live}) after {SMOKE_TEST_SECONDS}s{self._before()}"
            )

    def shown_tables(self) -> list[str]:
        model = self.controller.model
        return [str(model.index(row, column_index("table")).data()) for row in range(model.rowCount())]

    def _before(self) -> str:
        earlier = self.headings[:-1]
        return f" (shown before: {' | '.join(earlier)})" if earlier else ""
