"""The jackpot for unusual events (docs/rules.md §11) in the rules core, for both games: the award's
rules refused field by field, the qualifying pair found in settlement order (its starting point,
bank games, misset, fouled, surrendered and declared hands), the shares of the pool with their
rounding, and chips conserved with the pool in every deal."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_desk.core.cards import FULL_DECK
from ofc_desk.core.chinese.deal import (
    ChineseDeal,
    ChineseSeat,
    chinese_jackpot,
    score_chinese_deal,
)
from ofc_desk.core.chinese.deal_input import chinese_deal_from_json
from ofc_desk.core.chinese.presets import chinese_preset_from_dict, load_chinese_preset
from ofc_desk.core.chinese.showdown import Entry
from ofc_desk.core.deal_input import DealInputError
from ofc_desk.core.hands import HandClass, category_of
from ofc_desk.core.jackpot import (
    AwardRulesError,
    JackpotAward,
    PairRows,
    Qualifier,
    pay_jackpot,
    qualifying_pair,
)
from ofc_desk.core.ofc.deal import Deal, SeatHand, deal_jackpot, score_deal
from ofc_desk.core.ofc.deal_input import deal_from_json
from ofc_desk.core.ofc.presets import load_preset, preset_from_dict
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import PresetError
from ofc_desk.core.rows import SetHand
from ofc_desk.core.settlement import SettleFrom
from tests.helpers.jackpot_awards import ANY_HAND_AWARD

HAWAIIAN = {"front": "pair", "middle": "three-of-a-kind", "back": "straight-flush"}
AWARD = {**HAWAIIAN, "loser": 50, "winner": 25, "table": 25}
# Bob holds a pair, trips and a straight flush and loses all three rows to Ann.
ANN = {"front": "Ks Kh 2c", "middle": "Ac Ad Ah 3c 3d", "back": "9d Td Jd Qd Kd"}
BOB = {"front": "2s 2h 4c", "middle": "4s 4h 4d 6c 7d", "back": "8c 9c Tc Jc Qc"}
CY = {"front": "2d 3h 6d", "middle": "5c 5d 7c 8d 9h", "back": "Th Ts Jh Js Qh"}
DEE = {"front": "3s 9s Kc", "middle": "5h 5s 6h 7h 8h", "back": "6s 7s 8s Qs As"}
# Stronger in every row: A, then D, then B, then C (for the order of the qualifying pairs).
RANKED = {
    "A": {"front": "Ah Ad 2c", "middle": "Kh Kd Kc 3c 3d", "back": "Ts Js Qs Ks As"},
    "B": {"front": "Qh 9s 7d", "middle": "Td Tc Th 2d 2h", "back": "2s 3s 4s 5s 6s"},
    "C": {"front": "5c 6c 7c", "middle": "9c 9d 3h 5d 6d", "back": "8c 8d 8s 7s Qc"},
    "D": {"front": "Ac Qd 4h", "middle": "Jh Jd Jc 4c 4d", "back": "5h 6h 7h 8h 9h"},
}


def chinese(rules: str, dealer: str, hands: dict[str, dict[str, Any]], **options: Any) -> ChineseDeal:
    players = [{"name": name, "stack": 100, **hand} for name, hand in hands.items()]
    return chinese_deal_from_json(
        {"variant": "chinese", "rules": rules, "dealer": dealer, "players": players, **options}
    )


def award_of(deal: ChineseDeal, pool: int, drop: int = 0) -> tuple[dict[str, int] | None, int, str | None]:
    paid = chinese_jackpot(deal, score_chinese_deal(deal), pool, drop)
    if paid.award is None:
        return None, paid.pool_after, None
    return dict(paid.award.chips), paid.pool_after, paid.award.loser


def test_the_seed_award_of_1000_at_50_25_25_with_two_others_at_the_table() -> None:
    deal = chinese("hawaiian-gardens", "Dee", {"Ann": ANN, "Bob": BOB, "Cy": CY, "Dee": DEE},
                   house_options={"jackpot_award": AWARD})  # fmt: skip
    assert award_of(deal, 1000) == ({"Ann": 250, "Bob": 500, "Cy": 125, "Dee": 125}, 0, "Bob")


def test_what_rounding_leaves_stays_in_the_pool() -> None:
    deal = chinese("chinese-basic", "Dee", {"Ann": ANN, "Bob": BOB, "Cy": CY, "Dee": DEE},
                   house_options={"jackpot_award": AWARD})  # fmt: skip
    # 999: the loser ⌊499.5⌋, the winner ⌊249.75⌋, the table ⌊249.75⌋ = 249 split in two: 124 each.
    assert award_of(deal, 999) == ({"Ann": 249, "Bob": 499, "Cy": 124, "Dee": 124}, 3, "Bob")


def test_heads_up_the_tables_share_stays_in_the_pool() -> None:
    deal = chinese("chinese-basic", "Bob", {"Ann": ANN, "Bob": BOB}, house_options={"jackpot_award": AWARD})
    assert award_of(deal, 1000) == ({"Ann": 250, "Bob": 500}, 250, "Bob")


def test_an_empty_pool_still_records_the_award_with_no_chips() -> None:
    deal = chinese("chinese-basic", "Bob", {"Ann": ANN, "Bob": BOB}, house_options={"jackpot_award": AWARD})
    assert award_of(deal, 0) == ({"Ann": 0, "Bob": 0}, 0, "Bob")


def test_the_award_is_paid_from_the_pool_with_this_hands_drop_in_it() -> None:
    deal = chinese("chinese-basic", "Bob", {"Ann": ANN, "Bob": BOB}, house_options={"jackpot_award": AWARD})
    paid = chinese_jackpot(deal, score_chinese_deal(deal), 96, drop=4)
    assert (paid.pool_before, paid.drop, paid.pool_after) == (96, 4, 25)
    assert paid.award is not None and dict(paid.award.chips) == {"Ann": 25, "Bob": 50}


def test_the_loser_must_hold_every_rows_class() -> None:
    weaker_back = {**BOB, "back": "8c 9c Tc Jc Qh"}  # a straight, not a straight flush
    hands = {"Ann": {**ANN, "back": "9d Td Jd Qd Kd"}, "Bob": weaker_back}
    deal = chinese("chinese-basic", "Bob", hands, house_options={"jackpot_award": AWARD})
    assert award_of(deal, 1000) == (None, 1000, None)


@pytest.mark.parametrize(
    ("ann_front", "bob_front"),
    [("2d 2c 5h", "2s 2h 5c"), ("2d 2c 3h", "2s 2h 4c")],
    ids=["tied", "lost"],
)
def test_a_row_the_loser_ties_or_wins_means_no_award(ann_front: str, bob_front: str) -> None:
    hands = {"Ann": {**ANN, "front": ann_front}, "Bob": {**BOB, "front": bob_front}}
    deal = chinese("chinese-basic", "Bob", hands, house_options={"jackpot_award": AWARD})
    assert award_of(deal, 1000) == (None, 1000, None)


@pytest.mark.parametrize(
    ("settle_from", "loser"),
    [(SettleFrom.LEFT_OF_DEALER, "B"), (SettleFrom.DEALER, "D")],
)
def test_the_first_qualifying_pair_follows_the_settlement_order(settle_from: SettleFrom, loser: str) -> None:
    # Dealer D. From the dealer's left: A–B first (B scooped); from the dealer: D–A first (D scooped).
    deal = chinese("chinese-basic", "D", RANKED, settle_from=settle_from.value,
                   house_options={"jackpot_award": ANY_HAND_AWARD})  # fmt: skip
    chips, _, paid_loser = award_of(deal, 100)
    assert paid_loser == loser
    assert chips is not None and chips["A"] == 25 and chips[loser] == 50


def test_in_a_bank_game_a_tied_row_is_the_banks_and_the_bank_can_lose() -> None:
    bank = {"front": "2d 3h 5s", "middle": "9s 9h 4c 6d 8c", "back": "Ks Kh Kd 7c 7d"}
    tied_then_beaten = {"front": "2c 3s 5h", "middle": "8s 8h 4d 6c Tc", "back": "Qs Qh Qd 2s 2h"}
    ann = {"front": "3c 4h 7h", "middle": "Js Jh 4s 5c 6h", "back": "Ac Ad Ah Ts Td"}
    options = {"jackpot_award": ANY_HAND_AWARD}
    deal = chinese("malayan", "Bob", {"Ann": ann, "Bob": bank, "Cy": tied_then_beaten}, house_options=options)
    # The bank's pairs from the dealer's left: Cy–Bob, then Ann–Bob. Cy tied the front (the bank's)
    # and lost the other two rows.
    assert award_of(deal, 100) == ({"Ann": 25, "Bob": 25, "Cy": 50}, 0, "Cy")
    strong = {"front": "As Ah 7h", "middle": "Js Jh Jd 5c 5d", "back": "Tc Ts Td Th 4s"}
    wins_the_front = {"front": "Kc 8d 2c", "middle": "8s 8h 4d 6c 9d", "back": "Qs Qh Qd 2s 2h"}
    deal = chinese(
        "malayan", "Bob", {"Ann": strong, "Bob": bank, "Cy": wins_the_front}, house_options=options
    )
    assert award_of(deal, 100) == ({"Ann": 25, "Bob": 50, "Cy": 25}, 0, "Bob")


def test_misset_surrendered_and_declared_hands_never_qualify_but_share_as_table() -> None:
    misset_bob = {"front": "As Ah Ad", "middle": "4s 4h 4d 6c 7d", "back": "8c 9c Tc Jc Qc"}
    ann = {"front": "Ks Kh 2c", "middle": "3s 3h 3c 5c 5d", "back": "9d Td Jd Qd Kd"}
    deal = chinese(
        "chinese-basic",
        "Bob",
        {"Ann": ann, "Bob": misset_bob},
        house_options={"jackpot_award": ANY_HAND_AWARD},
    )
    assert score_chinese_deal(deal).player("Bob").shown.misset
    assert award_of(deal, 1000) == (None, 1000, None)
    declared = {"declare": "six-pairs", "cards": "3h 3s 5c 5d 6d 6h 7c 7h 8d 8h Th Ts 2d"}
    players: dict[str, dict[str, Any]] = {"Ann": ANN, "Bob": BOB, "Cy": {"surrender": True}, "Dee": declared}
    options = {"jackpot_award": AWARD, "specials": [{"kind": "six-pairs", "units": 3}]}
    deal = chinese("chinese-basic", "Dee", players, house_options=options)
    assert award_of(deal, 1000) == ({"Ann": 250, "Bob": 500, "Cy": 125, "Dee": 125}, 0, "Bob")


def test_a_pool_table_decides_the_rows_pair_by_pair() -> None:
    # Dee's trips take the pool's front from Ann, yet Bob still loses all three rows to Ann: a third
    # player does not matter.
    dee = {"front": "5h 5s 5d", "middle": "7c 7h 7s 9h 9s", "back": "8d 8h 8s 6d 6h"}
    result_deal = chinese(
        "pool", "Dee", {"Ann": ANN, "Bob": BOB, "Dee": dee}, house_options={"jackpot_award": AWARD}
    )
    outcome = score_chinese_deal(result_deal).payment_outcome
    assert outcome is not None and outcome.row_winners == ("Dee", "Ann", "Ann")
    assert award_of(result_deal, 1000) == ({"Ann": 250, "Bob": 500, "Dee": 250}, 0, "Bob")


def test_the_award_rules_are_refused_field_by_field() -> None:
    cases: list[tuple[Any, str]] = [
        (
            {**AWARD, "loser": 60, "winner": 30},
            "jackpot_award: the shares add up to 115 percent of the pool; at most 100",
        ),
        ({**AWARD, "middle": "trips"}, "jackpot_award.middle: 'trips' is not a hand class"),
        ({**AWARD, "back": "royal-flush"}, "jackpot_award.back: 'royal-flush' is not a hand class"),
        ({**AWARD, "front": "straight"}, "jackpot_award.front: a front of three cards never holds straight"),
        ({k: v for k, v in AWARD.items() if k != "table"}, "jackpot_award.table is missing"),
        ({k: v for k, v in AWARD.items() if k != "back"}, "jackpot_award.back is missing"),
        ({**AWARD, "winner": 25.5}, "jackpot_award.winner must be a whole number of percent from 0 to 100"),
        ({**AWARD, "winner": -5}, "jackpot_award.winner must be a whole number of percent"),
        ({**AWARD, "winner": True}, "jackpot_award.winner must be a whole number of percent"),
        ({**AWARD, "house": 5}, "jackpot_award.house is not a jackpot_award field"),
        ("hawaiian", "jackpot_award must be null or an object"),
    ]
    for value, message in cases:
        with pytest.raises(AwardRulesError, match=re.escape(message)):
            JackpotAward.from_json(value)
        with pytest.raises(PresetError, match=re.escape(f"preset.{message}")):
            chinese_preset_from_dict(load_chinese_preset("chinese-basic").to_dict(), {"jackpot_award": value})
    assert JackpotAward.from_json(
        {**AWARD, "front": "three-of-a-kind", "loser": 100, "winner": 0, "table": 0}
    )


def test_a_house_option_replaces_the_award_whole() -> None:
    own = {**load_chinese_preset("chinese-basic").to_dict(), "jackpot_award": AWARD}
    with pytest.raises(PresetError, match=r"jackpot_award\.front is missing"):
        chinese_preset_from_dict(own, {"jackpot_award": {"loser": 10, "winner": 10, "table": 10}})
    replaced = chinese_preset_from_dict(own, {"jackpot_award": None})
    assert replaced.jackpot_award is None


def test_the_first_qualifying_pair_in_the_order_given_is_paid() -> None:
    award = JackpotAward.from_json(ANY_HAND_AWARD)
    classes = (HandClass.PAIR, HandClass.PAIR, HandClass.PAIR)
    pairs = [
        PairRows("A", "B", (1, 1, 0), classes, classes),
        PairRows("A", "C", None, classes, None),
        PairRows("B", "C", (1, 1, 1), classes, classes),
        PairRows("A", "D", (-1, -1, -1), classes, classes),
    ]
    assert qualifying_pair(award, pairs) == Qualifier("C", "B")
    assert qualifying_pair(award, pairs[3:]) == Qualifier("A", "D")
    assert qualifying_pair(None, pairs) is None
    assert qualifying_pair(award, [PairRows("A", "B", (1, 1, 1), classes, None)]) is None


def test_a_negative_pool_or_drop_is_a_mistake() -> None:
    with pytest.raises(ValueError, match="neither may be below 0"):
        pay_jackpot(None, None, ["A", "B"], -1)


# OFC: the same award, in the same order.


def ofc(rules: str, dealer: str, hands: dict[str, dict[str, str]], **options: Any) -> Deal:
    players = [{"name": name, "stack": 100, **hand} for name, hand in hands.items()]
    return deal_from_json({"rules": rules, "dealer": dealer, "players": players, **options})


def test_an_ofc_award_pays_a_player_in_fantasyland_the_tables_share() -> None:
    deal = ofc("standard", "Cy", {"Ann": ANN, "Bob": BOB, "Cy": CY}, in_fantasyland=["Cy"],
               house_options={"jackpot_award": AWARD})  # fmt: skip
    paid = deal_jackpot(deal, score_deal(deal), 999)
    assert paid.award is not None and (paid.award.loser, paid.award.winner) == ("Bob", "Ann")
    assert (dict(paid.award.chips), paid.pool_after) == ({"Ann": 249, "Bob": 499, "Cy": 249}, 2)


def test_an_ofc_fouled_hand_never_qualifies() -> None:
    fouled_bob = {"front": "Qs Qh Qd", "middle": "4s 4h 4d 6c 7d", "back": "8c 9c Tc Jc Qc"}
    ann = {"front": "Ks Kh 2c", "middle": "Ac Ad Ah 3c 3d", "back": "9d Td Jd 8d Kd"}
    deal = ofc("standard", "Bob", {"Ann": ann, "Bob": fouled_bob}, house_options={"jackpot_award": AWARD})
    assert score_deal(deal).player("Bob").report.foul
    assert deal_jackpot(deal, score_deal(deal), 100).award is None


def test_a_2_7_pineapple_table_takes_no_award() -> None:
    with pytest.raises(DealInputError, match="variant: a 2-7-pineapple table takes no jackpot_award"):
        ofc("standard", "Bob", {"Ann": ANN, "Bob": BOB}, variant="2-7-pineapple",
            house_options={"jackpot_award": AWARD})  # fmt: skip
    preset = preset_from_dict(load_preset("standard").to_dict(), {"jackpot_award": AWARD})
    seats = tuple(
        SeatHand(name, 10, SetHand.parse(*hand.values())) for name, hand in (("A", ANN), ("B", BOB))
    )
    lowball = Deal(preset, "B", seats, variant=Variant.DEUCE_TO_SEVEN_PINEAPPLE)
    with pytest.raises(PresetError, match="takes no jackpot_award"):
        deal_jackpot(lowball, score_deal(lowball), 100)


# Properties: chips conserved with the pool, at most one award, the table's share equal.

AWARDS = st.fixed_dictionaries({
    "front": st.sampled_from(["high-card", "pair"]),
    "middle": st.sampled_from(["high-card", "pair", "two-pair"]),
    "back": st.sampled_from(["high-card", "pair", "two-pair", "three-of-a-kind"]),
    "loser": st.integers(0, 60),
    "winner": st.integers(0, 20),
    "table": st.integers(0, 20),
})  # fmt: skip


@st.composite
def chinese_deals(draw: st.DrawFn) -> ChineseDeal:
    rules = draw(st.sampled_from(["chinese-basic", "malayan", "pool", "pusoy-single-winner"]))
    preset = chinese_preset_from_dict(load_chinese_preset(rules).to_dict(), {"jackpot_award": draw(AWARDS)})
    names = ["Ann", "Bob", "Cy", "Dee"][: draw(st.integers(2, 4))]
    deck = draw(st.permutations(FULL_DECK))
    seats = []
    for seat, name in enumerate(names):
        cards = sorted(deck[13 * seat : 13 * seat + 13], key=lambda card: card.rank.order)
        entry = Entry.set_rows(SetHand(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:])))
        if preset.surrender is not None and draw(st.integers(0, 5)) == 0:
            entry = Entry.surrender()
        seats.append(ChineseSeat(name, draw(st.integers(0, 50)), entry))
    return ChineseDeal(
        preset,
        draw(st.sampled_from(names)),
        tuple(seats),
        unit=draw(st.integers(1, 4)),
        settle_from=draw(st.sampled_from(list(SettleFrom))),
        jackpot_pool=draw(st.integers(0, 10_000)),
    )


@settings(max_examples=150, deadline=None)
@given(deal=chinese_deals())
def test_chips_are_conserved_with_the_pool_and_one_award_at_most(deal: ChineseDeal) -> None:
    result = score_chinese_deal(deal)
    assert deal.jackpot_pool is not None
    paid = chinese_jackpot(deal, result, deal.jackpot_pool)
    answer = result.to_json(paid)
    after = sum(player["stack_after"] for player in answer["players"])
    assert after + paid.pool_after == sum(seat.stack for seat in deal.players) + deal.jackpot_pool
    assert paid.pool_after >= 0
    rules = deal.preset.jackpot_award
    assert rules is not None
    lost_all = [
        (matchup.first, matchup.second, outcome)
        for matchup in result.matchups
        if (outcome := matchup.score.outcome) is not None and abs(sum(outcome)) == len(outcome)
    ]
    qualified = [
        (loser, winner)
        for first, second, outcome in lost_all
        for loser, winner in [(first, second) if outcome[0] < 0 else (second, first)]
        if _holds(rules, result.player(loser).shown)
    ]
    if paid.award is None:
        assert not qualified
    else:
        award = paid.award
        assert (award.loser, award.winner) == qualified[0]  # the first in settlement order
        table = [name for name in award.chips if name not in (award.loser, award.winner)]
        assert len({award.chips[name] for name in table}) <= 1
        assert award.total <= deal.jackpot_pool


def _holds(rules: JackpotAward, shown: Any) -> bool:
    if shown.rows is None or shown.misset:
        return False
    return all(category_of(row.value) >= least for row, least in zip(shown.rows, rules.least, strict=True))


@st.composite
def ofc_deals(draw: st.DrawFn) -> Deal:
    preset = preset_from_dict(load_preset("standard").to_dict(), {"jackpot_award": draw(AWARDS)})
    names = ["Ann", "Bob", "Cy"][: draw(st.integers(2, 3))]
    deck = draw(st.permutations(FULL_DECK))
    seats = []
    for seat, name in enumerate(names):
        cards = list(deck[13 * seat : 13 * seat + 13])
        if draw(st.booleans()):
            cards.sort(key=lambda card: card.rank.order)
        hand = SetHand(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))
        seats.append(SeatHand(name, draw(st.integers(0, 50)), hand))
    return Deal(preset, draw(st.sampled_from(names)), tuple(seats), jackpot_pool=draw(st.integers(0, 10_000)))


@settings(max_examples=100, deadline=None)
@given(deal=ofc_deals())
def test_an_ofc_deal_conserves_chips_with_the_pool(deal: Deal) -> None:
    result = score_deal(deal)
    paid = deal_jackpot(deal, result, deal.jackpot_pool or 0)
    answer = result.to_json(paid)
    after = sum(player["stack_after"] for player in answer["players"])
    assert after + paid.pool_after == sum(seat.stack for seat in deal.players) + (deal.jackpot_pool or 0)
    if paid.award is not None:
        loser = result.player(paid.award.loser).report
        assert not loser.foul
        assert deal.preset.jackpot_award is not None
        assert deal.preset.jackpot_award.held_by([row.category for row in loser.rows.values()])
