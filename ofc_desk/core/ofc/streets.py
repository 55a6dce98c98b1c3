"""The streets of one hand: what each player takes and discards, street by street (docs/rules.md §7).

>>> plan = StreetPlan.for_variant(Variant.PINEAPPLE, face_down_last=False)
>>> plan.takes, plan.discards, plan.cards_per_player
((5, 3, 3, 3, 3), (0, 1, 1, 1, 1), 17)
>>> face_down = StreetPlan.for_variant(Variant.REGULAR, face_down_last=True)
>>> face_down.takes, face_down.discards, face_down.face_down_last
((5, 1, 1, 1, 1, 1, 3), (0, 0, 0, 0, 0, 0, 0), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ofc_desk.core.ofc.variants import Variant

FACE_DOWN_CARDS = 3
"""The §7 option: the last three cards of four-handed regular OFC come face down, entered at once."""


@dataclass(frozen=True)
class StreetPlan:
    """Cards each regular (non-Fantasyland) player takes and discards, street by street."""

    takes: tuple[int, ...]
    discards: tuple[int, ...]
    face_down_last: bool

    @classmethod
    @cache  # every hand asks; the plan depends on these two only
    def for_variant(cls, variant: Variant, face_down_last: bool) -> StreetPlan:
        """The variant's streets; with `face_down_last` (regular only) its last three one-card
        streets become one street of three face-down cards."""
        structure = variant.structure
        streets = range(1, structure.streets + 1)
        takes = tuple(structure.cards_on_street(street) for street in streets)
        discards = tuple(structure.discards_on_street(street) for street in streets)
        if face_down_last and variant is Variant.REGULAR:
            open_streets = len(takes) - FACE_DOWN_CARDS
            return cls((*takes[:open_streets], FACE_DOWN_CARDS), discards[: open_streets + 1], True)
        return cls(takes, discards, False)

    @property
    def cards_per_player(self) -> int:
        return sum(self.takes)


def cards_needed(plan: StreetPlan, fantasyland_cards: list[int]) -> int:
    """Cards one hand deals: the plan's for each regular player (0 in the list), a Fantasyland
    player's own count for the others.

    >>> cards_needed(StreetPlan.for_variant(Variant.PINEAPPLE, False), [0, 0, 14])
    48
    """
    return sum(cards or plan.cards_per_player for cards in fantasyland_cards)
