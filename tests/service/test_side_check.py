"""Checks run in a second process give what they give in this one (`side_check`)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import pytest

from ofc_desk.service.audit import side_check
from ofc_desk.service.audit.side_check import checked_beside

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork"), reason="a second process is forked only where fork exists"
)


@pytest.fixture(autouse=True)
def forking_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test runner's own threads would make the checks run here: these tests are about the fork."""
    monkeypatch.setattr(side_check, "can_fork", lambda: True)


def no_messages(messages: Iterator[object]) -> str | None:
    return next((f"unexpected {message}" for message in messages), None)


def test_a_fault_found_beside_comes_back_in_its_words() -> None:
    parent = os.getpid()
    with checked_beside(
        (lambda: f"event 9 altered by Zoë, beside: {os.getpid() != parent}", lambda: None),
        no_messages,
        fork=True,
    ) as side:
        assert side.child is not None
        assert side.faults() == ("event 9 altered by Zoë, beside: True", None, None)


def test_checks_that_hold_give_none() -> None:
    with checked_beside((lambda: None,), no_messages, fork=True) as side:
        assert side.faults() == (None, None)


def test_messages_reach_the_second_process_in_order() -> None:
    def total(messages: Iterator[int]) -> str | None:
        return str(sum(messages))

    with checked_beside((), total, fork=True) as side:
        for number in range(10_000):  # far more than a pipe holds
            side.send(number)
        assert side.faults() == (str(sum(range(10_000))),)


def test_a_check_that_stops_early_never_leaves_the_sender_waiting() -> None:
    def first_odd(messages: Iterator[int]) -> str | None:
        return next((f"{number} is odd" for number in messages if number % 2), None)

    with checked_beside((lambda: "chain", lambda: "signatures"), first_odd, fork=True) as side:
        for number in [2, 4, 7, *range(0, 200_000, 2)]:
            side.send(number)
        assert side.faults() == ("chain", "signatures", "7 is odd")


@pytest.mark.parametrize("failing", ["check", "fed"])
def test_a_second_process_that_fails_leaves_the_checks_to_this_one(failing: str) -> None:
    parent = os.getpid()

    def check() -> str | None:
        if failing == "check" and os.getpid() != parent:
            raise MemoryError  # the second process fails in a way of its own
        return "checked here" if os.getpid() == parent else "checked beside"

    def count(messages: Iterator[int]) -> str | None:
        for number in messages:
            if failing == "fed" and os.getpid() != parent and number == 3:
                os._exit(5)  # the second process dies halfway
        return "counted here" if os.getpid() == parent else "counted beside"

    with checked_beside((check,), count, fork=True) as side:
        for number in range(100_000):
            side.send(number)
        assert side.faults() == ("checked here", "counted here")


def test_without_fork_the_checks_run_when_asked() -> None:
    asked: list[int] = []

    def check() -> str | None:
        asked.append(os.getpid())
        return None

    with checked_beside((check,), lambda messages: ",".join(messages), fork=False) as side:
        side.send("a")
        side.send("b")
        assert side.child is None and not asked
        assert side.faults() == (None, "a,b")
    assert asked == [os.getpid()]


def test_leaving_early_reaps_the_second_process() -> None:
    with pytest.raises(KeyError), checked_beside((lambda: "late",), no_messages, fork=True) as side:
        child = side.child
        side.send("never read")
        raise KeyError("the caller failed first")
    assert child is not None and side.child is None
    with pytest.raises(ChildProcessError):
        os.waitpid(child, os.WNOHANG)  # already reaped


def test_a_process_with_a_thread_python_did_not_start_does_not_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    """Qt's threads are not in Python's count; the system's list of the process's threads has them."""
    monkeypatch.undo()  # the real check
    if not os.path.isdir("/proc/self/task"):
        pytest.skip("the system lists no threads here: no process forks")
    started = threading.Event()
    release = threading.Event()

    def hold() -> None:
        started.set()
        release.wait()

    worker = threading.Thread(target=hold)
    worker.start()
    started.wait()
    try:
        assert not side_check.can_fork()
        monkeypatch.setattr(threading, "active_count", lambda: 1)  # as if Python had not started it
        assert not side_check.can_fork()
    finally:
        release.set()
        worker.join()
