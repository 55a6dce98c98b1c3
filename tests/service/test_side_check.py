"""A check run in a second process gives what it gives in this one (`side_check`)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from ofc_desk.service import side_check
from ofc_desk.service.side_check import checked_beside, fed_beside

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork"), reason="a second process is forked only where fork exists"
)


@pytest.fixture(autouse=True)
def forking_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test runner's own threads would make the check run here: these tests are about the fork."""
    monkeypatch.setattr(side_check, "can_fork", lambda: True)


def test_a_fault_found_beside_comes_back_in_its_words() -> None:
    parent = os.getpid()
    with checked_beside(lambda: f"event 9 was altered by Zoë in {os.getpid() != parent}", fork=True) as side:
        assert side.child is not None
        assert side.fault() == "event 9 was altered by Zoë in True"


def test_a_check_that_holds_gives_none() -> None:
    with checked_beside(lambda: None, fork=True) as side:
        assert side.fault() is None


def test_a_second_process_that_fails_leaves_the_check_to_this_one() -> None:
    parent = os.getpid()

    def check() -> str | None:
        if os.getpid() != parent:
            raise MemoryError  # the child fails in a way of its own
        return "checked here"

    with checked_beside(check, fork=True) as side:
        assert side.fault() == "checked here"


def test_without_fork_the_check_runs_when_asked() -> None:
    asked: list[int] = []
    with checked_beside(lambda: asked.append(os.getpid()) or None, fork=False) as side:
        assert side.child is None and not asked
        assert side.fault() is None
    assert asked == [os.getpid()]


def test_leaving_early_reaps_the_second_process() -> None:
    with pytest.raises(KeyError), checked_beside(lambda: "late", fork=True) as side:
        child = side.child
        raise KeyError("the caller failed first")
    assert child is not None and side.child is None
    with pytest.raises(ChildProcessError):
        os.waitpid(child, os.WNOHANG)  # already reaped


def test_messages_reach_the_second_process_in_order() -> None:
    def total(messages: Iterator[Any]) -> str | None:
        return str(sum(messages))

    with fed_beside(total, fork=True) as feed:
        assert feed.side.child is not None
        for number in range(10_000):  # far more than a pipe holds
            feed.send(number)
        assert feed.fault() == str(sum(range(10_000)))


def test_a_check_that_stops_early_never_leaves_the_sender_waiting() -> None:
    def first_odd(messages: Iterator[int]) -> str | None:
        return next((f"{number} is odd" for number in messages if number % 2), None)

    with fed_beside(first_odd, fork=True) as feed:
        for number in [2, 4, 7, *range(0, 200_000, 2)]:
            feed.send(number)
        assert feed.fault() == "7 is odd"


def test_a_fed_second_process_that_fails_leaves_the_check_to_this_one() -> None:
    parent = os.getpid()

    def count(messages: Iterator[int]) -> str | None:
        for number in messages:
            if os.getpid() != parent and number == 3:
                os._exit(5)  # the second process dies halfway
        return "counted here" if os.getpid() == parent else "counted beside"

    with fed_beside(count, fork=True) as feed:
        for number in range(100_000):
            feed.send(number)
        assert feed.fault() == "counted here"


def test_without_fork_the_fed_check_reads_what_was_sent() -> None:
    with fed_beside(lambda messages: ",".join(messages), fork=False) as feed:
        feed.send("a")
        feed.send("b")
        assert feed.side.child is None
        assert feed.fault() == "a,b"
