"""The deal structure of each variant (docs/rules.md §7)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from ofc_desk.i18n import LazyText, lazy_pgettext


class Variant(StrEnum):
    REGULAR = "regular"
    PINEAPPLE = "pineapple"
    DEUCE_TO_SEVEN_PINEAPPLE = "2-7-pineapple"

    @property
    def structure(self) -> DealStructure:
        return _STRUCTURES[self]

    @property
    def lowball_middle(self) -> bool:
        return self is Variant.DEUCE_TO_SEVEN_PINEAPPLE

    @property
    def label(self) -> LazyText:
        """The variant's name in the reader's language (its value is the stored identifier)."""
        return _LABELS[self]


_LABELS: Final[dict[Variant, LazyText]] = {
    Variant.REGULAR: lazy_pgettext("variant", "regular"),
    Variant.PINEAPPLE: lazy_pgettext("variant", "pineapple"),
    Variant.DEUCE_TO_SEVEN_PINEAPPLE: lazy_pgettext("variant", "2-7-pineapple"),
}


@dataclass(frozen=True)
class DealStructure:
    """How many players sit, and how many cards each street deals, places and discards."""

    min_players: int
    max_players: int
    first_street_cards: int
    later_streets: int
    later_street_cards: int
    later_street_discards: int

    @property
    def streets(self) -> int:
        return 1 + self.later_streets

    def cards_on_street(self, street: int) -> int:
        """Cards dealt to one player on a street (1-based)."""
        return self.first_street_cards if street == 1 else self.later_street_cards

    def discards_on_street(self, street: int) -> int:
        return 0 if street == 1 else self.later_street_discards


_PINEAPPLE = DealStructure(2, 3, 5, 4, 3, 1)
_STRUCTURES = {
    Variant.REGULAR: DealStructure(2, 4, 5, 8, 1, 0),
    Variant.PINEAPPLE: _PINEAPPLE,
    Variant.DEUCE_TO_SEVEN_PINEAPPLE: _PINEAPPLE,
}
