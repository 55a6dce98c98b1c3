"""A check run in a second process while this one goes on with another: `verify` checks a long
session's hash chain and signatures beside the rules' fold of its events, on a second core.

The second process is a fork: it starts with this process's memory (the rows already read), reads
nothing and writes nothing but the fault it found, and leaves by `os._exit` (no clean-up that could
touch an inherited database connection or flush output twice). Where forking is unsafe or
unavailable (Windows; a process with other threads, e.g. the desk's, whose locks a fork could
inherit held) the check runs in this process when its result is asked for: the same check, the
same words.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

Check = Callable[[], "str | None"]
"""A check: None when everything it looks at holds, else the fault in words."""


@dataclass
class SideCheck:
    check: Check
    child: int | None = None
    reader: int | None = None

    def fault(self) -> str | None:
        """The check's result: the child's if it finished, else the check run here."""
        if self.child is None or self.reader is None:
            return self.check()
        with os.fdopen(self.reader, "rb") as pipe:
            message = pipe.read()
        self.reader = None
        _, status = os.waitpid(self.child, 0)
        self.child = None
        if os.waitstatus_to_exitcode(status) != 0 or not message:
            # The child failed in some way of its own: the check here fails the same way, or holds.
            return self.check()
        return message[1:].decode("utf-8") or None

    def stop(self) -> None:
        """Reap a child whose result is no longer wanted (the caller failed in between)."""
        if self.reader is not None:
            os.close(self.reader)
            self.reader = None
        if self.child is not None:
            os.waitpid(self.child, 0)
            self.child = None


def can_fork() -> bool:
    return hasattr(os, "fork") and threading.active_count() == 1


@contextmanager
def checked_beside(check: Check, *, fork: bool) -> Iterator[SideCheck]:
    """`check` started in a second process when `fork` is asked and safe; `.fault()` gives its
    result (waiting for it), and leaving the block reaps the process in every case."""
    side = SideCheck(check)
    if fork and can_fork():
        reader, writer = os.pipe()
        child = os.fork()
        if child == 0:  # the second process: never returns
            os.close(reader)
            _run_and_exit(check, writer)
        os.close(writer)
        side.child, side.reader = child, reader
    try:
        yield side
    finally:
        side.stop()


def _run_and_exit(check: Check, writer: int) -> None:
    code = 1
    try:
        fault = check()
        # A leading byte tells "no fault" (nothing after it) from a child that wrote nothing.
        message = b"\x01" + (fault or "").encode("utf-8")
        while message:
            message = message[os.write(writer, message) :]
        code = 0
    finally:
        os._exit(code)
