"""Chinese poker presets: every house difference of docs/rules.md §10 as data in a JSON file.

A Chinese preset file says `"game": "chinese"` and sits beside the OFC presets; a card room's own
scale is one more file. Fields §10 gives a default for may be left out.

>>> typical = load_chinese_preset("chinese-typical")
>>> typical.scheme, typical.bonus_mode, typical.bonus(Row.MIDDLE, HandClass.ROYAL_FLUSH)
(<Scheme.ROWS: 'rows'>, <BonusMode.INSTEAD: 'instead'>, 5)
>>> [special.kind.value for special in typical.specials][-1]
'dragon'
>>> from ofc_desk.core.presets import preset_names
>>> "chinese-typical" in preset_names(Game.CHINESE), "chinese-typical" in preset_names(Game.OFC)
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final

from ofc_desk.core.cards import Card, Rank
from ofc_desk.core.chinese.house_variants import MAX_MULTIPLIER, HouseVariants, read_house_variants
from ofc_desk.core.chinese.payment import (
    NO_DECLARATIONS,
    NO_SURRENDER,
    Payment,
    PaymentRules,
    default_number,
    fill_payment_defaults,
    payment_numbers,
    refuse_contradictions,
)
from ofc_desk.core.chinese.specials import SpecialKind, makes
from ofc_desk.core.hands import HandClass
from ofc_desk.core.jackpot import JackpotAward
from ofc_desk.core.presets import (
    MAX_POINTS,
    Game,
    PresetError,
    PresetReader,
    RakeRules,
    StoredPreset,
    deep_merge,
    load_game_preset,
    preset_jackpot_award,
    read_rake,
    refuse_other_game,
)
from ofc_desk.core.rows import Row
from ofc_desk.core.settlement import ProposedSettlement, SettleFrom, SettlementPolicy
from ofc_desk.i18n import _

BONUS_HANDS: Final[Mapping[Row, frozenset[HandClass]]] = MappingProxyType({
    Row.FRONT: frozenset({HandClass.TRIPS}),
    Row.MIDDLE: frozenset({HandClass.FULL_HOUSE, HandClass.QUADS, HandClass.STRAIGHT_FLUSH}),
    Row.BACK: frozenset({HandClass.QUADS, HandClass.STRAIGHT_FLUSH}),
})  # fmt: skip
"""The rows and hand classes a row bonus may be set for (a royal flush counts as a straight flush)."""
ACES_HELD: Final = 4

_DEFAULTS: Final[Mapping[str, Any]] = MappingProxyType({
    "game": Game.CHINESE.value,
    "description": "",
    "bonus_mode": "instead",
    "bonuses": {"front": {}, "middle": {}, "back": {}},
    "sweep": 0,
    "overall_point": 0,
    "scoop_multiplier": 1,
    "scoop_all_multiplier": 1,
    "majority": 1,
    "scoop": 6,
    "scoop_all": 9,
    "special_vs_special": "difference",
    "specials": [],
    "bank": False,
    "aces": False,
    "ace_units": [1, 2, 6, 8],
    "rake": {"mode": "off", "amount": 0, "percent": 0, "cap": 0, "jackpot_percent": 0},
})  # fmt: skip
"""`payment` (pairs) and `jackpot_award` (none) are read with their defaults but not filled in, so a
§10 preset's stored data and rules page stay as they were before §11."""


class Scheme(StrEnum):
    ROWS = "rows"
    MAJORITY = "majority"


class BonusMode(StrEnum):
    INSTEAD = "instead"
    EXTRA = "extra"
    ALWAYS = "always"


class SpecialVsSpecial(StrEnum):
    DIFFERENCE = "difference"
    HIGHER = "higher"


@dataclass(frozen=True)
class SpecialRule:
    """One special hand a preset lists: its kind, its units and, for small or big, its limit."""

    kind: SpecialKind
    units: int
    limit: Rank | None = None
    """The highest rank of a `small` hand, the lowest of a `big` one; None for the other kinds."""
    strict: bool = False
    """Declared only in its exact form (the preset's `strict_specials`, §13)."""

    def made_by(self, cards: Sequence[Card]) -> bool:
        return makes(self.kind, cards, self.limit, strict=self.strict)

    def made_only_loosely(self, cards: Sequence[Card]) -> bool:
        """The cards make the kind, but not in the exact form this table plays."""
        return self.strict and makes(self.kind, cards, self.limit) and not self.made_by(cards)

    @property
    def words(self) -> str:
        return self.kind.words


