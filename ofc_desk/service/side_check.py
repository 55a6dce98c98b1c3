"""A check run in a second process while this one goes on with another: `verify` checks a long
session's hash chain and signatures, and re-scores its hands, beside the rules' fold of its events.

The second process is a fork: it starts with this process's memory (the rows already read), reads
nothing but the messages sent to it and writes nothing but the fault it found, and leaves by
`os._exit` (no clean-up that could touch an inherited database connection or flush output twice).
Where forking is unsafe or unavailable (Windows; a process with other threads, e.g. the desk's,
whose locks a fork could inherit held) or fails, the check runs in this process when its result is
asked for: the same check, the same words.
"""

from __future__ import annotations

import os
import pickle
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, BinaryIO, NoReturn

Check = Callable[[], "str | None"]
"""A check: None when everything it looks at holds, else the fault in words."""
FedCheck = Callable[[Iterator[Any]], "str | None"]
"""A check of the messages this process sends it while it goes on (`fed_beside`)."""
_PIPE_BUFFER = 1 << 16


@dataclass
class SideCheck:
    check: Check
    child: int | None = None
    reader: int | None = None

    def fault(self) -> str | None:
        """The check's result: the second process's if it finished, else the check run here."""
        if self.child is None or self.reader is None:
            return self.check()
        with os.fdopen(self.reader, "rb") as pipe:
            message = pipe.read()
        self.reader = None
        _, status = os.waitpid(self.child, 0)
        self.child = None
        if os.waitstatus_to_exitcode(status) != 0 or not message:
            # It failed in some way of its own: the check here fails the same way, or holds.
            return self.check()
        return message[1:].decode("utf-8") or None

    def stop(self) -> None:
        """Reap a second process whose result is no longer wanted (the caller failed meanwhile)."""
        if self.reader is not None:
            os.close(self.reader)
            self.reader = None
        if self.child is not None:
            os.waitpid(self.child, 0)
            self.child = None


@dataclass
class Feed:
    """The messages sent to a check in the second process, and its result."""

    side: SideCheck
    sent: list[Any] = field(default_factory=list)
    """Kept for the check to run here should the second process fail."""
    stream: BinaryIO | None = None

    def send(self, message: Any) -> None:
        self.sent.append(message)
        if self.stream is not None:
            try:
                pickle.dump(message, self.stream, pickle.HIGHEST_PROTOCOL)
            except BrokenPipeError:  # the second process failed: its check will run here
                self.close()

    def fault(self) -> str | None:
        """The check's result over every message sent (waiting for it)."""
        self.close()
        return self.side.fault()

    def close(self) -> None:
        if self.stream is not None:
            stream, self.stream = self.stream, None
            with suppress(BrokenPipeError):
                stream.close()  # the end of the messages, for the second process


def can_fork() -> bool:
    return hasattr(os, "fork") and threading.active_count() == 1


@contextmanager
def checked_beside(check: Check, *, fork: bool) -> Iterator[SideCheck]:
    """`check` started in a second process when `fork` is asked and safe; `.fault()` gives its
    result (waiting for it), and leaving the block reaps the process in every case."""
    side = SideCheck(check)
    if fork and can_fork():
        forked = _fork(check)
        if forked is not None:
            side.child, side.reader = forked
    try:
        yield side
    finally:
        side.stop()


@contextmanager
def fed_beside(check: FedCheck, *, fork: bool) -> Iterator[Feed]:
    """`check` started in a second process when `fork` is asked and safe, reading what `.send()`
    gives it until `.fault()`; leaving the block reaps the process in every case."""
    feed = Feed(SideCheck(lambda: check(iter(feed.sent))))
    if fork and can_fork():
        reader, writer = os.pipe()
        forked = _fork(lambda: _to_the_end(check, _received(reader)), closing=writer)
        os.close(reader)
        if forked is None:
            os.close(writer)
        else:
            feed.side.child, feed.side.reader = forked
            feed.stream = os.fdopen(writer, "wb", buffering=_PIPE_BUFFER)
    try:
        yield feed
    finally:
        feed.close()
        feed.side.stop()


def _to_the_end(check: FedCheck, messages: Iterator[Any]) -> str | None:
    fault = check(messages)
    for _ in messages:
        pass  # read to the end: the sender must never wait on a pipe nobody empties
    return fault


def _received(reader: int) -> Iterator[Any]:
    with os.fdopen(reader, "rb", buffering=_PIPE_BUFFER) as stream:
        while True:
            try:
                yield pickle.load(stream)
            except EOFError:
                return


def _fork(check: Check, closing: int | None = None) -> tuple[int, int] | None:
    """The second process running `check`, and the end of the pipe its fault comes back through;
    None when no process could be started. `closing` is a descriptor the second process must not
    hold (the writing end of its own messages: holding it, it would never see their end)."""
    reader, writer = os.pipe()
    try:
        child = os.fork()
    except OSError:
        os.close(reader)
        os.close(writer)
        return None
    if child == 0:  # the second process: never returns
        os.close(reader)
        if closing is not None:
            os.close(closing)
        _run_and_exit(check, writer)
    os.close(writer)
    return child, reader


def _run_and_exit(check: Check, writer: int) -> NoReturn:
    code = 1
    try:
        fault = check()
        # A leading byte tells "no fault" (nothing after it) from a process that wrote nothing.
        message = b"\x01" + (fault or "").encode("utf-8")
        while message:
            message = message[os.write(writer, message) :]
        code = 0
    finally:
        os._exit(code)
