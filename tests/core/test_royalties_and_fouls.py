"""Fouls (docs/rules.md §3) and royalties (§4) for every shipped preset, row by row and class by class."""

from __future__ import annotations

from typing import Any

import pytest

from ofc_desk.core.cards import Rank
from ofc_desk.core.hands import HandClass, hand_class
from ofc_desk.core.ofc.presets import RulesPreset, load_preset, preset_from_dict
from ofc_desk.core.ofc.scoring import evaluate_hand
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.rows import Row, SetHand
from tests.core.hands_for_tests import around_back, around_front, around_middle

FIVE_CARD_EXAMPLES = {
    HandClass.HIGH_CARD: "9s Tc Qd Kc 7d",
    HandClass.PAIR: "9s 9c Qd Kc 7d",
    HandClass.TWO_PAIR: "9s 9c Qd Qc 7d",
    HandClass.TRIPS: "9s 9c 9d Kc 7d",
    HandClass.STRAIGHT: "9s Tc Jd Qc Ks",
    HandClass.FLUSH: "9s Js Qs Ks 7s",
    HandClass.FULL_HOUSE: "9s 9c 9d Kc Ks",
    HandClass.QUADS: "9s 9c 9d 9h Kc",
    HandClass.STRAIGHT_FLUSH: "9s Ts Js Qs Ks",
    HandClass.ROYAL_FLUSH: "Ts Js Qs Ks As",
}

# Written out from docs/rules.md §4, not read from the preset files: the files are what is under test.
NOTHING = {HandClass.HIGH_CARD: 0, HandClass.PAIR: 0, HandClass.TWO_PAIR: 0}
STANDARD_BACK = NOTHING | {
    HandClass.TRIPS: 0,
    HandClass.STRAIGHT: 2,
    HandClass.FLUSH: 4,
    HandClass.FULL_HOUSE: 6,
    HandClass.QUADS: 10,
    HandClass.STRAIGHT_FLUSH: 15,
    HandClass.ROYAL_FLUSH: 25,
}
STANDARD_MIDDLE = NOTHING | {
    HandClass.TRIPS: 2,
    HandClass.STRAIGHT: 4,
    HandClass.FLUSH: 8,
    HandClass.FULL_HOUSE: 12,
    HandClass.QUADS: 20,
    HandClass.STRAIGHT_FLUSH: 30,
    HandClass.ROYAL_FLUSH: 50,
}
TWO_POINT_BACK = STANDARD_BACK | {
    HandClass.QUADS: 8,
    HandClass.STRAIGHT_FLUSH: 10,
    HandClass.ROYAL_FLUSH: 15,
}
TWO_POINT_MIDDLE = STANDARD_MIDDLE | {
    HandClass.QUADS: 16,
    HandClass.STRAIGHT_FLUSH: 20,
    HandClass.ROYAL_FLUSH: 30,
}
EXPECTED_FIVE_CARD = {
    "standard": {Row.BACK: STANDARD_BACK, Row.MIDDLE: STANDARD_MIDDLE},
    "classic": {Row.BACK: STANDARD_BACK, Row.MIDDLE: STANDARD_MIDDLE | {HandClass.TRIPS: 0}},
    "two-point": {Row.BACK: TWO_POINT_BACK, Row.MIDDLE: TWO_POINT_MIDDLE},
}
PAIR_RANKS = list(Rank)
STANDARD_FRONT_PAIR = {rank: max(rank.order - Rank.FIVE.order, 0) for rank in Rank}  # 66 = 1 … AA = 9
STANDARD_FRONT_TRIPS = {rank: 10 + rank.order for rank in Rank}  # 222 = 10 … AAA = 22
EXPECTED_FRONT_TRIPS = {
    "standard": STANDARD_FRONT_TRIPS,
    "classic": dict.fromkeys(Rank, 20),
    "two-point": STANDARD_FRONT_TRIPS,
}
PRESETS = ["standard", "classic", "two-point"]


def royalty(hand: SetHand, row: Row, preset: RulesPreset) -> int:
    report = evaluate_hand(hand, preset, Variant.REGULAR)
    assert not report.foul, (hand, report.foul_reason)
    return report.rows[row].royalty


@pytest.mark.parametrize("preset_name", PRESETS)
@pytest.mark.parametrize("hand", list(HandClass))
def test_back_royalty_for_every_class(preset_name: str, hand: HandClass) -> None:
    set_hand = around_back(FIVE_CARD_EXAMPLES[hand])
    assert hand_class(set_hand.back) is hand
    expected = EXPECTED_FIVE_CARD[preset_name][Row.BACK][hand]
    assert royalty(set_hand, Row.BACK, load_preset(preset_name)) == expected


