"""Properties of Chinese poker scoring that hold for every deal (docs/rules.md §10, §8): chips are
conserved, a pair's result is antisymmetric, a surrender pays exactly its units to each opponent,
and a misset hand never wins a row."""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ofc_desk.core.cards import FULL_DECK, Card
from ofc_desk.core.chinese.deal import ChineseDeal, ChineseSeat, score_chinese_deal
from ofc_desk.core.chinese.pairs import Scoops, compare_rows, score_pair
from ofc_desk.core.chinese.payment import Payment
from ofc_desk.core.chinese.presets import ChinesePreset, chinese_preset_from_dict, load_chinese_preset
from ofc_desk.core.chinese.showdown import Entry, show
from ofc_desk.core.presets import Game, preset_names
from ofc_desk.core.rows import SetHand
from ofc_desk.core.settlement import SettleFrom, SettlementPolicy

NAMES = ("Ann", "Bob", "Cy", "Dee")


CHINESE_PRESETS = preset_names(Game.CHINESE)
"""Listed once a process, not at each example: the shipped folder does not change in a run."""


shipped_preset = functools.cache(load_chinese_preset)
"""A shipped preset as its file reads, read once a process."""


@functools.cache
def preset_with(name: str, aces: bool, sweep: int, overall_point: int, other_bank: bool) -> ChinesePreset:
    """A shipped preset with these options, read and built once a process: a preset is frozen,
    so every example drawing the same options gets the same value it would build anew."""
    base = shipped_preset(name)
    options: dict[str, Any] = {"aces": aces, "sweep": sweep, "overall_point": overall_point}
    if other_bank:
        options["bank"] = not base.bank
    return chinese_preset_from_dict(base.source, options)


@st.composite
def presets(draw: st.DrawFn) -> ChinesePreset:
    name = draw(st.sampled_from(CHINESE_PRESETS))
    aces, sweep, overall_point = draw(st.booleans()), draw(st.integers(0, 3)), draw(st.integers(0, 1))
    # A pool or single-winner table has no bank (§11).
    other_bank = draw(st.booleans()) and shipped_preset(name).payment.payment.plays_declarations
    return preset_with(name, aces, sweep, overall_point, other_bank)


@st.composite
def entries(draw: st.DrawFn, cards: list[Card], preset: ChinesePreset) -> Entry:
    choice = draw(st.sampled_from(["rows", "rows", "sorted rows", "surrender", "declare"]))
    if choice == "surrender" and not preset.unplayed(surrender=True):
        return Entry.surrender()
    made = preset.specials_made(cards)
    if choice == "declare" and made:
        return Entry.declare(draw(st.sampled_from(made)), cards)
    if choice == "sorted rows":
        # Strongest ranks at the back: mostly hands set correctly.
        cards = sorted(cards, key=lambda card: card.rank.order)
    return Entry.set_rows(SetHand(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:])))


@st.composite
def deals(draw: st.DrawFn) -> ChineseDeal:
    preset = draw(presets())
    count = draw(st.integers(2, 4))
    deck = draw(st.permutations(FULL_DECK))
    seats = tuple(
        ChineseSeat(
            NAMES[seat],
            draw(st.integers(0, 60)),
            draw(entries(list(deck[13 * seat : 13 * seat + 13]), preset)),
        )
        for seat in range(count)
    )
    return ChineseDeal(
        preset,
        draw(st.sampled_from(NAMES[:count])),
        seats,
        unit=draw(st.integers(1, 5)),
        settlement=draw(st.sampled_from(list(SettlementPolicy))),
        settle_from=draw(st.sampled_from(list(SettleFrom))),
    )


@settings(max_examples=150, deadline=None)
@given(deal=deals())
def test_chips_are_conserved_and_no_stack_goes_below_zero(deal: ChineseDeal) -> None:
    result = score_chinese_deal(deal)
    assert sum(p.stack_after for p in result.players) == sum(seat.stack for seat in deal.players)
    assert all(p.stack_after >= 0 for p in result.players)
    assert sum(p.points for p in result.players) == 0


@settings(max_examples=150, deadline=None)
@given(deal=deals())
def test_a_pairs_result_is_antisymmetric(deal: ChineseDeal) -> None:
    """§10's pair result; every payment's, tests/core/test_payments.py."""
    preset, bank = deal.preset, deal.bank
    assume(preset.payment.payment is Payment.PAIRS)
    shown = [show(seat.entry, preset) for seat in deal.players]
    names = [seat.name for seat in deal.players]
    for i, first in enumerate(shown):
        for j, second in enumerate(shown):
            if i == j:
                continue
            side = (names[i] == bank) - (names[j] == bank)
            scoops = Scoops(first_all=i % 2 == 0, second_all=j % 2 == 0)
            both_rows = first.compared_row_by_row and second.compared_row_by_row
            outcome = compare_rows(first, second, side) if both_rows else None
            back = compare_rows(second, first, -side) if both_rows else None
            assert back == (None if outcome is None else tuple(-result for result in outcome))
            there = score_pair(first, second, preset, outcome, scoops)
            again = score_pair(second, first, preset, back, Scoops(scoops.second_all, scoops.first_all))
            assert (again.special, again.rest) == (-there.special, -there.rest)


@settings(max_examples=150, deadline=None)
@given(deal=deals())
def test_a_surrender_pays_exactly_the_surrender_to_each_opponent(deal: ChineseDeal) -> None:
    result = score_chinese_deal(deal)
    surrendered = {seat.name for seat in deal.players if seat.entry.surrendered}
    for matchup in result.matchups:
        pair = {matchup.first, matchup.second}
        if not pair & surrendered:
            continue
        surrender = deal.preset.surrender
        assert surrender is not None  # someone surrendered: the preset allows it
        expected = 0
        if matchup.first in surrendered and matchup.second not in surrendered:
            expected = -surrender
        elif matchup.second in surrendered and matchup.first not in surrendered:
            expected = surrender
        assert (matchup.score.total, matchup.score.special, matchup.score.aces) == (expected, 0, 0)


@settings(max_examples=150, deadline=None)
@given(deal=deals())
def test_a_misset_hand_never_wins_a_row(deal: ChineseDeal) -> None:
    result = score_chinese_deal(deal)
    misset = {p.name for p in result.players if p.shown.misset}
    for matchup in result.matchups:
        outcome = matchup.score.outcome
        if outcome is None:
            continue
        if matchup.first in misset:
            assert 1 not in outcome
        if matchup.second in misset:
            assert -1 not in outcome
