"""OFC rules presets: every number and flag of docs/rules.md §4–§7 and §9, read from plain JSON files.

>>> standard = load_preset("standard")
>>> standard.royalties.back["royal_flush"], standard.royalties.front_trips["A"]
(25, 22)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ofc_desk.core.cards import Rank
from ofc_desk.core.hands import HandClass
from ofc_desk.core.jackpot import JackpotAward
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import (
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
from ofc_desk.i18n import _

FANTASYLAND_CARDS = (13, 52)
"""A Fantasyland hand sets 13 cards; it may be dealt more, never more than the deck."""


@dataclass(frozen=True)
class ScoringSystem:
    """Points per row won, the bonus for winning all three, the bonus for winning more rows."""

    row: int
    scoop: int
    majority: int


@dataclass(frozen=True)
class Royalties:
    """A preset's royalties, by row and hand."""

    back: Mapping[str, int]
    middle: Mapping[str, int]
    front_pairs: Mapping[str, int]
    front_trips: Mapping[str, int]
    deuce_to_seven_middle: Mapping[str, int]


@dataclass(frozen=True)
class DeuceToSevenFantasyland:
    """A preset's Fantasyland of the 2-7 middle: its entry, cards and stay."""

    entry_front_pair: str
    entry_middle: str
    one_condition_cards: int
    both_conditions_cards: int
    stay: Mapping[str, str]
    stay_cards: int


@dataclass(frozen=True)
class FantasylandRules:
    """A preset's Fantasyland: its entry, the cards dealt and the stay."""

    entry_front_pair: str
    cards: Mapping[str, int]
    progressive_cards: Mapping[str, int]
    progressive_stay_cards: int
    stay: Mapping[str, str]
    max_consecutive: int | None
    deuce_to_seven: DeuceToSevenFantasyland


@dataclass(frozen=True)
class RulesPreset(StoredPreset):
    """An OFC rules preset, as its file gives it."""

    name: str
    description: str
    scoring: str
    scoring_systems: Mapping[str, ScoringSystem]
    foul_penalty: int
    winner_only_royalties: bool
    royalties: Royalties
    fantasyland: FantasylandRules
    rake: RakeRules
    jackpot_award: JackpotAward | None = None
    """The jackpot for unusual events (§11); None (no award) unless the preset names one."""
    source: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def scoring_system(self, name: str | None = None) -> ScoringSystem:
        chosen = self.scoring if name is None else name
        try:
            return self.scoring_systems[chosen]
        except KeyError:
            known = ", ".join(sorted(self.scoring_systems))
            said = _("unknown scoring '{scoring}' (this preset has {known})")
            raise PresetError(said.format(scoring=chosen, known=known)) from None


def load_preset(name: str) -> RulesPreset:
    return load_game_preset(name, Game.OFC, preset_from_dict)


_HAND_CLASSES = frozenset(hand_class.name.lower() for hand_class in HandClass)
_RANKS = frozenset(rank.value for rank in Rank)


def _is_low_hand(key: str) -> bool:
    """A deuce-to-seven middle royalty names a high card ("9") or five ranks ("7-5-4-3-2")."""
    ranks = key.split("-")
    return len(ranks) in (1, 5) and _RANKS.issuperset(ranks)


