"""`verify` made to check a short session as it checks a long one: its chain, signatures and
hands' re-scoring in a second process beside the fold (`verify_session`, `side_check`)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping

import pytest

from ofc_desk.service.audit import side_check, verify_session
from ofc_desk.service.audit.rescoring import Rescore


def rescored_beside(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every session checked beside the fold, in a second process."""
    if not hasattr(os, "fork"):
        pytest.skip("a second process is forked only where fork exists")
    monkeypatch.setattr(verify_session, "FORK_FROM_EVENTS", 0)
    monkeypatch.setattr(side_check, "can_fork", lambda: True)  # the runner's threads aside


def hands_sent(stored: Mapping[int, str], hands: Iterator[Rescore]) -> str:
    """In place of `rescoring.rescore`: the hands the second process was sent, as its fault
    ("chinese 1 chinese 2"), so a test sees them."""
    return " ".join(f"{game} {number}" for game, number, *_ in hands)
