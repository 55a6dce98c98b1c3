"""The cycle collector held off while the desk launches (docs/decisions.md, "Ready to type: the
collector held through the launch")."""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the command line holds the collector before it knows whether Qt is needed
    from PySide6.QtCore import QCoreApplication

LAUNCH_HOLD_LIMIT_MS = 30_000
"""However the launch ends, the collector is on again by then (the event loop's timer)."""


class LaunchHold:
    """Holds the cycle collector off from the desk's first start in this process to the end of its
    launch (its table shown, its sign-in offered, a failure said, or the window closed): the
    objects the launch makes (the modules it imports, the window, a thawed table) are all kept,
    and each collection walked them again. At the end they are frozen (`gc.freeze`: left out of
    later collections, still freed by their counts), then the collector runs as before."""

    def __init__(self, *, held: bool) -> None:
        self._held = held

    @classmethod
    def begin(cls) -> LaunchHold:
        """A hold of the collector, when it was on (a hold inside another holds nothing)."""
        held = gc.isenabled()
        gc.disable()
        return cls(held=held)

    @property
    def held(self) -> bool:
        return self._held

    def end(self) -> None:
        """The launch's objects frozen and the collector on again; once (later calls do nothing)."""
        if self._held:
            self._held = False
            gc.freeze()
            gc.enable()


def exec_then_freeze(application: QCoreApplication) -> int:
    """The event loop until it ends; then whatever is left is frozen: the interpreter's last
    collections would walk every object the window made (its table's fold, the modules) only to
    free them as the process ends."""
    try:
        return int(application.exec())
    finally:
        gc.freeze()