@pytest.mark.parametrize("preset_name", PRESETS)
@pytest.mark.parametrize("hand", list(HandClass))
def test_middle_royalty_for_every_class(preset_name: str, hand: HandClass) -> None:
    set_hand = around_middle(FIVE_CARD_EXAMPLES[hand])
    assert hand_class(set_hand.middle) is hand
    expected = EXPECTED_FIVE_CARD[preset_name][Row.MIDDLE][hand]
    assert royalty(set_hand, Row.MIDDLE, load_preset(preset_name)) == expected


def _pair_front(rank: Rank) -> str:
    kicker = "2" if rank is not Rank.TWO else "3"
    return f"{rank.value}d {rank.value}c {kicker}h"


@pytest.mark.parametrize("preset_name", PRESETS)
@pytest.mark.parametrize("rank", PAIR_RANKS)
def test_front_pair_royalty_for_every_rank(preset_name: str, rank: Rank) -> None:
    hand = around_front(_pair_front(rank))
    assert royalty(hand, Row.FRONT, load_preset(preset_name)) == STANDARD_FRONT_PAIR[rank]


@pytest.mark.parametrize("preset_name", PRESETS)
@pytest.mark.parametrize("rank", list(Rank))
def test_front_trips_royalty_for_every_rank(preset_name: str, rank: Rank) -> None:
    hand = around_front(f"{rank.value}d {rank.value}c {rank.value}h")
    assert royalty(hand, Row.FRONT, load_preset(preset_name)) == EXPECTED_FRONT_TRIPS[preset_name][rank]


@pytest.mark.parametrize("preset_name", PRESETS)
def test_front_high_card_pays_nothing(preset_name: str) -> None:
    assert royalty(around_front("Ad Kc Qh"), Row.FRONT, load_preset(preset_name)) == 0


def test_the_worked_row_names_and_royalties() -> None:
    hand = SetHand.parse("Qs Qd 2c", "Ah Kh 9h 4h 2h", "7s 7d 7c 3s 3d")
    report = evaluate_hand(hand, load_preset("standard"), Variant.REGULAR)
    assert [(row.hand, row.royalty) for row in report.rows.values()] == [
        ("pair of queens", 7),
        ("ace-high flush", 8),
        ("sevens full of threes", 6),
    ]
    assert report.royalties == 21


def with_options(name: str, overrides: dict[str, Any]) -> RulesPreset:
    return preset_from_dict(load_preset(name).source, overrides)


def test_house_option_back_trips_pay_one() -> None:
    preset = with_options("standard", {"royalties": {"back": {"trips": 1}}})
    hand = around_back(FIVE_CARD_EXAMPLES[HandClass.TRIPS])
    assert royalty(hand, Row.BACK, preset) == 1
    assert royalty(hand, Row.BACK, load_preset("standard")) == 0
    assert preset.royalties.back["quads"] == 10, "the rest of the table is kept"


def test_house_option_middle_trips_pay_two_on_classic() -> None:
    preset = with_options("classic", {"royalties": {"middle": {"trips": 2}}})
    hand = around_middle(FIVE_CARD_EXAMPLES[HandClass.TRIPS])
    assert royalty(hand, Row.MIDDLE, preset) == 2
    assert royalty(hand, Row.MIDDLE, load_preset("classic")) == 0


def test_house_option_custom_number_per_row_and_class() -> None:
    preset = with_options("standard", {"royalties": {"back": {"quads": 12}, "front_pairs": {"5": 1}}})
    assert royalty(around_back(FIVE_CARD_EXAMPLES[HandClass.QUADS]), Row.BACK, preset) == 12
    assert royalty(around_front(_pair_front(Rank.FIVE)), Row.FRONT, preset) == 1
    assert royalty(around_middle(FIVE_CARD_EXAMPLES[HandClass.QUADS]), Row.MIDDLE, preset) == 20


def test_house_options_leave_the_base_preset_untouched() -> None:
    base = load_preset("standard")
    with_options("standard", {"foul_penalty": 9, "royalties": {"back": {"trips": 1}}})
    assert base.foul_penalty == 6
    assert base.royalties.back["trips"] == 0
    assert load_preset("standard").royalties.back["trips"] == 0


