"""The house's rake and the jackpot drop for one hand (docs/rules.md §9).

>>> from ofc_desk.core.presets import RakeMode, RakeRules
>>> rules = RakeRules(RakeMode.PERCENT_OF_WIN, amount=0, percent=5, cap=3, jackpot_percent=50)
>>> result = compute_rake(rules, {"Ann": 100, "Bob": 30, "Cy": 0}, {"Ann": 40, "Bob": 19, "Cy": -59})
>>> dict(result.per_player), result.total, result.jackpot
({'Ann': 2}, 2, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ofc_desk.core.presets import RakeMode, RakeRules


@dataclass(frozen=True)
class RakeResult:
    """The rake of a hand: each player's part, and the jackpot's."""

    per_player: Mapping[str, int] = field(default_factory=dict)
    jackpot: int = 0

    @property
    def total(self) -> int:
        return sum(self.per_player.values())

    @property
    def house(self) -> int:
        """The part of the rake that is not dropped into the jackpot."""
        return self.total - self.jackpot


def compute_rake(rules: RakeRules, stacks: Mapping[str, int], net_wins: Mapping[str, int]) -> RakeResult:
    """Rake for the players dealt in, in seating order, never more than a player's stack.

    `stacks` are after settlement; `net_wins` are each player's chips won (+) or lost (-) in the
    hand. A percentage is of a net win, rounded down; the cap bounds the whole hand's rake.
    """
    if rules.mode is RakeMode.OFF:
        return RakeResult()
    remaining_cap = rules.cap if rules.cap > 0 else None
    per_player: dict[str, int] = {}
    for player, stack in stacks.items():
        if rules.mode is RakeMode.PER_PLAYER:
            due = rules.amount
        else:
            due = max(net_wins.get(player, 0), 0) * rules.percent // 100
        due = min(due, stack)
        if remaining_cap is not None:
            due = min(due, remaining_cap)
            remaining_cap -= due
        if due:
            per_player[player] = due
    total = sum(per_player.values())
    return RakeResult(per_player, total * rules.jackpot_percent // 100)
