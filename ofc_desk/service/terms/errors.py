"""The one exception a table action raises when it is refused, the refusals said in more than one
place, and the one exception `verify` raises on the first fault it finds."""

from __future__ import annotations

from ofc_desk.i18n import _


class ActionRefused(Exception):
    """A refused action. `str(error)` is the sentence the dealer reads: "it is Bob's turn, not Ann's"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def nothing_to_undo(hand: int) -> ActionRefused:
    """An undo with no entry to take back in Chinese poker (OFC's core, `core.ofc.hand`, says the
    same words)."""
    return ActionRefused(_("nothing to undo in hand {number}").format(number=hand))


class VerifyFault(Exception):
    """The first fault `verify` found; `str()` names it: "event 812 was altered"."""
