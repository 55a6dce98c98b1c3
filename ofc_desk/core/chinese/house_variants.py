"""The closed game's house variants (docs/rules.md §13): four preset options that change how rows
are ranked (`wheel`), what a bonus row is worth (`bonus_by_rank`), what a scoop is multiplied by
(`scoop_multipliers`) and which specials are declared only in their exact form (`strict_specials`).

Each is preset data or a house option; left out, each changes nothing. They are read here but not
filled into the preset's stored data, so a preset without them is stored and printed as before.

>>> from ofc_desk.core.cards import parse_cards
>>> from ofc_desk.core.hands import strength
>>> second = HouseVariants(wheel=Wheel.SECOND)
>>> wheel, king_high = strength(parse_cards("As 2d 3c 4h 5s")), strength(parse_cards("9s Td Jc Qh Kd"))
>>> second.ranked(wheel) > king_high, HouseVariants().ranked(wheel) > king_high
(True, False)
>>> HouseVariants(scoop_multipliers=(2, 3, 4)).multiplier(5)
4
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final

from ofc_desk.core.cards import Rank, parse_cards
from ofc_desk.core.chinese.payment import Payment
from ofc_desk.core.chinese.specials import SpecialKind
from ofc_desk.core.hands import HandClass, category_of, deciding_rank, strength
from ofc_desk.core.presets import MAX_POINTS, PresetError, PresetReader
from ofc_desk.core.rows import Row
from ofc_desk.i18n import _

MAX_MULTIPLIER: Final = 10
"""A scoop multiplier beyond any card room's; it keeps amounts owed inside 64-bit integers."""

BonusHand = tuple[Row, HandClass]
BONUS_BY_RANK_KEYS: Final[Mapping[str, BonusHand]] = MappingProxyType({
    "front_trips": (Row.FRONT, HandClass.TRIPS),
    "middle_full_house": (Row.MIDDLE, HandClass.FULL_HOUSE),
    "middle_quads": (Row.MIDDLE, HandClass.QUADS),
    "back_quads": (Row.BACK, HandClass.QUADS),
    "middle_straight_flush": (Row.MIDDLE, HandClass.STRAIGHT_FLUSH),
    "back_straight_flush": (Row.BACK, HandClass.STRAIGHT_FLUSH),
})  # fmt: skip
"""The row bonuses of §10 a house may pay by rank, by their preset names."""
STRICT_KINDS: Final = (
    SpecialKind.SIX_PAIRS,
    SpecialKind.FIVE_PAIRS_AND_TRIPS,
    SpecialKind.FOUR_TRIPS,
    SpecialKind.THREE_FLUSHES,
    SpecialKind.THREE_STRAIGHT_FLUSHES,
)
"""The kinds that have a strict form, in §13's order."""

_LOWEST_STRAIGHT_TOP: Final = Rank.FIVE
_KING_HIGH: Final = {
    HandClass.STRAIGHT: strength(parse_cards("9s Td Jc Qh Kd")),
    HandClass.STRAIGHT_FLUSH: strength(parse_cards("9s Ts Js Qs Ks")),
}
"""eval7 packs a straight by its top card alone, so one above the king-high straight (or straight
flush) is still below the ace-high one: the wheel's place under `wheel: second`."""


class Wheel(StrEnum):
    LOW = "low"
    """A-2-3-4-5 is the lowest straight (§2)."""
    SECOND = "second"
    """A-2-3-4-5 ranks just below the ace-high straight (straight flush: below the royal)."""


@dataclass(frozen=True)
class HouseVariants:
    """A preset's §13 options; every default changes nothing."""

    wheel: Wheel = Wheel.LOW
    bonus_by_rank: Mapping[BonusHand, Mapping[Rank, int]] = field(default_factory=dict)
    scoop_multipliers: tuple[int, ...] | None = None
    """The total multiplier of a scoop by the scooper's scoop count (1, 2, 3 …); None: §10's."""
    strict_specials: frozenset[SpecialKind] = frozenset()

    def ranked(self, value: int) -> int:
        """The strength a row is compared by: the core's, but for the wheel under `second`."""
        if self.wheel is Wheel.LOW:
            return value
        category = category_of(value)
        if category in _KING_HIGH and deciding_rank(value) is _LOWEST_STRAIGHT_TOP:
            return _KING_HIGH[category] + 1
        return value

    def rank_bonus(self, row: Row, category: HandClass, rank: Rank) -> int | None:
        """The bonus a house pays for this hand's rank in this row, None when it lists none
        (the row's bonus is then the preset's `bonuses` value). `rank` is the trips' or quads'
        rank, a full house's trips, a straight flush's top card (5 for the wheel)."""
        if category is HandClass.ROYAL_FLUSH:
            category = HandClass.STRAIGHT_FLUSH
        return self.bonus_by_rank.get((row, category), {}).get(rank)

    def multiplier(self, scoops: int) -> int:
        """`scoop_multipliers`' number for a scooper who scooped `scoops` opponents (≥ 1)."""
        assert self.scoop_multipliers is not None  # only asked when the option is set
        count = min(max(scoops, 1), len(self.scoop_multipliers))
        return self.scoop_multipliers[count - 1]