def preset_from_dict(data: Mapping[str, Any], overrides: Mapping[str, Any] | None = None) -> RulesPreset:
    """Build a preset from its JSON form, with house options layered on top (deep merge).

    Every field is checked, and a field the preset does not have is refused: a misspelt house
    option (`winner_only_royalty`) would otherwise score silently by the preset's own numbers.
    """
    merged = deep_merge(dict(data), overrides or {})
    reader = PresetReader(merged, "preset")
    refuse_other_game(reader, Game.OFC, _("preset.game must be {game} for an OFC preset"))
    royalties = reader.section("royalties")
    fantasyland = reader.section("fantasyland")
    deuce = fantasyland.section("deuce_to_seven")
    systems = reader.section("scoring_systems")
    preset = RulesPreset(
        name=reader.text("name"),
        description=reader.text("description", ""),
        scoring=reader.text("scoring"),
        scoring_systems=MappingProxyType(
            {
                key: ScoringSystem(**systems.section(key).numbers("row", "scoop", "majority"))
                for key in systems.data
            }
        ),
        foul_penalty=reader.number("foul_penalty"),
        winner_only_royalties=reader.flag("winner_only_royalties"),
        royalties=Royalties(
            back=royalties.table("back", _HAND_CLASSES.__contains__, _("a hand class such as flush")),
            middle=royalties.table("middle", _HAND_CLASSES.__contains__, _("a hand class such as flush")),
            front_pairs=royalties.table(
                "front_pairs", _RANKS.__contains__, _("a rank: 2-9, T, J, Q, K or A")
            ),
            front_trips=royalties.table(
                "front_trips", _RANKS.__contains__, _("a rank: 2-9, T, J, Q, K or A")
            ),
            deuce_to_seven_middle=royalties.table(
                "deuce_to_seven_middle",
                _is_low_hand,
                _("a high card such as 9 or five ranks such as 7-5-4-3-2"),
            ),
        ),
        fantasyland=FantasylandRules(
            entry_front_pair=fantasyland.text("entry_front_pair"),
            cards=fantasyland.table(
                "cards",
                {variant.value for variant in Variant}.__contains__,
                _("a variant such as pineapple"),
                FANTASYLAND_CARDS,
            ),
            progressive_cards=fantasyland.table(
                "progressive_cards",
                {*_RANKS, "trips"}.__contains__,
                _("a pair's rank such as Q, or trips"),
                FANTASYLAND_CARDS,
            ),
            progressive_stay_cards=fantasyland.number("progressive_stay_cards", *FANTASYLAND_CARDS),
            stay=fantasyland.words("stay"),
            max_consecutive=fantasyland.optional_number("max_consecutive"),
            deuce_to_seven=DeuceToSevenFantasyland(
                entry_front_pair=deuce.text("entry_front_pair"),
                entry_middle=deuce.text("entry_middle"),
                one_condition_cards=deuce.number("one_condition_cards", *FANTASYLAND_CARDS),
                both_conditions_cards=deuce.number("both_conditions_cards", *FANTASYLAND_CARDS),
                stay=deuce.words("stay"),
                stay_cards=deuce.number("stay_cards", *FANTASYLAND_CARDS),
            ),
        ),
        rake=read_rake(reader.section("rake")),
        jackpot_award=preset_jackpot_award(reader),
        source=MappingProxyType(merged),
    )
    reader.refuse_unread()
    preset.scoring_system()
    _check_fantasyland(preset.fantasyland, "preset.fantasyland")
    return preset


def refuse_award_for_variant(award: JackpotAward | None, variant: Variant) -> None:
    """A 2-7 pineapple table takes no award: its middle is a low hand, with no class in the award's
    order (docs/rules.md §11). Refused when the table opens or the deal is read."""
    if award is not None and variant.lowball_middle:
        said = _(
            "a {variant} table takes no jackpot_award: its middle is a low hand, which has no class in"
            " the award's order"
        )
        raise PresetError(said.format(variant=variant.value))


def _check_fantasyland(rules: FantasylandRules, path: str) -> None:
    """Refuse Fantasyland data that names no rank, row or hand, before a deal is scored with it."""
    deuce = rules.deuce_to_seven
    entry = _rank(rules.entry_front_pair, f"{path}.entry_front_pair")
    _rank(deuce.entry_front_pair, f"{path}.deuce_to_seven.entry_front_pair")
    low = deuce.entry_middle.split("-")
    if len(low) != 5:
        said = _("{field} must be five ranks such as 7-5-4-3-2")
        raise PresetError(said.format(field=f"{path}.deuce_to_seven.entry_middle"))
    for rank in low:
        _rank(rank, f"{path}.deuce_to_seven.entry_middle")
    for variant in Variant:
        if not variant.lowball_middle and variant.value not in rules.cards:
            raise PresetError(_("{field} is missing").format(field=f"{path}.cards.{variant.value}"))
    for key in [rank.value for rank in Rank if rank.order >= entry.order] + ["trips"]:
        if key not in rules.progressive_cards:
            raise PresetError(_("{field} is missing").format(field=f"{path}.progressive_cards.{key}"))
    for stay, where in ((rules.stay, f"{path}.stay"), (deuce.stay, f"{path}.deuce_to_seven.stay")):
        for row, least in stay.items():
            if row not in set(Row):
                raise PresetError(
                    _("{field} is not a row (front, middle, back)").format(field=f"{where}.{row}")
                )
            if least.upper() not in HandClass.__members__:
                said = _("{field} must name a hand such as trips, full_house, quads")
                raise PresetError(said.format(field=f"{where}.{row}"))


def _rank(value: str, path: str) -> Rank:
    try:
        return Rank(value)
    except ValueError:
        raise PresetError(_("{field} must be a rank: 2-9, T, J, Q, K or A").format(field=path)) from None
