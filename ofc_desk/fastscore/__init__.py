"""The compiled fast path of `ofc-desk score` batches, when this installation has it.

`pip install` compiles `_scorer.pyx` with Cython where a C compiler is at hand; where none is
(or when `OFC_DESK_PURE_SCORER` is set, for an audit against the reference), `batch_scorer()`
returns None and every deal is read by the rules core alone. Either way the output is the same,
byte for byte: `tests/core/test_fastscore.py` compares the two on every kind of deal.
"""

from __future__ import annotations

import os
from importlib import import_module
from typing import Any, Protocol

PURE_SCORER_SETTING = "OFC_DESK_PURE_SCORER"


class BatchScorer(Protocol):
    def score(self, deal: Any) -> bytes | None:
        """The deal's result as UTF-8 JSON, or None when the rules core must read it."""


def batch_scorer() -> BatchScorer | None:
    """A fresh compiled scorer for one batch, or None to score with the rules core alone."""
    if os.environ.get(PURE_SCORER_SETTING):
        return None
    try:
        scorer: BatchScorer = import_module("ofc_desk.fastscore._scorer").BatchScorer()
    except ImportError:  # not compiled on this machine: the core scores every deal
        return None
    return scorer
