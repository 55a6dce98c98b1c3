"""What an applied event leaves behind besides the live state: the derived rows storage keeps."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final, Protocol

from ofc_desk.core.results import HandResult, ResultTransfer
from ofc_desk.service.terms.events import LedgerKind
from ofc_desk.storage.audit import canonical_json


@dataclass(frozen=True)
class LedgerEntry:
    """One line of the chip ledger an action records."""

    player: str
    kind: LedgerKind
    amount: int
    hand_number: int | None = None
    note: str = ""


class ScoredResult(Protocol):
    """A settled hand's result as the table holds it: the core's `DealResult` or
    `ChineseDealResult`, or in `verify` a stored result the fold goes on with (`rescoring`)."""

    def to_json(self) -> dict[str, Any]: ...
    def view(self) -> HandResult: ...
    def transfers_view(self) -> tuple[ResultTransfer, ...]: ...


@dataclass(frozen=True)
class RecordPart(ABC):
    """A game's own part of a settled hand's record (`store.records.HandRecord.part`), beside what
    every game's holds: subclassed in the game's package (OFC's `games.ofc.record.OfcRecord`: who
    played the hand in Fantasyland) and read only by that game's parts (issue 37)."""

    @abstractmethod
    def column(self) -> dict[str, int]:
        """The part as the hand's row stores it (its `fantasyland` column), which the replay's
        output echoes."""


@dataclass(frozen=True)
class SettledHand:
    """A settled hand as the history stores it. The result is read from the scored one when asked:
    `verify` settles thousands of hands and needs only their transfers and stored text."""

    number: int
    button: str
    fantasyland: dict[str, int]
    scored: ScoredResult = field(repr=False, compare=False)
    rake: dict[str, int]
    jackpot: int

    @cached_property
    def result(self) -> HandResult:
        return self.scored.view()

    @cached_property
    def result_text(self) -> str:
        """The stored `result`: exactly the canonical JSON of the core's `to_json()`."""
        return canonical_json(self.scored.to_json())

    @property
    def transfers(self) -> tuple[ResultTransfer, ...]:
        """The settlement's transfers in order: the hand's transfer rows."""
        return self.scored.transfers_view()


@dataclass(frozen=True)
class PoolMove:
    """A change of the room's jackpot pool: `chips` in (a drop, a seed) or out (an award; a void
    gives the hand's award back and takes its drop out)."""

    kind: str
    chips: int
    hand_number: int | None = None


@dataclass(frozen=True)
class Outcome:
    """The rows an applied action derives: ledger lines, a settled hand, pool moves."""

    ledger: tuple[LedgerEntry, ...] = ()
    hand: SettledHand | None = None
    closes_session: bool = False
    pool_moves: tuple[PoolMove, ...] = ()
    pool_before: int | None = None
    """The room's pool the event says it found (a settlement at a table with an award): `verify`
    holds it to the pool the room's events give."""


NO_ROWS: Final = Outcome()
"""The outcome of an event that derives no row (most of a session's: every card entered)."""
