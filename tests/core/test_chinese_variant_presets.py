"""Worked examples of the shipped house-variant presets (docs/rules.md §13), figure by figure as
the integrator checks them by hand: `taiwanese` (Thirteen-Cards' rules on `vietnamese`) and
`shisanshui` (every strict kind on `vietnamese`)."""

from __future__ import annotations

from typing import Any

import pytest

from ofc_desk.core.chinese.deal import ChineseDealResult, score_chinese_deal
from ofc_desk.core.chinese.deal_input import chinese_deal_from_json
from ofc_desk.core.chinese.presets import load_chinese_preset
from ofc_desk.core.ofc.deal_input import DealInputError


def scored(rules: str, *players: dict[str, Any]) -> ChineseDealResult:
    deal = {"variant": "chinese", "rules": rules, "dealer": players[-1]["name"], "players": list(players)}
    return score_chinese_deal(chinese_deal_from_json(deal))


def player(name: str, **hand: object) -> dict[str, Any]:
    return {"name": name, "stack": 500, **hand}


def pair_points(result: ChineseDealResult) -> dict[tuple[str, str], int]:
    return {(m.first, m.second): m.score.total for m in result.matchups}


TAIWANESE_DEAL = (
    player("Ann", front="3s 3h 3c", middle="4s 4h 4d 4c Kd", back="Ts Js Qs Ks As"),
    player("Bob", front="Qh Jd 7s", middle="8s 8h 7d 7h 2d", back="9s 9h 9d Kc Kh"),
    player("Cy", front="3d 5c 8d", middle="Th Td Jh Qd Ad", back="Ah Ac Tc Jc Qc"),
    player("Dee", front="5s 5h 5d", middle="6c 7c 8c 9c 2c", back="6s 6h 6d 2s 2h"),
)


def test_taiwanese_pays_by_rank_and_multiplies_by_scoop_count() -> None:
    """Ann: front trips of threes 6 (by rank; 3 elsewhere), middle quad fours 16 (8), back royal 7
    (5). She scoops Bob and Cy but not Dee (Dee's trips of fives win the front): scoop count 2, ×3.
    Bob scoops Cy (count 1, ×2); Dee scoops Cy (count 1, ×2)."""
    result = scored("taiwanese", *TAIWANESE_DEAL)
    ann = result.player("Ann").shown.rows
    assert ann is not None and [row.bonus for row in ann] == [6, 16, 7]
    assert pair_points(result) == {
        ("Ann", "Bob"): (6 + 16 + 7) * 3,  # 87
        ("Ann", "Cy"): (6 + 16 + 7) * 3,  # 87
        ("Ann", "Dee"): -3 + 16 + 7,  # 20: Dee's front trips (fives: the key's 3), no scoop
        ("Bob", "Cy"): 3 * 2,  # 6
        ("Bob", "Dee"): -3 - 1 + 1,  # -3
        ("Cy", "Dee"): -(3 + 1 + 1) * 2,  # -10
    }
    assert {p.name: p.stack_after for p in result.players} == {"Ann": 694, "Bob": 416, "Cy": 397, "Dee": 493}
    whys = {(t.transfer.debtor, t.transfer.creditor): t.why for t in result.transfers_made}
    assert whys[("Bob", "Ann")] == (
        "Ann scooped Bob, with row bonuses, Ann's front paid 6 by rank, Ann's middle paid 16 by rank, "
        "Ann's back paid 7 by rank, ×3 for 2 scoops"
    )
    assert whys[("Cy", "Bob")] == "Bob scooped Cy, ×2 for 1 scoop"


def test_the_same_deal_under_vietnamese_pays_by_the_keys() -> None:
    """Without the house's options: 3 + 8 + 5 = 16 a scoop of Bob or Cy, ×2 (Ann did not scoop
    everyone: Dee won the front)."""
    result = scored("vietnamese", *TAIWANESE_DEAL)
    assert pair_points(result)[("Ann", "Bob")] == (3 + 8 + 5) * 2
    assert pair_points(result)[("Ann", "Dee")] == -3 + 8 + 5


WHEEL_DEAL = (
    player("Ann", front="Qc 4d 2s", middle="Ah Tc 7s 6s 3d", back="As 2h 3c 4s 5d"),
    player("Bob", front="Jh 8d 3h", middle="Kh Td 7c 6h 2c", back="9c Th Jc Qs Kc"),
)


