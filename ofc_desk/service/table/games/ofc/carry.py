"""What OFC carries from one hand to the next (`carry.CarryOver`, docs/rules.md §6): who plays the
next hand in Fantasyland and with how many cards, how many Fantasyland hands each has played in a
row (for the consecutive cap), and who must wait for whose Fantasyland hand before sitting out or
leaving."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ofc_desk.i18n import _, ngettext
from ofc_desk.service.table.carry import CarryOver
from ofc_desk.service.terms.errors import ActionRefused


@dataclass(frozen=True)
class OfcCarry:
    """Everyone who played the hand that sent a player to Fantasyland stays until that Fantasyland
    hand is finished; the Fantasyland player may leave, forfeiting it."""

    fantasyland_next: Mapping[str, int] = field(default_factory=dict)
    """The cards of each player's next hand in Fantasyland (only those who play one)."""
    streaks: Mapping[str, int] = field(default_factory=dict)
    """Fantasyland hands played in a row up to the last hand (only those who played one)."""
    waiting: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Whose Fantasyland hand each player who played the last hand waits for."""

    @classmethod
    def of(cls, carried: CarryOver) -> OfcCarry:
        """The carry-over a table holds as OFC reads it: empty before its first hand settles."""
        return carried if isinstance(carried, OfcCarry) else cls()

    @property
    def owed(self) -> Mapping[str, int]:
        return self.fantasyland_next

    def streak(self, name: str) -> int:
        return self.streaks.get(name, 0)

    def after_hand(self, played_in: Mapping[str, bool], going: Mapping[str, int]) -> OfcCarry:
        """After a hand: each player's streak goes on or ends, those `going` play the next hand in
        Fantasyland, and the players of the hand wait for them (not for themselves); holds from
        earlier hands end, their Fantasyland hand having been played."""
        streaks = dict(self.streaks)
        owed = dict(self.fantasyland_next)
        for name, in_fantasyland in played_in.items():
            streaks[name] = streaks.get(name, 0) + 1 if in_fantasyland else 0
            owed[name] = going.get(name, 0)
        return OfcCarry(
            {name: cards for name, cards in owed.items() if cards},
            {name: count for name, count in streaks.items() if count},
            _held(list(going), played_in),
        )

    def without(self, name: str) -> OfcCarry:
        """`name` leaves or sits out: their Fantasyland hand is forfeited, their streak ends, they
        wait for nobody, and nobody waits for their Fantasyland hand any more."""
        return OfcCarry(
            {held: cards for held, cards in self.fantasyland_next.items() if held != name},
            {held: count for held, count in self.streaks.items() if held != name},
            {
                held: rest
                for held, waiting_for in self.waiting.items()
                if held != name and (rest := tuple(other for other in waiting_for if other != name))
            },
        )

    def waiting_for(self, name: str, stack: int) -> tuple[str, ...]:
        """Whose Fantasyland hand `name` waits for. A player with no chips has nothing at stake in
        it: holding them would only force a rebuy."""
        return self.waiting.get(name, ()) if stack > 0 else ()

    def refuse_leaving(self, name: str, stack: int, *, leaving: bool) -> None:
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

    def refuse_rules_change(self, seated: Sequence[str]) -> None:
        """A Fantasyland hand already earned is dealt by the rules it was earned under, so what
        decides its cards (preset, house options, variant, progressive) waits until it is played;
        stakes and settlement may change."""
        owed = [
            ngettext("{player} ({count} card)", "{player} ({count} cards)", cards).format(
                player=name, count=cards
            )
            for name in seated
            if (cards := self.fantasyland_next.get(name, 0))
        ]
        if owed:
            said = _(
                "the preset, house options and variant stay until the Fantasyland hands owed"
                " are played: {owed}"
            )
            raise ActionRefused(said.format(owed=", ".join(owed)))


def _held(going: list[str], played: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """The players of `played` wait for those `going` to Fantasyland, not for themselves."""
    return {
        name: tuple(other for other in going if other != name)
        for name in played
        if any(other != name for other in going)
    }
