"""Fantasyland golden tests (docs/rules.md §6, §7): entry, cards dealt, stays, the consecutive cap, 2-7."""

from __future__ import annotations

from typing import Any

import pytest

from ofc_desk.core.ofc.fantasyland import fantasyland_cards
from ofc_desk.core.ofc.presets import RulesPreset, load_preset, preset_from_dict
from ofc_desk.core.ofc.scoring import evaluate_hand
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.rows import SetHand
from tests.core.hands_for_tests import around_front

STANDARD = load_preset("standard")
REGULAR, PINEAPPLE, DEUCE = Variant.REGULAR, Variant.PINEAPPLE, Variant.DEUCE_TO_SEVEN_PINEAPPLE

# Hands for staying: each meets exactly one stay condition (or none).
TRIPS_FRONT_ONLY = SetHand.parse("5d 5c 5h", "6s 7c 8d 9h Ts", "2c 4c 8c Jc Qc")
FULL_HOUSE_MIDDLE_ONLY = SetHand.parse("2s 3d 4c", "9s 9c 9d Kc Ks", "Th Td Tc Qh Qd")
QUADS_BACK_ONLY = SetHand.parse("2s 3d 4c", "6s 7c 8d 9h Ts", "Jh Jd Jc Js 2h")
STRAIGHT_FLUSH_BACK_ONLY = SetHand.parse("2s 3d 4c", "6s 7c 8d 9h Ts", "9c Tc Jc Qc Kc")
QUEENS_NO_STAY = SetHand.parse("Qh Qd 2c", "6s 7c 8d 9h Ts", "Js Jd Jc 4s 4d")


def cards_next(
    hand: SetHand,
    variant: Variant = REGULAR,
    *,
    progressive: bool = False,
    in_fantasyland: bool = False,
    consecutive: int = 1,
    preset: RulesPreset = STANDARD,
) -> int:
    report = evaluate_hand(hand, preset, variant)
    return fantasyland_cards(
        report,
        preset,
        variant,
        progressive=progressive,
        in_fantasyland=in_fantasyland,
        consecutive=consecutive,
    )


@pytest.mark.parametrize(
    ("front", "regular", "pineapple", "progressive"),
    [
        ("Jd Jc 2h", 0, 0, 0),
        ("Qd Qc 2h", 13, 14, 14),
        ("Kd Kc 2h", 13, 14, 15),
        ("Ad Ac 2h", 13, 14, 16),
        ("2d 2c 2h", 13, 14, 17),
        ("Ad Kc Qh", 0, 0, 0),
    ],
)
def test_entry_by_front_and_cards_per_variant(
    front: str, regular: int, pineapple: int, progressive: int
) -> None:
    hand = around_front(front)
    assert cards_next(hand, REGULAR) == regular
    assert cards_next(hand, PINEAPPLE) == pineapple
    assert cards_next(hand, REGULAR, progressive=True) == progressive
    assert cards_next(hand, PINEAPPLE, progressive=True) == progressive


def test_a_fouled_hand_never_enters_or_stays() -> None:
    fouled = SetHand.parse("Ad Ac Ah", "Jh Jd 9h 4h 2h", "Ks Kd Kc Kh 8d")
    assert evaluate_hand(fouled, STANDARD, REGULAR).foul
    assert cards_next(fouled) == 0
    assert cards_next(fouled, progressive=True) == 0
    assert cards_next(fouled, in_fantasyland=True) == 0


@pytest.mark.parametrize(
    "hand",
    [TRIPS_FRONT_ONLY, FULL_HOUSE_MIDDLE_ONLY, QUADS_BACK_ONLY, STRAIGHT_FLUSH_BACK_ONLY],
    ids=["trips front", "full house middle", "quads back", "straight flush back"],
)
def test_each_stay_condition_keeps_the_player_in(hand: SetHand) -> None:
    assert cards_next(hand, REGULAR, in_fantasyland=True) == 13
    assert cards_next(hand, PINEAPPLE, in_fantasyland=True) == 14
    assert cards_next(hand, REGULAR, progressive=True, in_fantasyland=True) == 14
    assert cards_next(hand, PINEAPPLE, progressive=True, in_fantasyland=True) == 14


def test_an_entry_hand_that_meets_no_stay_condition_leaves_fantasyland() -> None:
    assert cards_next(QUEENS_NO_STAY) == 13
    assert cards_next(QUEENS_NO_STAY, in_fantasyland=True) == 0
    assert cards_next(QUEENS_NO_STAY, progressive=True, in_fantasyland=True) == 0


