"""The closed game's house variants (docs/rules.md §13) in the reader's words: what the rules page
prints for each option a preset sets, and the New table list's short line.

>>> from ofc_desk.core.chinese.house_variants import HouseVariants, Wheel
>>> words = house_variant_words(HouseVariants(wheel=Wheel.SECOND, scoop_multipliers=(2, 3, 4)))
>>> words["scoop_multipliers"]
'1 scoop ×2 · 2 scoops ×3 · 3 scoops or more ×4'
"""

from __future__ import annotations

from typing import Final

from ofc_desk.core.chinese.house_variants import BONUS_BY_RANK_KEYS, STRICT_KINDS, HouseVariants, Wheel
from ofc_desk.i18n import LazyText, _, lazy_gettext, lazy_pgettext, ngettext

SEPARATOR: Final = " · "
OPTION_LABELS: Final[dict[str, LazyText]] = {
    "wheel": lazy_gettext("Wheel (A-2-3-4-5)"),
    "bonus_by_rank": lazy_gettext("Row bonuses by rank (units)"),
    "scoop_multipliers": lazy_gettext("Scoop multipliers by scoop count"),
    "strict_specials": lazy_gettext("Specials declared only in their exact form"),
}
"""The rules page's label of each option, in §13's order."""
_BONUS_HANDS: Final[dict[str, LazyText]] = {
    "front_trips": lazy_pgettext("row bonus", "front trips"),
    "middle_full_house": lazy_pgettext("row bonus", "middle full house"),
    "middle_quads": lazy_pgettext("row bonus", "middle quads"),
    "back_quads": lazy_pgettext("row bonus", "back quads"),
    "middle_straight_flush": lazy_pgettext("row bonus", "middle straight flush"),
    "back_straight_flush": lazy_pgettext("row bonus", "back straight flush"),
}
_WHEELS: Final[dict[Wheel, LazyText]] = {
    Wheel.LOW: lazy_gettext("A-2-3-4-5 is the lowest straight"),
    Wheel.SECOND: lazy_gettext("A-2-3-4-5 ranks second, below the ace-high straight (and the royal flush)"),
}


def house_variant_words(house: HouseVariants) -> dict[str, str]:
    """The wheel, and each other option the house sets, by its preset key, in words:
    "A-2-3-4-5 ranks second …", "front trips 3: 6 · middle quads 4: 16", "1 scoop ×2 · …",
    "six pairs, four trips"."""
    words = {"wheel": str(_WHEELS[house.wheel])}
    if house.bonus_by_rank:
        words["bonus_by_rank"] = _bonus_words(house)
    if house.scoop_multipliers is not None:
        words["scoop_multipliers"] = _multiplier_words(house.scoop_multipliers)
    if house.strict_specials:
        kinds = [kind for kind in STRICT_KINDS if kind in house.strict_specials]
        words["strict_specials"] = ", ".join(str(kind.label) for kind in kinds)
    return words


def house_variant_line(house: HouseVariants) -> list[str]:
    """The New table list's short words for the options a preset sets (its row of the list)."""
    line: list[str] = []
    if house.wheel is Wheel.SECOND:
        line.append(_("A-2-3-4-5 second-highest"))
    if house.bonus_by_rank:
        line.append(_("bonuses by rank"))
    if house.scoop_multipliers is not None:
        times = ", ".join(f"×{times}" for times in house.scoop_multipliers)
        line.append(_("scoops {times} by scoop count").format(times=times))
    if house.strict_specials:
        kinds = [kind for kind in STRICT_KINDS if kind in house.strict_specials]
        line.append(_("strict {specials}").format(specials=", ".join(str(kind.label) for kind in kinds)))
    return line


def _bonus_words(house: HouseVariants) -> str:
    parts = []
    for key, bonus_hand in BONUS_BY_RANK_KEYS.items():
        ranks = house.bonus_by_rank.get(bonus_hand)
        if ranks:
            listed = ", ".join(
                f"{rank.value}: {units}"
                for rank, units in sorted(ranks.items(), key=lambda item: item[0].order, reverse=True)
            )
            parts.append(f"{_BONUS_HANDS[key]} {listed}")
    return SEPARATOR.join(parts)


def _multiplier_words(multipliers: tuple[int, ...]) -> str:
    parts = []
    for count, times in enumerate(multipliers, 1):
        if count == len(multipliers):
            said = ngettext("{count} scoop or more ×{times}", "{count} scoops or more ×{times}", count)
        else:
            said = ngettext("{count} scoop ×{times}", "{count} scoops ×{times}", count)
        parts.append(said.format(count=count, times=times))
    return SEPARATOR.join(parts)
