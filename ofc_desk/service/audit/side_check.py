"""Checks run in a second process while this one goes on with another: `verify` checks a long
session's hash chain and signatures, and re-scores its hands, beside the rules' fold of its events.

The second process is a fork: it starts with this process's memory (the rows already read), reads
nothing but the messages sent to it and writes nothing but the faults it found, and leaves by
`os._exit` (no clean-up that could touch an inherited database connection or flush output twice).
Its checks share it: the plain ones one after another in a thread, the fed one reading the
messages as they come, so that the two processes need no more than two cores. Where forking is unsafe or
unavailable (Windows, macOS; a process with other threads, e.g. the desk's, whose locks a fork
could inherit held) or fails, or the second process fails in a way of its own, the checks run in this
process when their results are asked for: the same checks, the same words.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, BinaryIO, NoReturn, TypeAlias

Finding: TypeAlias = "str | list[str] | None"
"""What a check found: None when everything it looks at holds, the fault in words, or a list of
sentences naming rows it set aside (none a fault: `verify` names them and goes on)."""
Check = Callable[[], Finding]
FedCheck = Callable[[Iterator[Any]], Finding]
"""A check of the messages this process sends it while it goes on."""
Faults = tuple[Finding, ...]
"""What the checks found: each plain check's finding in turn, then the fed check's."""
_PIPE_BUFFER = 1 << 16


@dataclass
class Beside:
    """Checks beside this process: the plain `checks`, and `fed` over what `send` gives it."""

    checks: tuple[Check, ...]
    fed: FedCheck
    sent: list[Any] = field(default_factory=list)
    """Kept for the fed check to run here should the second process fail."""
    child: int | None = None
    reader: int | None = None
    """Where the second process's faults come back."""
    stream: BinaryIO | None = None
    """Where the messages go to the second process."""

    def send(self, message: Any) -> None:
        self.sent.append(message)
        if self.stream is not None:
            try:
                pickle.dump(message, self.stream, pickle.HIGHEST_PROTOCOL)
            except BrokenPipeError:  # the second process failed: its checks will run here
                self._end_messages()

    def faults(self) -> Faults:
        """Every check's result, the fed one's over every message sent (waiting for them)."""
        self._end_messages()
        if self.child is None or self.reader is None:
            return self._here()
        with os.fdopen(self.reader, "rb") as pipe:
            message = pipe.read()
        self.reader = None
        _, status = os.waitpid(self.child, 0)
        self.child = None
        if os.waitstatus_to_exitcode(status) != 0 or not message:
            return self._here()  # it failed in some way of its own: here they fail alike, or hold
        faults: list[str | list[str] | None] = json.loads(message)
        return tuple(faults)

    def stop(self) -> None:
        """Reap a second process whose results are no longer wanted (the caller failed meanwhile)."""
        self._end_messages()
        if self.reader is not None:
            os.close(self.reader)
            self.reader = None
        if self.child is not None:
            with suppress(ProcessLookupError):
                os.kill(self.child, signal.SIGKILL)  # it holds nothing: its work is simply dropped
            os.waitpid(self.child, 0)
            self.child = None

    def _here(self) -> Faults:
        return (*(check() for check in self.checks), self.fed(iter(self.sent)))

    def _end_messages(self) -> None:
        if self.stream is not None:
            stream, self.stream = self.stream, None
            with suppress(BrokenPipeError):
                stream.close()  # the end of the messages, for the second process


def can_fork() -> bool:
    """Whether this process may fork: it has fork and runs one thread, counting the threads Python
    did not start (Qt's, say), which only the system lists. Where it cannot tell (no /proc, as on
    macOS), it does not fork."""
    if not hasattr(os, "fork") or threading.active_count() != 1:
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


@contextmanager
def checked_beside(checks: tuple[Check, ...], fed: FedCheck, *, fork: bool) -> Iterator[Beside]:
    """`checks` and `fed` started in a second process when `fork` is asked and safe; `.send()`
    gives `fed` its messages, `.faults()` every result, and leaving the block reaps the process in
    every case."""
    side = Beside(checks, fed)
    if fork and can_fork():
        _start(side)
    try:
        yield side
    finally:
        side.stop()


def _start(side: Beside) -> None:
    messages, sending = os.pipe()
    faults, answering = os.pipe()
    try:
        child = os.fork()
    except OSError:
        for end in (messages, sending, faults, answering):
            os.close(end)
        return
    if child == 0:  # the second process: never returns
        os.close(sending)
        os.close(faults)
        _run_and_exit(side, messages, answering)
    os.close(messages)
    os.close(answering)
    side.child, side.reader = child, faults
    side.stream = os.fdopen(sending, "wb", buffering=_PIPE_BUFFER)


def _run_and_exit(side: Beside, messages: int, answering: int) -> NoReturn:
    code = 1
    try:
        found: list[list[str | list[str] | None]] = []
        thread = threading.Thread(target=lambda: found.append([check() for check in side.checks]))
        thread.start()
        fed_fault = _to_the_end(side.fed, _received(messages))
        thread.join()
        if not found:
            raise RuntimeError("a check failed in its thread")
        answer = json.dumps([*found[0], fed_fault]).encode("utf-8")
        while answer:
            answer = answer[os.write(answering, answer) :]
        code = 0
    finally:
        os._exit(code)


def _to_the_end(fed: FedCheck, messages: Iterator[Any]) -> str | list[str] | None:
    fault = fed(messages)
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