@dataclass(frozen=True)
class ChinesePreset(StoredPreset):
    name: str
    description: str
    scheme: Scheme
    bonus_mode: BonusMode
    bonuses: Mapping[Row, Mapping[HandClass, int]]
    sweep: int
    overall_point: int
    scoop_multiplier: int
    scoop_all_multiplier: int
    majority: int
    scoop: int
    scoop_all: int
    surrender: int | None
    """Units a surrender pays each opponent; None: the table plays no surrender."""
    special_vs_special: SpecialVsSpecial
    specials: tuple[SpecialRule, ...]
    """Lowest first, as the preset lists them."""
    bank: bool
    aces: bool
    ace_units: tuple[int, ...]
    """The worth of 1, 2, 3 and 4 aces held."""
    rake: RakeRules
    payment: PaymentRules
    """How a deal is paid (§11): the pairs of §10, the pool or the single winner."""
    jackpot_award: JackpotAward | None = None
    proposed_settlement: ProposedSettlement | None = None
    """The house's usual table stakes for this game (Hawaiian Gardens: chip exposure from the
    dealer), proposed when a table is opened; None: the desk's usual defaults."""
    house: HouseVariants = field(default_factory=HouseVariants)
    """The §13 options: the wheel's rank, bonuses by rank, scoop multipliers, strict specials."""
    source: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def bonus(self, row: Row, category: HandClass, rank: Rank | None = None) -> int:
        """The row bonus of a hand in that row; 0 when the row has none for it. `rank` (the
        trips', quads' or full house's rank, a straight flush's top card) looks up the house's
        `bonus_by_rank` first."""
        by_rank = None if rank is None else self.house.rank_bonus(row, category, rank)
        if by_rank is not None:
            return by_rank
        if category is HandClass.ROYAL_FLUSH:
            category = HandClass.STRAIGHT_FLUSH
        return self.bonuses[row].get(category, 0)

    def special(self, kind: SpecialKind) -> SpecialRule | None:
        return next((special for special in self.specials if special.kind is kind), None)

    def special_rank(self, special: SpecialRule) -> int:
        """Its place in the preset's list: a later special is the higher one."""
        return self.specials.index(special)

    def specials_made(self, cards: Sequence[Card]) -> list[SpecialRule]:
        """Every listed special the cards make, most valuable first (by units, then the higher in
        the list): what the desk suggests. A house may rank a special above one worth more units
        (docs/rules.md §11's no-pictures), so the list's order alone does not say it."""
        made = [special for special in self.specials if special.made_by(cards)]
        return sorted(made, key=lambda special: (special.units, self.special_rank(special)), reverse=True)

    def unplayed(self, *, surrender: bool = False, declaration: bool = False) -> str:
        """Why this preset refuses a surrender or a declaration, or "" when it plays it."""
        if surrender and self.surrender is None:
            return str(NO_SURRENDER)
        if declaration and not self.payment.payment.plays_declarations:
            return str(NO_DECLARATIONS)
        return ""

    def aces_worth(self, aces: int) -> int:
        return self.ace_units[aces - 1] if aces else 0


def load_chinese_preset(name: str) -> ChinesePreset:
    return load_game_preset(name, Game.CHINESE, chinese_preset_from_dict)


def chinese_preset_from_dict(
    data: Mapping[str, Any], overrides: Mapping[str, Any] | None = None
) -> ChinesePreset:
    """A Chinese preset from its JSON form with house options on top; every field checked, an
    unknown one refused (a misspelt `surender` must not play by the default)."""
    merged = deep_merge(deep_merge(dict(_DEFAULTS), data), overrides or {})
    fill_payment_defaults(merged)
    reader = PresetReader(merged, "preset")
    refuse_other_game(reader, Game.CHINESE, _("preset.game must be {game} for a Chinese poker preset"))
    scheme = reader.choice("scheme", Scheme)
    bonus_mode = reader.choice("bonus_mode", BonusMode)
    if scheme is Scheme.MAJORITY and bonus_mode is BonusMode.INSTEAD:
        raise PresetError(_("preset.bonus_mode must be extra or always under the majority scheme"))
    payment = _payment(reader)
    house = read_house_variants(reader, scheme.value, payment.payment)
    preset = ChinesePreset(
        name=reader.text("name"),
        description=reader.text("description"),
        scheme=scheme,
        bonus_mode=bonus_mode,
        bonuses=_bonuses(reader.section("bonuses")),
        sweep=reader.number("sweep"),
        overall_point=reader.number("overall_point", 0, 1),
        scoop_multiplier=reader.number("scoop_multiplier", 1, MAX_MULTIPLIER),
        scoop_all_multiplier=reader.number("scoop_all_multiplier", 1, MAX_MULTIPLIER),
        majority=reader.number("majority"),
        scoop=reader.number("scoop"),
        scoop_all=reader.number("scoop_all"),
        surrender=_surrender(reader),
        special_vs_special=reader.choice("special_vs_special", SpecialVsSpecial),
        specials=_specials(reader.value("specials"), house.strict_specials),
        bank=reader.flag("bank"),
        aces=reader.flag("aces"),
        ace_units=_ace_units(reader),
        rake=read_rake(reader.section("rake")),
        payment=payment,
        jackpot_award=preset_jackpot_award(reader),
        proposed_settlement=_proposed_settlement(reader),
        house=house,
        source=MappingProxyType(merged),
    )
    reader.refuse_unread()
    refuse_contradictions(preset.payment.payment, preset.surrender, len(preset.specials), preset.bank)
    return preset


