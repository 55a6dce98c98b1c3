"""Who plays the next hand in Fantasyland, and with how many cards (docs/rules.md §6, §7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ofc_desk.core.cards import Card, Rank
from ofc_desk.core.hands import HandClass, lowball_ranks
from ofc_desk.core.ofc.presets import FantasylandRules, RulesPreset
from ofc_desk.core.ofc.scoring import HandReport, qualifies_as_low
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.rows import Row

TRIPS_KEY = "trips"


def fantasyland_cards(
    report: HandReport,
    preset: RulesPreset,
    variant: Variant,
    *,
    progressive: bool,
    in_fantasyland: bool,
    consecutive: int = 1,
) -> int:
    """Cards dealt to this player next hand in Fantasyland; 0 when they play it normally.

    `consecutive` counts the Fantasyland hands this player has played in a row, this one
    included; it matters only when the preset caps consecutive Fantasyland hands.
    """
    if report.foul:
        return 0
    rules = preset.fantasyland
    if in_fantasyland:
        if rules.max_consecutive is not None and consecutive >= rules.max_consecutive:
            return 0
        return _stay_cards(report, rules, variant, progressive)
    return _entry_cards(report, rules, variant, progressive)


def _meets(cards_class: HandClass, least: str) -> bool:
    return cards_class >= HandClass[least.upper()]


def _front_entry_key(report: HandReport, least_pair: str) -> str | None:
    """'trips', or the pair's rank when it is at least `least_pair`; None otherwise."""
    front = report.rows[Row.FRONT]
    category, top = front.category, front.top_rank
    if category is HandClass.TRIPS:
        return TRIPS_KEY
    if category is HandClass.PAIR and top.order >= Rank(least_pair).order:
        return top.value
    return None


def _entry_cards(report: HandReport, rules: FantasylandRules, variant: Variant, progressive: bool) -> int:
    if variant.lowball_middle:
        deuce = rules.deuce_to_seven
        conditions = (
            _front_entry_key(report, deuce.entry_front_pair) is not None,
            _low_at_least(report.hand.middle, deuce.entry_middle),
        )
        met = sum(conditions)
        return {0: 0, 1: deuce.one_condition_cards}.get(met, deuce.both_conditions_cards)
    key = _front_entry_key(report, rules.entry_front_pair)
    if key is None:
        return 0
    if progressive:
        return rules.progressive_cards[key]
    return rules.cards[variant.value]


def _low_at_least(middle: Sequence[Card], least: str) -> bool:
    """A qualifying 2-7 low as good as `least` ('7-5-4-3-2') or better, comparing ranks from the top."""
    if not qualifies_as_low(middle):
        return False
    limit = sorted((Rank(text).order for text in least.split("-")), reverse=True)
    return [rank.order for rank in lowball_ranks(middle)] <= limit


def _stay_cards(report: HandReport, rules: FantasylandRules, variant: Variant, progressive: bool) -> int:
    if variant.lowball_middle:
        deuce = rules.deuce_to_seven
        return deuce.stay_cards if _stays(report, deuce.stay) else 0
    if not _stays(report, rules.stay):
        return 0
    return rules.progressive_stay_cards if progressive else rules.cards[variant.value]


def _stays(report: HandReport, stay: Mapping[str, str]) -> bool:
    """Any row at least as strong as the preset's stay condition for that row."""
    return any(_meets(report.rows[Row(row)].category, least) for row, least in stay.items())
