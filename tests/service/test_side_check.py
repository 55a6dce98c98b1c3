"""A check run in a second process gives what it gives in this one (`side_check`)."""

from __future__ import annotations

import os

import pytest

from ofc_desk.service import side_check
from ofc_desk.service.side_check import checked_beside

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
