"""The typed result of a settled hand (core/results.py): for both games and every payment, reading
the stored JSON back gives exactly the core's view; old stored shapes are read; a stored result that
is not one is refused naming the key."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_desk.core.cards import FULL_DECK, Card, parse_cards
from ofc_desk.core.chinese.deal import (
    ChineseDeal,
    ChineseDealResult,
    ChineseSeat,
    chinese_jackpot,
    score_chinese_deal,
)
from ofc_desk.core.chinese.payment import Payment
from ofc_desk.core.chinese.presets import chinese_preset_from_dict, load_chinese_preset
from ofc_desk.core.chinese.schemes import payment_outcome
from ofc_desk.core.chinese.showdown import Entry, Showdown, showdown_of
from ofc_desk.core.chinese.specials import SpecialKind
from ofc_desk.core.jackpot import JackpotResult
from ofc_desk.core.ofc.deal import Deal, DealResult, SeatHand, deal_jackpot, score_deal
from ofc_desk.core.ofc.presets import load_preset, preset_from_dict
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import Game, preset_names
from ofc_desk.core.results import HandResult, ResultUnreadable, read_transfers
from ofc_desk.core.rows import SetHand
from ofc_desk.core.settlement import SettleFrom, SettlementPass, SettlementPolicy
from ofc_desk.core.stored_results import read_hand_result
from ofc_desk.storage.audit import canonical_json

NAMES = ("Ann", "Bob", "Cy", "Dee")
AWARD = {"front": "high-card", "middle": "high-card", "back": "pair", "loser": 50, "winner": 25, "table": 25}
SIX_PAIRS = parse_cards("2c 2d 3c 3d 7c 7s Tc Td Qc Qd Ac As 9c")


def stored(answer: dict[str, Any]) -> object:
    """A result as the database holds it and gives it back: its canonical JSON, parsed."""
    return json.loads(canonical_json(answer))


def set_hand(cards: list[Card], ordered: bool = False) -> SetHand:
    """13 cards in the rows they were drawn in (a foul or a misset now and then, as at a table), or
    ordered by rank, the highest at the back: pairs and trips in a row, bonuses and royalties."""
    if ordered:
        cards = sorted(cards, key=lambda card: card.rank.order)
    return SetHand(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:13]))


# Bob holds a pair, trips and a straight flush and loses all three rows to Ann (tests/core/test_jackpot.py).
STRONG = {
    "Ann": SetHand.parse("Ks Kh 2c", "Ac Ad Ah 3c 3d", "9d Td Jd Qd Kd"),
    "Bob": SetHand.parse("2s 2h 4c", "4s 4h 4d 6c 7d", "8c 9c Tc Jc Qc"),
    "Cy": SetHand.parse("2d 3h 6d", "5c 5d 7c 8d 9h", "Th Ts Jh Js Qh"),
}
PAID_AWARD: dict[str, object] = {"front": "pair", "middle": "three-of-a-kind", "back": "straight-flush"}
PAID_AWARD |= {"loser": 50, "winner": 25, "table": 25}


@st.composite
def ofc_deals(draw: st.DrawFn) -> tuple[Deal, bool]:
    """A deal of any OFC preset and variant, and whether its preset pays an award."""
    variant = draw(st.sampled_from(list(Variant)))
    award = not variant.lowball_middle and draw(st.booleans())
    name = draw(st.sampled_from(preset_names(Game.OFC)))
    preset = preset_from_dict(load_preset(name).to_dict(), {"jackpot_award": AWARD} if award else None)
    names = NAMES[: draw(st.integers(2, 4))]
    deck = list(draw(st.permutations(FULL_DECK)))
    seats = tuple(
        SeatHand(
            name, draw(st.integers(0, 60)), set_hand(deck[13 * place : 13 * place + 13], draw(st.booleans()))
        )
        for place, name in enumerate(names)
    )
    in_fantasyland = frozenset(draw(st.sets(st.sampled_from(names))))
    deal = Deal(
        preset,
        draw(st.sampled_from(names)),
        seats,
        variant=variant,
        progressive=draw(st.booleans()),
        unit=draw(st.integers(1, 3)),
        settlement=draw(st.sampled_from(list(SettlementPolicy))),
        settle_from=draw(st.sampled_from(list(SettleFrom))),
        in_fantasyland=in_fantasyland,
    )
    return deal, award


@st.composite
def chinese_deals(draw: st.DrawFn) -> ChineseDeal:
    """A deal of any shipped Chinese preset (so every payment), with surrenders and a declared six
    pairs where the preset plays them, and an award on half of them."""
    name = draw(st.sampled_from(preset_names(Game.CHINESE)))
    options: dict[str, object] = {"aces": draw(st.booleans())}
    if draw(st.booleans()):
        options["jackpot_award"] = AWARD
    preset = chinese_preset_from_dict(load_chinese_preset(name).to_dict(), options)
    names = NAMES[: draw(st.integers(2, 4))]
    six_pairs = preset.special(SpecialKind.SIX_PAIRS)
    declared = six_pairs is not None and draw(st.booleans())
    deck = [card for card in draw(st.permutations(FULL_DECK)) if not declared or card not in SIX_PAIRS]
    seats = []
    for place, player in enumerate(names):
        entry = Entry.set_rows(set_hand(deck[13 * place : 13 * place + 13], draw(st.booleans())))
        if declared and place == 0 and six_pairs is not None:
            entry = Entry.declare(six_pairs, SIX_PAIRS)
        elif preset.surrender is not None and draw(st.integers(0, 4)) == 0:
            entry = Entry.surrender()
        seats.append(ChineseSeat(player, draw(st.integers(0, 60)), entry))
    return ChineseDeal(
        preset,
        draw(st.sampled_from(names)),
        tuple(seats),
        unit=draw(st.integers(1, 3)),
        settlement=draw(st.sampled_from(list(SettlementPolicy))),
        settle_from=draw(st.sampled_from(list(SettleFrom))),
    )


@settings(max_examples=60, deadline=None)
@given(drawn=ofc_deals(), pool=st.integers(0, 5_000), drop=st.integers(0, 10))
def test_an_ofc_result_reads_back_as_its_view(drawn: tuple[Deal, bool], pool: int, drop: int) -> None:
    deal, award = drawn
    result = score_deal(deal)
    assert read_hand_result(stored(result.to_json())) == result.view()
    assert read_transfers(stored(result.to_json())) == result.transfers_view() == result.view().transfers
    if award:
        jackpot = deal_jackpot(deal, result, pool, drop)
        assert read_hand_result(stored(result.to_json(jackpot))) == result.view(jackpot)


@settings(max_examples=80, deadline=None)
@given(deal=chinese_deals(), pool=st.integers(0, 5_000))
def test_a_chinese_result_reads_back_as_its_view(deal: ChineseDeal, pool: int) -> None:
    result = score_chinese_deal(deal)
    view = result.view()
    assert read_hand_result(stored(result.to_json())) == view
    assert read_transfers(stored(result.to_json())) == result.transfers_view() == view.transfers
    assert view.game is Game.CHINESE and view.preset == deal.preset.name
    assert (view.payment is None) is (deal.preset.payment.payment is Payment.PAIRS)
    jackpot: JackpotResult | None = chinese_jackpot(deal, result, pool) if deal.preset.jackpot_award else None
    assert read_hand_result(stored(result.to_json(jackpot))) == result.view(jackpot)


def read_back_with_its_award(result: DealResult | ChineseDealResult, jackpot: JackpotResult) -> HandResult:
    view = read_hand_result(stored(result.to_json(jackpot)))
    assert view == result.view(jackpot)
    assert jackpot.award is not None and view.jackpot is not None and view.jackpot.award == jackpot.award
    return view


def test_an_ofc_result_with_royalties_fantasyland_and_an_award_reads_back() -> None:
    preset = preset_from_dict(load_preset("standard").to_dict(), {"jackpot_award": PAID_AWARD})
    seats = tuple(SeatHand(name, 100, hand) for name, hand in STRONG.items())
    deal = Deal(preset, "Cy", seats, progressive=True)
    result = score_deal(deal)
    jackpot = deal_jackpot(deal, result, 999)
    view = read_back_with_its_award(result, jackpot)
    ann = view.seat("Ann")
    assert (ann.fantasyland_next, ann.royalties > 0) == (15, True)
    assert ann.stack_after == result.player("Ann").stack_after + jackpot.chips_for("Ann")


def test_a_chinese_result_with_bonuses_and_an_award_reads_back() -> None:
    preset = chinese_preset_from_dict(
        load_chinese_preset("hawaiian-gardens").to_dict(), {"jackpot_award": PAID_AWARD, "aces": True}
    )
    seats = tuple(ChineseSeat(name, 100, Entry.set_rows(hand)) for name, hand in STRONG.items())
    deal = ChineseDeal(preset, "Cy", seats)
    result = score_chinese_deal(deal)
    jackpot = chinese_jackpot(deal, result, 1000)
    view = read_back_with_its_award(result, jackpot)
    bob = view.seat("Bob")
    assert bob.royalties == sum(row.points for row in bob.rows or ()) > 0  # his straight flush's bonus
    assert bob.stack_after == result.player("Bob").stack_after + jackpot.chips_for("Bob")
    assert bob.showdown == Showdown(False, None, 0)  # a house that pays aces: Bob holds none
    assert view.seat("Ann").showdown == Showdown(False, None, 3)


def seed_deal() -> tuple[dict[str, Any], HandResult]:
    """The seed example of docs/rules.md §10 under chinese-typical, with a surrender and a declared
    six pairs beside it: its stored JSON and its view."""
    preset = load_chinese_preset("chinese-typical")
    six_pairs = preset.special(SpecialKind.SIX_PAIRS)
    assert six_pairs is not None
    rest = [card for card in FULL_DECK if card not in SIX_PAIRS]
    seats = (
        ChineseSeat("Ann", 40, Entry.set_rows(set_hand(rest[:13]))),
        ChineseSeat("Bob", 40, Entry.surrender()),
        ChineseSeat("Cy", 40, Entry.declare(six_pairs, SIX_PAIRS)),
    )
    result = score_chinese_deal(ChineseDeal(preset, "Cy", seats))
    answer = stored(result.to_json())
    assert isinstance(answer, dict)
    return answer, result.view()


def test_a_chinese_result_stored_before_payments_had_their_outcome_reads_the_same() -> None:
    """Before the pool and single-winner payments (5b8f7d9), a stored result had no `payment`."""
    answer, view = seed_deal()
    assert "payment" not in answer  # a pairs deal writes none to this day
    assert read_hand_result(answer) == view
    surrendered, declared = view.seats[1], view.seats[2]
    assert (surrendered.rows, surrendered.showdown) == (None, Showdown(True, None, None))
    shown = showdown_of(declared)
    assert declared.rows is None and shown is not None
    assert shown.special is SpecialKind.SIX_PAIRS
    assert [pair.rows for pair in view.pairs if "Bob" in (pair.first, pair.second)] == [None, None]
    assert {transfer.settles for transfer in view.transfers} <= set(SettlementPass)


def test_a_pool_and_a_single_winner_outcome_read_back() -> None:
    for name, payment in (("pool", Payment.POOL), ("pusoy-single-winner", Payment.SINGLE_WINNER)):
        deck = list(FULL_DECK)
        seats = tuple(
            ChineseSeat(player, 30, Entry.set_rows(set_hand(deck[13 * place : 13 * place + 13])))
            for place, player in enumerate(NAMES[:3])
        )
        result = score_chinese_deal(ChineseDeal(load_chinese_preset(name), "Ann", seats))
        view = read_hand_result(stored(result.to_json()))
        outcome = payment_outcome(view)
        assert outcome is not None and outcome.payment is payment
        assert view == result.view()


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (
            lambda answer: answer["players"][1]["rows"]["middle"].update(cards="Ah Zz"),
            "result.players[1].rows",
        ),
        (lambda answer: answer["players"][0].pop("stack_after"), "result.players[0].stack_after is missing"),
        (
            lambda answer: answer["matchups"][0].update(points="3"),
            "result.matchups[0].points must be a whole",
        ),
        (lambda answer: answer["transfers"][0].update(paid=True), "result.transfers[0].paid must be a whole"),
        (lambda answer: answer.update(players={}), "result.players must be a list"),
    ],
)
def test_a_stored_result_that_is_not_one_is_refused_naming_the_key(change: Any, named: str) -> None:
    ann = SetHand.parse("Qs Qd 2c", "Ah Kh 9h 4h 2h", "7s 7d 7c 3s 3d")
    bob = SetHand.parse("Ks 5d 2d", "Jc Jd 9c 4c 3c", "Ts 9s 8d 7h 6c")
    deal = Deal(load_preset("standard"), "Bob", (SeatHand("Ann", 100, ann), SeatHand("Bob", 100, bob)))
    answer = stored(score_deal(deal).to_json())
    assert isinstance(answer, dict) and answer["transfers"]
    change(answer)
    with pytest.raises(ResultUnreadable, match=re.escape(named)):
        read_hand_result(answer)


def test_a_chinese_result_names_its_bad_special_and_pass() -> None:
    answer, _ = seed_deal()
    answer["players"][2]["special"] = "seven-pairs"
    with pytest.raises(
        ResultUnreadable, match=re.escape("players[2].special: 'seven-pairs' is not a special")
    ):
        read_hand_result(answer)
    answer, _ = seed_deal()
    answer["transfers"][0]["pass"] = "third"
    with pytest.raises(
        ResultUnreadable, match=re.escape("transfers[0].pass: 'third' is not a settlement pass")
    ):
        read_hand_result(answer)
