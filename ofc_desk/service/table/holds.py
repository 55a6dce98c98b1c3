"""Who must wait for whose Fantasyland hand before sitting out or leaving (docs/rules.md §6)."""

from __future__ import annotations

from collections.abc import Iterable

from ofc_desk.i18n import _
from ofc_desk.service.terms.errors import ActionRefused


class FantasylandHolds:
    """Everyone who played the hand that sent a player to Fantasyland stays until that Fantasyland
    hand is finished; the Fantasyland player may leave, forfeiting it."""

    def __init__(self) -> None:
        self._waiting: dict[str, tuple[str, ...]] = {}

    def hold_for(self, going: list[str], played: Iterable[str]) -> None:
        """After a hand: the players of `played` wait for those `going` to Fantasyland (not for
        themselves); holds from earlier hands end, their Fantasyland hand having been played."""
        self._waiting = {
            name: tuple(other for other in going if other != name)
            for name in played
            if any(other != name for other in going)
        }

    def release(self, name: str) -> None:
        """`name` leaves or sits out: they wait for nobody, and nobody waits for their forfeited
        Fantasyland hand any more."""
        self._waiting = {
            held: rest
            for held, waiting_for in self._waiting.items()
            if held != name and (rest := tuple(other for other in waiting_for if other != name))
        }

    def waiting_for(self, name: str, stack: int) -> tuple[str, ...]:
        """Whose Fantasyland hand `name` waits for. A player with no chips has nothing at stake in
        it: holding them would only force a rebuy."""
        return self._waiting.get(name, ()) if stack > 0 else ()

    def refuse_if_held(self, name: str, stack: int, leaving: bool) -> None:
        """Refuse `name` leaving the table (or, `leaving` False, sitting out) while held."""
        waiting_for = self.waiting_for(name, stack)
        if not waiting_for:
            return
        others = _(" and ").join(waiting_for)
        if leaving:
            said = _(
                "{player} played the hand that sent {others} to Fantasyland:"
                " {player} cannot leave before that Fantasyland hand is finished"
            )
        else:
            said = _(
                "{player} played the hand that sent {others} to Fantasyland:"
                " {player} cannot sit out before that Fantasyland hand is finished"
            )
        raise ActionRefused(said.format(player=name, others=others))
