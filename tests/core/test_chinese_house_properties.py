"""Properties of the house variants (docs/rules.md §13) on random deals of every shipped preset:
each option at its default changes nothing, and each option changes only what it names."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_desk.core.cards import FULL_DECK, Rank
from ofc_desk.core.chinese.deal import ChineseDeal, score_chinese_deal
from ofc_desk.core.chinese.pairs import scooped
from ofc_desk.core.chinese.presets import chinese_preset_from_dict
from ofc_desk.core.hands import HandClass, category_of, deciding_rank
from tests.core.test_chinese_properties import deals

DEFAULTS: dict[str, Any] = {
    "wheel": "low",
    "bonus_by_rank": {},
    "scoop_multipliers": None,
    "strict_specials": [],
}


@settings(max_examples=120, deadline=None)
@given(deal=deals(), keys=st.sets(st.sampled_from(sorted(DEFAULTS)), min_size=1))
def test_every_option_at_its_default_changes_nothing(deal: ChineseDeal, keys: set[str]) -> None:
    # A variant preset's own options stay (taiwanese, shisanshui): the defaults go where it has none.
    options = {key: DEFAULTS[key] for key in keys if key not in deal.preset.source}
    again = replace(deal, preset=chinese_preset_from_dict(deal.preset.source, options))
    assert score_chinese_deal(again).to_json() == score_chinese_deal(deal).to_json()


_STRAIGHTS = (HandClass.STRAIGHT, HandClass.STRAIGHT_FLUSH)


def _has_wheel(deal: ChineseDeal) -> bool:
    result = score_chinese_deal(deal)
    for player in result.players:
        for row in player.shown.rows or ():
            category = category_of(row.value)
            if category in _STRAIGHTS and deciding_rank(row.value) is Rank.FIVE:
                return True
    return False


def _pairs_only(deal: ChineseDeal) -> bool:
    return deal.preset.payment.payment.plays_declarations


@settings(max_examples=120, deadline=None)
@given(deal=deals())
def test_the_wheel_option_changes_only_deals_that_hold_a_wheel(deal: ChineseDeal) -> None:
    second = replace(deal, preset=chinese_preset_from_dict(deal.preset.source, {"wheel": "second"}))
    if not _has_wheel(deal):
        assert score_chinese_deal(second).to_json() == score_chinese_deal(deal).to_json()
    result = score_chinese_deal(second)
    assert sum(p.stack_after for p in result.players) == sum(seat.stack for seat in deal.players)


@settings(max_examples=120, deadline=None)
@given(deal=deals(), multipliers=st.lists(st.integers(1, 10), min_size=1, max_size=4))
def test_scoop_multipliers_change_only_pairs_with_a_scoop(deal: ChineseDeal, multipliers: list[int]) -> None:
    if not _pairs_only(deal) or deal.preset.scheme.value != "rows":
        return  # refused there (§13): tests/core/test_chinese_house_variants.py
    options = {"scoop_multipliers": multipliers}
    plain = score_chinese_deal(deal)
    multiplied = score_chinese_deal(
        replace(deal, preset=chinese_preset_from_dict(deal.preset.source, options))
    )
    compared: dict[str, int] = {}
    scoops: dict[str, int] = {}
    for matchup in plain.matchups:
        if matchup.score.outcome is not None:
            for name, side in ((matchup.first, 1), (matchup.second, -1)):
                compared[name] = compared.get(name, 0) + 1
                scoops[name] = scoops.get(name, 0) + (scooped(matchup.score.outcome) == side)
    preset = deal.preset
    for before, after in zip(plain.matchups, multiplied.matchups, strict=True):
        outcome = before.score.outcome
        if outcome is None or not scooped(outcome):
            assert after.score == before.score
            continue
        scooper = before.first if scooped(outcome) > 0 else before.second
        count = scoops[scooper]
        everyone = count >= 2 and count == compared[scooper]
        old = preset.scoop_all_multiplier if everyone else preset.scoop_multiplier
        if preset.house.scoop_multipliers is not None:  # a variant preset's own (taiwanese)
            old = preset.house.multiplier(count)
        new = multipliers[min(count, len(multipliers)) - 1]
        assert after.score.rows * old == before.score.rows * new
        assert after.score._replace(rows=0) == before.score._replace(rows=0)


@settings(max_examples=120, deadline=None)
@given(deal=deals())
def test_strictness_only_takes_specials_away(deal: ChineseDeal) -> None:
    if not _pairs_only(deal):
        return
    kinds = ["six-pairs", "five-pairs-and-trips", "four-trips", "three-flushes", "three-straight-flushes"]
    strict = chinese_preset_from_dict(deal.preset.source, {"strict_specials": kinds})
    for seat in deal.players:
        cards = seat.entry.cards
        if len(cards) != len(FULL_DECK) // 4:
            continue
        loose_kinds = {special.kind for special in deal.preset.specials_made(cards)}
        strict_kinds = {special.kind for special in strict.specials_made(cards)}
        assert strict_kinds <= loose_kinds
        for kind in loose_kinds - strict_kinds:
            rule = strict.special(kind)
            assert rule is not None and rule.made_only_loosely(cards)
