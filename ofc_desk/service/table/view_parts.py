"""What the one snapshot builder (`view`) takes from the game a table plays: the game's own parts
of the snapshot and of each seat's view. Each game gives them (`TableGame.view`:
`games.ofc.view`, `games.chinese.view`); the builder says the rest, the same for every game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ofc_desk.service.terms.snapshot import RowView, SeatViewPart, TableViewPart, Turn

if TYPE_CHECKING:
    from ofc_desk.core.cards import Card


@dataclass(frozen=True)
class SeatPlay:
    """What a seat shows of the game played; its name, number, stack, button and sitting out are
    the builder's (`snapshot.SeatView` has the meaning of each field)."""

    in_hand: bool
    to_act: bool
    rows: tuple[RowView, ...]
    """The seat's rows, top first (`snapshot.SeatView.rows`)."""
    foul_certain: bool
    discards: tuple[Card | None, ...] = ()
    locked_reason: str | None = None
    part: SeatViewPart | None = None


@dataclass(frozen=True)
class GameView:
    """What the game played gives its table's snapshot (`snapshot.TableSnapshot` has the meaning
    of each field)."""

    variant: str
    preset: str
    to_act: Turn | None
    plays: tuple[SeatPlay, ...]
    """One a seat, in the order of the table's seats."""
    cards_seen: int
    cards_left: int
    part: TableViewPart | None = None