def test_progressive_stay_is_fourteen_even_with_front_trips() -> None:
    assert cards_next(TRIPS_FRONT_ONLY, progressive=True) == 17
    assert cards_next(TRIPS_FRONT_ONLY, progressive=True, in_fantasyland=True) == 14


def with_options(overrides: dict[str, Any]) -> RulesPreset:
    return preset_from_dict(STANDARD.source, overrides)


def test_the_consecutive_cap_ends_a_run_of_fantasyland_hands() -> None:
    capped = with_options({"fantasyland": {"max_consecutive": 2}})
    assert cards_next(QUADS_BACK_ONLY, in_fantasyland=True, consecutive=1, preset=capped) == 13
    assert cards_next(QUADS_BACK_ONLY, in_fantasyland=True, consecutive=2, preset=capped) == 0
    assert cards_next(QUADS_BACK_ONLY, in_fantasyland=False, preset=capped) == 0, "quads alone never enter"
    assert cards_next(around_front("Qd Qc 2h"), preset=capped) == 13, "entry is not capped"


def test_no_cap_by_default() -> None:
    assert STANDARD.fantasyland.max_consecutive is None
    assert cards_next(QUADS_BACK_ONLY, in_fantasyland=True, consecutive=9) == 13


# --- 2-7 pineapple -----------------------------------------------------------------------------

KINGS_FRONT = SetHand.parse("Ks Kd 2c", "8h 6d 4d 3c 2d", "As Ad Ac 9s 9d")
PERFECT_LOW = SetHand.parse("Qs Jd 2c", "7h 5d 4c 3s 2h", "Ks Kd 8c 8s 9d")
BOTH = SetHand.parse("Ks Kd Ac", "7h 5d 4c 3s 2h", "As Ad 8c 8s 9d")
QUEENS_ONLY = SetHand.parse("Qs Qd Ac", "8h 6d 4d 3c 2d", "Ks Kd Kc 9s 9d")
TRIPS_FRONT = SetHand.parse("9s 9d 9c", "8h 6d 4d 3c 2d", "Ts Td Tc 7s 7d")
QUADS_BACK = SetHand.parse("Js Qd 6c", "8h 7d 4d 3c 2d", "Ks Kd Kc Kh 9d")


@pytest.mark.parametrize(
    ("hand", "entry", "stay"),
    [
        (KINGS_FRONT, 14, 0),
        (PERFECT_LOW, 14, 0),
        (BOTH, 15, 0),
        (QUEENS_ONLY, 0, 0),
        (TRIPS_FRONT, 14, 14),
        (QUADS_BACK, 0, 14),
    ],
    ids=["KK front", "7-5-4-3-2 middle", "both", "QQ is not enough", "trips front", "quads back"],
)
def test_deuce_to_seven_entry_and_stay(hand: SetHand, entry: int, stay: int) -> None:
    assert not evaluate_hand(hand, STANDARD, DEUCE).foul
    assert cards_next(hand, DEUCE) == entry
    assert cards_next(hand, DEUCE, in_fantasyland=True) == stay


def test_deuce_to_seven_fouled_kings_do_not_enter() -> None:
    fouled = SetHand.parse("Ks Kd 2c", "Jh 6d 4d 3c 2d", "As Ad Ac 9s 9d")
    assert evaluate_hand(fouled, STANDARD, DEUCE).foul
    assert cards_next(fouled, DEUCE) == 0


@pytest.mark.parametrize(
    ("middle", "enters"),
    [
        ("7h 5d 4c 3s 2h", True),  # better than the house's 7-6-4-3-2
        ("7h 6d 4c 3s 2h", True),  # exactly it
        ("7h 6d 5c 3s 2h", False),  # worse: 7-6-5
        ("8h 5d 4c 3s 2h", False),
    ],
)
def test_deuce_to_seven_middle_entry_is_preset_data(middle: str, enters: bool) -> None:
    house = with_options({"fantasyland": {"deuce_to_seven": {"entry_middle": "7-6-4-3-2"}}})
    hand = SetHand.parse("Qs Jd 9c", middle, "Ks Kd 8c 8s 9d")
    assert not evaluate_hand(hand, house, DEUCE).foul
    assert cards_next(hand, DEUCE, preset=house) == (14 if enters else 0)
