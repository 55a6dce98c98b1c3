"""OFC's parts of a snapshot, apart from the rules that work them out (`ofc.view` and `ofc.live`
build them): a seat's Fantasyland (`OfcSeatView`), the table's street (`OfcTableView`) and the kind
of turn on the table (`OfcTurn`). A floor's first listing thaws kept snapshots holding them without
loading the rules (issue 39), so this module imports none."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ofc_desk.service.terms.snapshot import SeatView, SeatViewPart, TableSnapshot, TableViewPart


@dataclass(frozen=True)
class OfcSeatView(SeatViewPart):
    """OFC's part of a seat's view: its Fantasyland, this hand and the next."""

    fantasyland_cards: int = 0
    """Cards this player is dealt in Fantasyland in the current hand (0 = not in Fantasyland)."""
    fantasyland_next: int = 0
    """Cards this player will be dealt in Fantasyland next hand (0 = not going)."""

    @classmethod
    def of(cls, seat: SeatView) -> OfcSeatView:
        """The seat's part as OFC reads it: nothing in Fantasyland at another game's table."""
        return seat.part if isinstance(seat.part, OfcSeatView) else cls()


@dataclass(frozen=True)
class OfcTableView(TableViewPart):
    """OFC's part of the table's snapshot."""

    street: int = 0
    """1 for the first five cards, then 2, 3, …; 0 when no street is being dealt (between hands,
    at a Fantasyland set, a hand awaiting settlement)."""
    button_held_for_fantasyland: bool = False
    """The button stays where it is: the last hand sent a player to Fantasyland (docs/rules.md §6)."""

    @classmethod
    def of(cls, snapshot: TableSnapshot) -> OfcTableView:
        """The table's part as OFC reads it: the button not held at another game's table."""
        return snapshot.part if isinstance(snapshot.part, OfcTableView) else cls()


class OfcTurn(StrEnum):
    """OFC's kinds of turn (`Turn.kind`), each its English name."""

    STREET = "street"
    FANTASYLAND_SET = "fantasyland set"
    FACE_DOWN_REVEAL = "face-down cards revealed"
