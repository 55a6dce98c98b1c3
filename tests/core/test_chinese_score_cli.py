"""`ofc-desk score` with Chinese poker deals (`"variant": "chinese"`): the worked examples figure by
figure, the output's fields, and every kind of bad input refused in one line naming the deal, the
player and the problem, with nothing on standard output."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ofc_desk.cli.main import main
from tests.core.score_output import refusal, score, scored_or_refused

DATA = Path(__file__).parent / "data"
DEALS = DATA / "chinese-deals.json"
EXPECTED = DATA / "chinese-expected.json"

DEAL: dict[str, Any] = {
    "variant": "chinese",
    "rules": "chinese-typical",
    "dealer": "Cy",
    "players": [
        {
            "name": "Ann",
            "stack": 20,
            "front": "6s 6h 6d",
            "middle": "4s 4h 4d 9s 9h",
            "back": "Ks Kh Kd 8s 8h",
        },
        {"name": "Bob", "stack": 20, "surrender": True},
        {
            "name": "Cy",
            "stack": 20,
            "declare": "six-pairs",
            "cards": "2c 2d 3c 3d 5c 5d 7c 7d Tc Td Qc Qd Ac",
        },
    ],
}


def test_the_worked_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(DEALS)]) == 0
    results = json.loads(capsys.readouterr().out)
    expected = json.loads(EXPECTED.read_text())
    assert len(results) == len(expected) == 12
    for index, (got, want) in enumerate(zip(results, expected, strict=True)):
        players = {player["name"]: player for player in got["players"]}
        for wanted in want["players"]:
            player = players[wanted["name"]]
            assert (player["foul"], player["stack_after"]) == (wanted["foul"], wanted["stack_after"]), index
        transfers = [{key: t[key] for key in ("from", "to", "owed", "paid")} for t in got["transfers"]]
        assert transfers == want["transfers"], index


def test_the_shipped_example(capsys: pytest.CaptureFixture[str]) -> None:
    examples = Path(__file__).parents[2] / "resources" / "examples"
    assert main(["score", str(examples / "chinese-deal.json")]) == 0
    result = json.loads(capsys.readouterr().out)
    expected = json.loads((examples / "chinese-deal-expected.json").read_text())
    players = [{key: p[key] for key in ("name", "foul", "stack_after")} for p in result["players"]]
    assert players == expected["players"]
    transfers = [{key: t[key] for key in ("from", "to", "owed", "paid")} for t in result["transfers"]]
    assert transfers == expected["transfers"]
    assert transfers[:3] == [
        {"from": "B", "to": "A", "owed": 6, "paid": 6},
        {"from": "A", "to": "C", "owed": 6, "paid": 2},
        {"from": "D", "to": "A", "owed": 1, "paid": 0},
    ]


def test_a_deal_with_a_set_hand_a_surrender_and_a_declared_special() -> None:
    result = score(DEAL)
    ann, bob, cy = result["players"]
    assert (ann["special"], ann["surrendered"], ann["foul"], ann["aces"]) == (None, False, False, None)
    assert ann["rows"]["front"] == {"cards": "6s 6h 6d", "hand": "three sixes", "bonus": 3}
    assert ann["rows"]["back"]["bonus"] == 0
    assert (bob["surrendered"], bob["rows"], bob["special"]) == (True, None, None)
    assert (cy["special"], cy["rows"]) == ("six-pairs", None)
    # Settlement from the dealer's left: Ann, Bob, Cy.
    assert [(m["players"], m["special"], m["points"]) for m in result["matchups"]] == [
        (["Ann", "Bob"], 0, 1),
        (["Ann", "Cy"], -3, 0),
        (["Bob", "Cy"], 0, -1),
    ]
    assert [(t["from"], t["to"], t["owed"], t["paid"], t["pass"]) for t in result["transfers"]] == [
        ("Ann", "Cy", 3, 3, "special"),
        ("Bob", "Ann", 1, 1, "rest"),
        ("Bob", "Cy", 1, 1, "rest"),
    ]
    assert [t["for"] for t in result["transfers"]] == [
        "Cy's six pairs (3 units)",
        "Bob surrendered",
        "Bob surrendered",
    ]
    assert [p["points"] for p in result["players"]] == [1 - 3, -2, 4]


def test_the_aces_house_option_shows_the_aces_held() -> None:
    deal = copy.deepcopy(DEAL)
    deal["house_options"] = {"aces": True}
    ann, bob, cy = score(deal)["players"]
    assert (ann["aces"], bob["aces"], cy["aces"]) == (0, None, 1)


def test_a_batch_mixes_chinese_and_ofc_deals() -> None:
    ofc = {
        "dealer": "Bob",
        "players": [
            {
                "name": "Ann",
                "stack": 100,
                "front": "Qs Qd 2c",
                "middle": "Ah Kh 9h 4h 2h",
                "back": "7s 7d 7c 3s 3d",
            },
            {
                "name": "Bob",
                "stack": 100,
                "front": "Ks 5d 2d",
                "middle": "Jc Jd 9c 4c 3c",
                "back": "Ts 9s 8d 7h 6c",
            },
        ],
    }
    chinese, regular = score([DEAL, ofc])
    assert chinese["variant"] == "chinese" and "fantasyland" not in chinese["players"][0]
    assert regular["players"][0]["fantasyland"] == {"next": True, "cards": 13}


def with_player(index: int, replace: bool = False, **changes: Any) -> dict[str, Any]:
    deal = copy.deepcopy(DEAL)
    if replace:
        name, stack = deal["players"][index]["name"], deal["players"][index]["stack"]
        deal["players"][index] = {"name": name, "stack": stack}
    deal["players"][index].update(changes)
    return deal


def changed(**changes: Any) -> dict[str, Any]:
    return {**copy.deepcopy(DEAL), **changes}


SIX_PAIRS_ONE_OFF = "2c 2d 3c 3d 5c 5d 7c 7d Tc Td Qc Kd Ac"
BAD_INPUTS: dict[str, tuple[Any, str]] = {
    "a declaration the cards do not make": (
        with_player(2, declare="six-pairs", cards=SIX_PAIRS_ONE_OFF),
        "deal 1, players[2] (Cy).declare: Cy's cards are not six pairs",
    ),
    "a kind the preset does not list": (
        with_player(2, declare="four-trips"),
        "deal 1, players[2] (Cy).declare: chinese-typical does not pay four trips",
    ),
    "not a special hand": (
        with_player(2, declare="seven-pairs"),
        "deal 1, players[2] (Cy).declare: 'seven-pairs' is not a special hand",
    ),
    "a card twice": (
        with_player(2, cards="2c 2d 3c 3d 5c 5d 7c 7d Tc Td Qc Qd 6s"),
        "deal 1, players[2] (Cy).cards: 6s is already in Ann's front",
    ),
    "a card twice in one hand": (
        with_player(2, cards="2c 2d 3c 3d 5c 5d 7c 7d Tc Td Qc Qd Qc"),
        "deal 1, players[2] (Cy).cards: Qc is given twice",
    ),
    "12 cards": (
        with_player(2, cards="2c 2d 3c 3d 5c 5d 7c 7d Tc Td Qc Qd"),
        "deal 1, players[2] (Cy).cards: holds 12 cards, needs 13",
    ),
    "a short row": (with_player(0, front="6s 6h"), "deal 1, players[0] (Ann).front: holds 2 cards, needs 3"),
    "an OFC-only key": (changed(in_fantasyland=["Ann"]), "deal 1, in_fantasyland: is an OFC key"),
    "an OFC-only player key": (
        with_player(0, fantasyland=True),
        "deal 1, players[0] (Ann).fantasyland: is an OFC key",
    ),
    "an unknown preset": (changed(rules="macau"), "deal 1, rules: unknown preset 'macau'"),
    "an OFC preset": (
        changed(rules="standard"),
        "deal 1, rules: 'standard' is a preset for OFC, not for Chinese poker",
    ),
    "a surrender with cards": (
        with_player(1, front="2s 3s 4s"),
        "deal 1, players[1] (Bob).surrender: Bob surrendered: give no cards and no declaration",
    ),
    "cards without a declaration": (
        with_player(0, replace=True, cards=SIX_PAIRS_ONE_OFF.replace("Kd", "Ks")),
        "deal 1, players[0] (Ann).cards: 13 cards without a declaration",
    ),
    "no hand at all": (with_player(0, replace=True), "deal 1, players[0] (Ann).front: is missing"),
    "five players": (
        changed(
            players=[*DEAL["players"], *({"name": n, "stack": 1, "surrender": True} for n in ("D", "E"))]
        ),
        "deal 1, players: Chinese poker is for 2 to 4 players, not 5",
    ),
    "an unknown house option": (
        changed(house_options={"surender": 2}),
        "deal 1, rules: preset.surender is not a preset field",
    ),
}


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_input_exits_2_with_one_line_and_nothing_on_standard_output(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deal, message = BAD_INPUTS[case]
    assert refusal(tmp_path, [DEAL, deal], capsys).startswith(f"ofc-desk score: {message}")


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 2**70)
    | st.text(max_size=12)
    | st.sampled_from(
        [
            "Ann",
            "Cy",
            "Qs",
            "six-pairs",
            "dragon",
            "small",
            "rows",
            "majority",
            "always",
            "8",
            "chinese-basic",
        ]
    ),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = [
    ("rules",), ("unit",), ("pair_units",), ("settlement",), ("settle_from",), ("dealer",), ("players",),
    ("house_options",), ("house_options", "scheme"), ("house_options", "bonus_mode"),
    ("house_options", "bonuses"), ("house_options", "bonuses", "middle"), ("house_options", "specials"),
    ("house_options", "special_vs_special"), ("house_options", "ace_units"), ("house_options", "aces"),
    ("house_options", "bank"), ("house_options", "sweep"), ("house_options", "rake"),
    ("players", 0), ("players", 0, "name"), ("players", 0, "stack"), ("players", 0, "front"),
    ("players", 1, "surrender"), ("players", 1, "declare"), ("players", 2, "declare"),
    ("players", 2, "cards"), ("players", 2, "middle"),
]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(FIELDS), value=JSON_VALUES, rules=st.sampled_from(["chinese-typical", "malayan"]))
def test_any_value_in_any_field_is_scored_or_refused_never_crashes(
    path: tuple[str | int, ...], value: Any, rules: str
) -> None:
    scored_or_refused(changed(rules=rules), path, value)
