"""Golden deals through the scorer, worked out by hand from docs/rules.md: progressive pineapple under
both policies and both settlement orders, and 2-7 pineapple with its Fantasyland count."""

from __future__ import annotations

from typing import Any

import pytest

from tests.core.score_output import score

PINEAPPLE_PLAYERS = [
    # KK front (8), straight (4), flush (4): 16; progressive Fantasyland with KK is 15 cards.
    {"name": "Ann", "front": "Kd Kc 2h", "middle": "6s 7c 8d 9h Ts", "back": "2c 4c 8c Jc Qc"},
    # In Fantasyland: 555 (13), nines full (12), tens full (6): 31; stays on trips: 14 cards.
    {"name": "Bob", "front": "5d 5c 5h", "middle": "9s 9c 9d Kh Ks", "back": "Th Td Tc Qh Qd"},
    # Ace-high, pair of jacks, aces full (6): 6.
    {"name": "Cy", "front": "Ah 3d 4d", "middle": "Js Jd 3s 4s 7h", "back": "As Ad Ac 2s 2d"},
]
# Points (1-6): Bob scoops Ann 6 + 15 = 21; Ann beats Cy 2-1: 1 + 10 = 11; Bob beats Cy 2-1: 1 + 25 = 26.
POINTS = {("Ann", "Bob"): -21, ("Ann", "Cy"): 11, ("Bob", "Cy"): 26}


def pineapple_deal(stacks: tuple[int, int, int], **options: Any) -> dict[str, Any]:
    players = [dict(player, stack=stack) for player, stack in zip(PINEAPPLE_PLAYERS, stacks, strict=True)]
    return {
        "variant": "pineapple",
        "progressive": True,
        "in_fantasyland": ["Bob"],
        "dealer": "Cy",
        "players": players,
        **options,
    }


def summary(result: dict[str, Any]) -> dict[str, Any]:
    return {
        "stacks": {p["name"]: p["stack_after"] for p in result["players"]},
        "transfers": [(t["from"], t["to"], t["owed"], t["paid"]) for t in result["transfers"]],
    }


@pytest.mark.parametrize(
    ("stacks", "options", "stacks_after", "transfers"),
    [
        (
            (50, 50, 50),
            {},
            {"Ann": 40, "Bob": 97, "Cy": 13},
            [("Ann", "Bob", 21, 21), ("Cy", "Ann", 11, 11), ("Cy", "Bob", 26, 26)],
        ),
        (
            (30, 20, 25),
            {"settlement": "win-cap"},
            {"Ann": 21, "Bob": 40, "Cy": 14},
            [("Ann", "Bob", 21, 20), ("Cy", "Ann", 11, 11), ("Cy", "Bob", 26, 0)],
        ),
        (
            (30, 20, 25),
            {"settlement": "chip-exposure"},
            {"Ann": 20, "Bob": 40, "Cy": 15},
            [("Ann", "Bob", 21, 20), ("Cy", "Ann", 11, 10), ("Cy", "Bob", 26, 0)],
        ),
        (
            (30, 20, 25),
            {"settle_from": "dealer"},
            {"Ann": 35, "Bob": 40, "Cy": 0},
            [("Cy", "Ann", 11, 11), ("Cy", "Bob", 26, 14), ("Ann", "Bob", 21, 6)],
        ),
        (
            (500, 500, 500),
            {"unit": 2, "pair_units": [{"players": ["Cy", "Bob"], "unit": 10}]},
            {"Ann": 480, "Bob": 802, "Cy": 218},
            [("Ann", "Bob", 42, 42), ("Cy", "Ann", 22, 22), ("Cy", "Bob", 260, 260)],
        ),
    ],
    ids=["deep stacks", "win-cap", "chip-exposure", "from the dealer", "table and pair units"],
)
def test_progressive_pineapple_golden(
    stacks: tuple[int, int, int],
    options: dict[str, Any],
    stacks_after: dict[str, int],
    transfers: list[tuple[str, str, int, int]],
) -> None:
    result = score(pineapple_deal(stacks, **options))
    assert summary(result) == {"stacks": stacks_after, "transfers": transfers}
    players = {p["name"]: p for p in result["players"]}
    assert {name: p["royalties"] for name, p in players.items()} == {"Ann": 16, "Bob": 31, "Cy": 6}
    assert {name: p["points"] for name, p in players.items()} == {"Ann": -10, "Bob": 47, "Cy": -37}
    assert {name: p["fantasyland"]["cards"] for name, p in players.items()} == {"Ann": 15, "Bob": 14, "Cy": 0}
    for matchup in result["matchups"]:
        first, second = matchup["players"]
        expected = POINTS.get((first, second), -POINTS.get((second, first), 0))
        assert matchup["points"] == expected, matchup


def test_deuce_to_seven_golden() -> None:
    result = score(
        {
            "variant": "2-7-pineapple",
            "dealer": "Bob",
            "players": [
                {"name": "Ann", "stack": 100, "front": "Ks Kd Ac", "middle": "7h 5d 4c 3s 2h",
                 "back": "As Ad 8c 8s 9d"},
                {"name": "Bob", "stack": 100, "front": "Qs Qd 2c", "middle": "8h 6d 4d 3c 2d",
                 "back": "Kh Kc 9h 9c Tc"},
            ],
        }
    )  # fmt: skip
    ann, bob = result["players"]
    assert ann["rows"]["middle"] == {
        "cards": "7h 5d 4c 3s 2h",
        "hand": "seven-five low (7-5-4-3-2)",
        "royalty": 8,
    }
    assert bob["rows"]["middle"]["hand"] == "eight-six low (8-6-4-3-2)"
    assert (ann["royalties"], bob["royalties"]) == (8 + 8, 7 + 2)
    assert result["matchups"] == [
        {
            "players": ["Ann", "Bob"],
            "rows": [1, 1, 1],
            "scoop": 3,
            "royalties": 7,
            "foul_penalty": 0,
            "foul": None,
            "points": 13,
            "unit": 1,
        }
    ]
    assert ann["fantasyland"] == {"next": True, "cards": 15}, "KK front and 7-5-4-3-2 middle"
    assert bob["fantasyland"] == {"next": False, "cards": 0}, "QQ is not enough in 2-7"
    assert (ann["stack_after"], bob["stack_after"]) == (113, 87)