def _surrender(reader: PresetReader) -> int | None:
    return None if reader.value("surrender") is None else reader.number("surrender")


def _payment(reader: PresetReader) -> PaymentRules:
    """The payment and its numbers; another payment's numbers, when given, are read and play no
    part (as row bonuses play none at a pool table)."""
    numbers = {
        key: reader.number(key) if key in reader.data else default_number(key) for key in payment_numbers()
    }
    return PaymentRules(reader.choice("payment", Payment, Payment.PAIRS), **numbers)


def _proposed_settlement(reader: PresetReader) -> ProposedSettlement | None:
    if "proposed_settlement" not in reader.data:
        return None
    section = reader.section("proposed_settlement")
    policy = section.choice("policy", SettlementPolicy)
    return ProposedSettlement(policy, section.choice("settle_from", SettleFrom))


def _bonuses(section: PresetReader) -> Mapping[Row, Mapping[HandClass, int]]:
    bonuses: dict[Row, Mapping[HandClass, int]] = {}
    for row in Row:
        table = section.section(row.value)
        allowed = {category.key: category for category in BONUS_HANDS[row]}
        for key in table.data:
            if key not in allowed:
                names = ", ".join(sorted(allowed))
                said = _("{field} is not a bonus hand of the {row} ({names})")
                raise PresetError(said.format(field=f"{table.path}.{key}", row=row.label, names=names))
        bonuses[row] = MappingProxyType({allowed[key]: table.number(key) for key in table.data})
    section.refuse_unread()
    return MappingProxyType(bonuses)


def _specials(value: Any, strict: frozenset[SpecialKind]) -> tuple[SpecialRule, ...]:
    if not isinstance(value, list):
        raise PresetError(_("preset.specials must be a list of {kind, units}, the lowest ranked first"))
    specials: list[SpecialRule] = []
    for position, entry in enumerate(value):
        special = _special(entry, f"preset.specials[{position}]")
        if any(other.kind is special.kind for other in specials):
            said = _("preset.specials[{position}]: {kind} is listed twice")
            raise PresetError(said.format(position=position, kind=special.kind.value))
        specials.append(replace(special, strict=special.kind in strict))
    return tuple(specials)


_LIMIT_KEYS: Final = {SpecialKind.SMALL: "highest", SpecialKind.BIG: "lowest"}


def _special(entry: Any, path: str) -> SpecialRule:
    item = PresetReader(entry, path)
    text = item.text("kind")
    try:
        kind = SpecialKind(text)
    except ValueError:
        kinds = ", ".join(kind.value for kind in SpecialKind)
        said = _("{field} {kind} is not a special hand ({kinds})")
        raise PresetError(said.format(field=f"{path}.kind", kind=repr(text), kinds=kinds)) from None
    units = item.number("units")
    limit = None
    if kind in _LIMIT_KEYS:
        key = _LIMIT_KEYS[kind]
        limit_text = item.text(key)
        try:
            limit = Rank(limit_text)
        except ValueError:
            raise PresetError(
                _("{field} must be a rank: 2-9, T, J, Q, K").format(field=f"{path}.{key}")
            ) from None
        if limit is Rank.ACE:
            raise PresetError(
                _("{field} must be below an ace (an ace is high)").format(field=f"{path}.{key}")
            )
    item.refuse_unread()
    return SpecialRule(kind, units, limit)


def _ace_units(reader: PresetReader) -> tuple[int, ...]:
    value = reader.value("ace_units")
    if (
        not isinstance(value, list)
        or len(value) != ACES_HELD
        or not all(
            isinstance(units, int) and not isinstance(units, bool) and 0 <= units <= MAX_POINTS
            for units in value
        )
    ):
        said = _("preset.ace_units must be four whole numbers from 0 to {most}: the worth of 1-4 aces")
        raise PresetError(said.format(most=f"{MAX_POINTS:,}"))
    return tuple(value)