def test_taiwanese_ranks_the_wheel_second() -> None:
    """Ann wins front (queen-high) and middle (ace-high); her A-2-3-4-5 beats Bob's king-high
    straight only at the Taiwanese table: a scoop of one opponent, 3 × 2 = 6 (vietnamese: 2 − 1)."""
    assert pair_points(scored("taiwanese", *WHEEL_DEAL)) == {("Ann", "Bob"): 6}
    assert pair_points(scored("vietnamese", *WHEEL_DEAL)) == {("Ann", "Bob"): 1}


EXACT_SIX_PAIRS = "2s 2h 3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8d"
SIX_PAIRS_WITH_TRIPS = "9s 9h 9d Ts Th Js Jh Qs Qh Ks Kh As Ah"


def test_shisanshui_refuses_six_pairs_with_trips_and_takes_five_pairs_and_trips() -> None:
    with pytest.raises(DealInputError, match="this table plays six pairs strictly"):
        scored(
            "shisanshui",
            player("Ann", declare="six-pairs", cards=EXACT_SIX_PAIRS),
            player("Bob", declare="six-pairs", cards=SIX_PAIRS_WITH_TRIPS),
        )
    # Vietnamese takes the loose form: two six pairs exchange nothing under `higher`.
    loose = scored(
        "vietnamese",
        player("Ann", declare="six-pairs", cards=EXACT_SIX_PAIRS),
        player("Bob", declare="six-pairs", cards=SIX_PAIRS_WITH_TRIPS),
    )
    assert pair_points(loose) == {("Ann", "Bob"): 0}


def test_shisanshui_worked_example() -> None:
    """Ann declares six pairs (3), Bob five pairs and trips (6, later in the list: `higher` pays it
    whole against Ann), Cy and Dee set rows: Cy wins middle and back, Dee the front."""
    result = scored(
        "shisanshui",
        player("Ann", declare="six-pairs", cards=EXACT_SIX_PAIRS),
        player("Bob", declare="five-pairs-and-trips", cards=SIX_PAIRS_WITH_TRIPS),
        player("Cy", front="Kd Kc 2d", middle="4c 5c 6c 7c 9c", back="8s 8h 8c 3d 3c"),
        player("Dee", front="Ad Ac 2c", middle="Td Tc Jd Jc Qc", back="4d 5d 6d 7d Qd"),
    )
    assert pair_points(result) == {
        ("Ann", "Bob"): -6,
        ("Ann", "Cy"): 3,
        ("Ann", "Dee"): 3,
        ("Bob", "Cy"): 6,
        ("Bob", "Dee"): 6,
        ("Cy", "Dee"): 1,  # two rows to one, no bonus row
    }
    assert {p.name: p.points for p in result.players} == {"Ann": 0, "Bob": 18, "Cy": -8, "Dee": -10}


def test_shisanshui_three_flushes_need_three_suits() -> None:
    ten_spades = "2s 3s 4s 6s 7s 8s 9s Ts Js Ks 3h 5h 7h"
    with pytest.raises(DealInputError, match="three flushes only with two rows of one suit"):
        scored(
            "shisanshui",
            player("Ann", declare="three-flushes", cards=ten_spades),
            player("Bob", surrender=True),
        )
    taken = scored(
        "vietnamese", player("Ann", declare="three-flushes", cards=ten_spades), player("Bob", surrender=True)
    )
    assert pair_points(taken) == {("Ann", "Bob"): 1}  # a surrender pays the declarer its 1 unit


@pytest.mark.parametrize(
    ("name", "options"),
    [
        (
            "taiwanese",
            {
                "wheel": "second",
                "bonus_by_rank": {
                    "front_trips": {"3": 6},
                    "middle_quads": {"4": 16},
                    "back_quads": {"4": 8},
                    "middle_straight_flush": {"A": 14, "5": 12},
                    "back_straight_flush": {"A": 7, "5": 6},
                },
                "scoop_multipliers": [2, 3, 4],
                "strict_specials": ["six-pairs", "five-pairs-and-trips", "four-trips", "three-flushes"],
            },
        ),
        (
            "shisanshui",
            {
                "strict_specials": [
                    "six-pairs",
                    "five-pairs-and-trips",
                    "four-trips",
                    "three-flushes",
                    "three-straight-flushes",
                ]
            },
        ),
    ],
)
def test_each_variant_preset_is_vietnamese_with_the_options_of_rules_13(
    name: str, options: dict[str, Any]
) -> None:
    variant = load_chinese_preset(name).to_dict()
    vietnamese = load_chinese_preset("vietnamese").to_dict()
    assert variant == {**vietnamese, **options, "name": name, "description": variant["description"]}
    assert variant["description"].startswith("Vietnamese with")