# --- fouls ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("front", "middle", "back", "reason"),
    [
        ("Qs Qd 2c", "Jh Jd 9h 4h 2h", "7s 7d 7c 3s 3d", "the middle is weaker than the front"),
        ("Qs Qd Ac", "Qh Qc Kd 4h 2h", "7s 7d 7c 3s 3d", "the middle is weaker than the front"),
        ("2s 3d 4c", "Ah Kh 9h 4h 2h", "Ks Kd 7c 8s 3d", "the back is weaker than the middle"),
        ("2s 3d 4c", "9h 9d 8h 8d 2h", "9s 9c 7h 7c Ad", "the back is weaker than the middle"),
    ],
)
def test_a_weaker_later_row_fouls_and_earns_nothing(front: str, middle: str, back: str, reason: str) -> None:
    report = evaluate_hand(SetHand.parse(front, middle, back), load_preset("standard"), Variant.REGULAR)
    assert report.foul
    assert report.foul_reason == reason
    assert report.royalties == 0
    assert all(row.royalty == 0 for row in report.rows.values())


@pytest.mark.parametrize(
    ("front", "middle", "back"),
    [
        ("Kh Qd Jc", "Ks Qc Jd 9h 3s", "As Ad 7c 8s 3d"),  # the front ties the middle's leading cards
        ("2s 3d 4c", "Ah Kh 9h 4h 2h", "As Ks 9s 4s 2s"),  # middle and back exactly as strong
        ("Qs Qd Ac", "Qh Qc Ad 4h 2h", "Ks Kd Kc 8s 3d"),  # the pair and the kicker tie
    ],
)
def test_equal_strength_is_allowed(front: str, middle: str, back: str) -> None:
    report = evaluate_hand(SetHand.parse(front, middle, back), load_preset("standard"), Variant.REGULAR)
    assert not report.foul, report.foul_reason


# --- 2-7 pineapple (docs/rules.md §7) -----------------------------------------------------------------


def deuce(front: str, middle: str, back: str) -> Any:
    return evaluate_hand(
        SetHand.parse(front, middle, back), load_preset("standard"), Variant.DEUCE_TO_SEVEN_PINEAPPLE
    )


@pytest.mark.parametrize(
    ("middle", "expected", "name"),
    [
        ("7h 5d 4c 3s 2h", 8, "seven-five low (7-5-4-3-2)"),
        ("7h 6d 4c 3s 2h", 4, "seven-six low (7-6-4-3-2)"),
        ("8h 5d 4c 3s 2h", 2, "eight-five low (8-5-4-3-2)"),
        ("9h 7d 4c 3s 2h", 1, "nine-seven low (9-7-4-3-2)"),
        ("Th 7d 4c 3s 2h", 0, "ten-seven low (T-7-4-3-2)"),
    ],
)
def test_deuce_to_seven_middle_royalties(middle: str, expected: int, name: str) -> None:
    report = deuce("Qs Qd Ac", middle, "Ks Kd Kc 8s 9d")
    assert not report.foul, report.foul_reason
    assert report.rows[Row.MIDDLE].royalty == expected
    assert report.rows[Row.MIDDLE].hand == name


def test_deuce_to_seven_back_must_match_the_front_but_the_middle_need_not() -> None:
    assert not deuce("Qs Qd Ac", "7h 5d 4c 3s 2h", "Kh Ks 8c 8s 9d").foul
    assert not deuce("Qs Qd Ac", "7h 5d 4c 3s 2h", "Qh Qc Ad 9s 8d").foul, "equal back and front"
    fouled = deuce("Qs Qd Ac", "7h 5d 4c 3s 2h", "Jh Js Kd 8s 9d")
    assert fouled.foul
    assert fouled.foul_reason == "the back is weaker than the front"
    assert fouled.royalties == 0


@pytest.mark.parametrize(
    "middle",
    [
        "Jh 5d 4c 3s 2h",  # jack-high: not ten-high or better
        "7h 7d 4c 3s 2h",  # a pair
        "6h 5d 4c 3s 2h",  # a straight
        "7h 5h 4h 3h 2h",  # a flush
        "Ah 5d 4c 3s 2h",  # the wheel is ace-high in 2-7
    ],
)
def test_deuce_to_seven_middle_must_be_a_ten_high_low(middle: str) -> None:
    report = deuce("2s 3d 4c", middle, "Ks Kd Kc 8s 9d")
    assert report.foul
    assert report.foul_reason == "the middle is not a ten-high or better low"
