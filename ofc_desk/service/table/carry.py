"""What a table's game carries from one settled hand to the next (issue 37): the game's own state
between hands, which the machine keeps per table without reading it.

A game's live hand leaves a `CarryOver` when it settles (`LiveHand.after_settling`), the machine
hands it to the next hand's deal (`HandDeal.carried`), and the seats' actions ask it only the
game-neutral questions below: may a player leave or sit out, what a player leaving forfeits, may
the rules change. OFC's is in its own package (`games.ofc.carry`, docs/rules.md §6);
a game that carries nothing has `NOTHING_CARRIED`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol


class CarryOver(Protocol):
    """What the next hand owes the players, as the game left it after the last hand settled."""

    @property
    def owed(self) -> Mapping[str, int]:
        """What the next hand owes each player who is owed something, as a count (OFC: the cards of
        the hand a player earned, `games.ofc.carry`); empty in a game that carries nothing."""
        ...

    def refuse_leaving(self, name: str, stack: int, *, leaving: bool) -> None:
        """Refuse `name` leaving the table (or, `leaving` False, sitting out) while others wait for
        a hand the game owes them."""
        ...

    def without(self, name: str) -> CarryOver:
        """The carry-over once `name` leaves or sits out: what they were owed forfeited, and nobody
        waits for it any more."""
        ...

    def refuse_rules_change(self, seated: Sequence[str]) -> None:
        """Refuse rules that would deal the next hand otherwise while it owes the players of
        `seated` (in their order) a hand dealt as it was earned."""
        ...


@dataclass(frozen=True)
class NothingCarried:
    """The carry-over of a game where nothing passes from one hand to the next."""

    @property
    def owed(self) -> Mapping[str, int]:
        return {}

    def refuse_leaving(self, name: str, stack: int, *, leaving: bool) -> None:
        return None

    def without(self, name: str) -> CarryOver:
        return self

    def refuse_rules_change(self, seated: Sequence[str]) -> None:
        return None


NOTHING_CARRIED = NothingCarried()
"""What every table carries before its first hand settles, and a game without a carry-over always."""