def read_house_variants(reader: PresetReader, scheme: str, payment: Payment) -> HouseVariants:
    """The four options of a merged preset, each checked; one that contradicts the preset's scheme
    or payment is refused with the reason."""
    variants = HouseVariants(
        wheel=_wheel(reader),
        bonus_by_rank=_bonus_by_rank(reader),
        scoop_multipliers=_scoop_multipliers(reader),
        strict_specials=_strict_specials(reader),
    )
    _refuse_contradictions(variants, scheme, payment)
    return variants


def house_variants_of(preset: Mapping[str, Any]) -> HouseVariants | None:
    """The options of a preset's stored data (as its rules page reads it back), None when the data
    does not hold valid ones: the page then prints the values as stored."""
    try:
        return read_house_variants(PresetReader(preset, "preset"), str(preset.get("scheme")), Payment.PAIRS)
    except PresetError:
        return None


def _wheel(reader: PresetReader) -> Wheel:
    return Wheel.LOW if reader.optional("wheel") is None else reader.choice("wheel", Wheel)


def _bonus_by_rank(reader: PresetReader) -> Mapping[BonusHand, Mapping[Rank, int]]:
    value = reader.optional("bonus_by_rank")
    if value is None:
        return MappingProxyType({})
    section = PresetReader(value, "preset.bonus_by_rank")
    tables: dict[BonusHand, Mapping[Rank, int]] = {}
    for key, table in section.data.items():
        if key not in BONUS_BY_RANK_KEYS:
            said = _("{field} is not a row bonus ({names})")
            names = ", ".join(BONUS_BY_RANK_KEYS)
            raise PresetError(said.format(field=f"{section.path}.{key}", names=names))
        tables[BONUS_BY_RANK_KEYS[key]] = _rank_table(PresetReader(table, f"{section.path}.{key}"), key)
    return MappingProxyType(tables)


def _rank_table(table: PresetReader, key: str) -> Mapping[Rank, int]:
    ranks: dict[Rank, int] = {}
    for text in table.data:
        where = f"{table.path}.{text}"
        try:
            rank = Rank(text)
        except ValueError:
            raise PresetError(_("{field} must be a rank: 2-9, T, J, Q, K, A").format(field=where)) from None
        if key.endswith("straight_flush") and rank.order < _LOWEST_STRAIGHT_TOP.order:
            said = _("{field}: no straight flush has {rank} as its top card (the lowest is 5)")
            raise PresetError(said.format(field=where, rank=text))
        ranks[rank] = table.number(text, 0, MAX_POINTS)
    return MappingProxyType(ranks)


def _scoop_multipliers(reader: PresetReader) -> tuple[int, ...] | None:
    value = reader.optional("scoop_multipliers")
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or not value
        or not all(_whole(number) and 1 <= number <= MAX_MULTIPLIER for number in value)
    ):
        said = _(
            "preset.scoop_multipliers must be null or a list of whole numbers from 1 to {most}: the "
            "multiplier of a scoop by the scooper's scoop count (1.5 times 2 is written 3), not {value}"
        )
        raise PresetError(said.format(most=MAX_MULTIPLIER, value=repr(value)))
    return tuple(value)


def _whole(number: Any) -> bool:
    return isinstance(number, int) and not isinstance(number, bool)


def _strict_specials(reader: PresetReader) -> frozenset[SpecialKind]:
    value = reader.optional("strict_specials")
    if value is None:
        return frozenset()
    kinds = ", ".join(kind.value for kind in STRICT_KINDS)
    if not isinstance(value, list):
        raise PresetError(_("preset.strict_specials must be a list of some of: {kinds}").format(kinds=kinds))
    strict: set[SpecialKind] = set()
    for position, text in enumerate(value):
        where = f"preset.strict_specials[{position}]"
        if text not in {kind.value for kind in STRICT_KINDS}:
            said = _("{field} {kind} has no strict form (these have: {kinds})")
            raise PresetError(said.format(field=where, kind=repr(text), kinds=kinds))
        if SpecialKind(text) in strict:
            raise PresetError(_("{field}: {kind} is listed twice").format(field=where, kind=text))
        strict.add(SpecialKind(text))
    return frozenset(strict)


def _refuse_contradictions(variants: HouseVariants, scheme: str, payment: Payment) -> None:
    """Options a preset's scheme or payment does not play are refused rather than silently unused."""
    if variants.scoop_multipliers is not None and scheme != "rows":
        said = _(
            "preset.scoop_multipliers is for the rows scheme only: the {scheme} scheme pays its own "
            "scoop and scoop_all"
        )
        raise PresetError(said.format(scheme=scheme))
    if payment.plays_declarations:
        return
    played_there = {
        "bonus_by_rank": bool(variants.bonus_by_rank),
        "scoop_multipliers": variants.scoop_multipliers is not None,
        "strict_specials": bool(variants.strict_specials),
    }
    for key, given in played_there.items():
        if given:
            said = _(
                "preset.{key} is not played under payment {payment}: only the wheel option is "
                "(no row bonuses, scoop multipliers or special hands)"
            )
            raise PresetError(said.format(key=key, payment=payment.value))
