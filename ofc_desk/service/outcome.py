"""What an applied event leaves behind besides the live state: the derived rows storage keeps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final


@dataclass(frozen=True)
class LedgerEntry:
    player: str
    kind: str
    amount: int
    hand_number: int | None = None
    note: str = ""


@dataclass(frozen=True)
class SettledHand:
    """A settled hand as the history stores it; `result` is exactly `DealResult.to_json()`."""

    number: int
    button: str
    fantasyland: dict[str, int]
    result: dict[str, Any]
    rake: dict[str, int]
    jackpot: int


@dataclass(frozen=True)
class Outcome:
    ledger: tuple[LedgerEntry, ...] = ()
    hand: SettledHand | None = None
    closes_session: bool = False


NO_ROWS: Final = Outcome()
"""The outcome of an event that derives no row (most of a session's: every card entered)."""
