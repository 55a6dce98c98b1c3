"""The one exception a table action raises when it is refused."""

from __future__ import annotations


class ActionRefused(Exception):
    """A refused action. `str(error)` is the sentence the dealer reads: "it is Bob's turn, not Ann's"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
