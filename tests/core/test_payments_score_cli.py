"""`ofc-desk score` with docs/rules.md §11: the worked examples of the other payments and of the
jackpot figure by figure, the `jackpot` object (when it is there, what it holds, stacks after with
the award), and every bad input refused in one line with exit 2 and nothing on standard output."""

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
AWARD = {
    "front": "pair",
    "middle": "three-of-a-kind",
    "back": "straight-flush",
    "loser": 50,
    "winner": 25,
    "table": 25,
}
# Bob (a pair, trips, a straight flush) loses all three rows to Ann; Cy and Dee are the table.
FOUR = [
    {"name": "Ann", "stack": 20, "front": "Ks Kh 2c", "middle": "Ac Ad Ah 3c 3d", "back": "9d Td Jd Qd Kd"},
    {"name": "Bob", "stack": 20, "front": "2s 2h 4c", "middle": "4s 4h 4d 6c 7d", "back": "8c 9c Tc Jc Qc"},
    {"name": "Cy", "stack": 20, "front": "2d 3h 6d", "middle": "5c 5d 7c 8d 9h", "back": "Th Ts Jh Js Qh"},
    {"name": "Dee", "stack": 0, "front": "3s 9s Kc", "middle": "5h 5s 6h 7h 8h", "back": "6s 7s 8s Qs As"},
]
DEAL: dict[str, Any] = {
    "variant": "chinese",
    "rules": "chinese-basic",
    "dealer": "Dee",
    "players": FOUR,
    "jackpot_pool": 1000,
    "house_options": {"jackpot_award": AWARD},
}


def test_the_worked_examples_of_the_other_payments_and_the_jackpot(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["score", str(DATA / "payments-deals.json")]) == 0
    results = json.loads(capsys.readouterr().out)
    expected = json.loads((DATA / "payments-expected.json").read_text())
    assert len(results) == len(expected) == 7
    for index, (got, want) in enumerate(zip(results, expected, strict=True)):
        players = {player["name"]: player for player in got["players"]}
        for wanted in want["players"]:
            player = players[wanted["name"]]
            assert (player["foul"], player["stack_after"]) == (wanted["foul"], wanted["stack_after"]), index
        transfers = [
            {key: t[key] for key in ("from", "to", "owed", "paid")} for t in got["transfers"] if t["owed"]
        ]
        assert transfers == want["transfers"], index
        assert ("jackpot" in got) == ("jackpot" in want), index
        if "jackpot" in want:
            jackpot, wanted_jackpot = got["jackpot"], want["jackpot"]
            assert (jackpot["pool_before"], jackpot["pool_after"]) == (1000, wanted_jackpot["pool_after"])
            award = jackpot["award"]
            if wanted_jackpot["award"] is None:
                assert award is None, index
            else:
                chips = {name: chips for name, chips in award["chips"].items() if chips}
                assert (award["loser"], award["winner"], chips) == (
                    wanted_jackpot["award"]["loser"],
                    wanted_jackpot["award"]["winner"],
                    wanted_jackpot["award"]["chips"],
                ), index


def test_an_award_goes_onto_the_stacks_after_from_the_house() -> None:
    result = score(DEAL)
    assert result["jackpot"] == {
        "pool_before": 1000,
        "pool_after": 0,
        "award": {"loser": "Bob", "winner": "Ann", "chips": {"Ann": 250, "Bob": 500, "Cy": 125, "Dee": 125}},
    }
    # Settlement first (Bob scooped by Ann: 3 units; Dee starts with 0 and pays nothing), then the
    # award, which no win cap limits and which reaches Dee, who began the deal with 0 chips.
    stacks = {player["name"]: (player["stack_before"], player["stack_after"]) for player in result["players"]}
    settled = {player["name"]: 0 for player in result["players"]}
    for transfer in result["transfers"]:
        settled[transfer["from"]] -= transfer["paid"]
        settled[transfer["to"]] += transfer["paid"]
    award = result["jackpot"]["award"]["chips"]
    assert stacks["Dee"] == (0, 125)
    for name, (before, after) in stacks.items():
        assert after == before + settled[name] + award[name]
    assert sum(after for _, after in stacks.values()) == 60 + 1000


def test_the_jackpot_object_is_there_when_the_deal_carries_a_pool_or_the_preset_an_award() -> None:
    without = {key: value for key, value in DEAL.items() if key not in ("jackpot_pool", "house_options")}
    assert "jackpot" not in score(without)
    pool_only = {**without, "jackpot_pool": 40}
    assert score(pool_only)["jackpot"] == {"pool_before": 40, "pool_after": 40, "award": None}
    award_only = {**without, "house_options": {"jackpot_award": AWARD}}
    jackpot = score(award_only)["jackpot"]
    assert (jackpot["pool_before"], jackpot["pool_after"], jackpot["award"]["chips"]["Bob"]) == (0, 0, 0)


def test_an_ofc_deal_carries_the_jackpot_too() -> None:
    ofc = {
        "rules": "standard",
        "dealer": "Cy",
        "players": [{key: value for key, value in player.items()} for player in FOUR[:3]],
        "in_fantasyland": ["Cy"],
        "jackpot_pool": 999,
        "house_options": {"jackpot_award": AWARD},
    }
    result = score(ofc)
    assert result["jackpot"] == {
        "pool_before": 999,
        "pool_after": 2,
        "award": {"loser": "Bob", "winner": "Ann", "chips": {"Ann": 249, "Bob": 499, "Cy": 249}},
    }
    plain = score({key: value for key, value in ofc.items() if key not in ("jackpot_pool", "house_options")})
    assert [p["stack_after"] + c for p, c in zip(plain["players"], (249, 499, 249), strict=True)] == [
        p["stack_after"] for p in result["players"]
    ]


def test_the_pool_and_the_single_winner_are_in_the_answer() -> None:
    pool = {**DEAL, "rules": "pool", "house_options": {}}
    del pool["jackpot_pool"]
    assert score(pool)["payment"] == {
        "payment": "pool",
        "row_winners": {"front": "Ann", "middle": "Ann", "back": "Ann"},
    }
    pusoy = {**pool, "rules": "pusoy-single-winner"}
    assert score(pusoy)["payment"] == {"payment": "single-winner", "winner": "Ann"}
    assert "payment" not in score({**pool, "rules": "chinese-basic"})


def with_player(position: int, **changes: Any) -> dict[str, Any]:
    deal = copy.deepcopy(DEAL)
    deal["players"][position] = {"name": deal["players"][position]["name"], "stack": 20, **changes}
    return deal


def changed(**changes: Any) -> dict[str, Any]:
    return {**copy.deepcopy(DEAL), **changes}


def award_with(**changes: Any) -> dict[str, Any]:
    return changed(house_options={"jackpot_award": {**AWARD, **changes}})


SIX_PAIRS = "3h 3s 5c 5d 6d 6h 7c 7h 8d 8h Th Ts 2d"
BAD_INPUTS: dict[str, tuple[Any, str]] = {
    "shares over 100": (
        award_with(loser=60),
        "deal 1, rules: preset.jackpot_award: the shares add up to 110 percent of the pool; at most 100",
    ),
    "an unknown class": (
        award_with(middle="trips"),
        "deal 1, rules: preset.jackpot_award.middle: 'trips' is not a hand class",
    ),
    "a front above three of a kind": (
        award_with(front="flush"),
        "deal 1, rules: preset.jackpot_award.front: a front of three cards never holds flush",
    ),
    "a share left out": (
        changed(house_options={"jackpot_award": {k: v for k, v in AWARD.items() if k != "winner"}}),
        "deal 1, rules: preset.jackpot_award.winner is missing",
    ),
    "a share that is not a whole number": (
        award_with(table="25"),
        "deal 1, rules: preset.jackpot_award.table must be a whole number of percent from 0 to 100",
    ),
    "an unknown payment": (
        changed(house_options={"payment": "winner-takes-all"}),
        "deal 1, rules: preset.payment must be one of pairs, pool, single-winner, not 'winner-takes-all'",
    ),
    "a negative pool": (
        changed(jackpot_pool=-1),
        "deal 1, jackpot_pool: a pool holds 0 chips or more, not -1",
    ),
    "a pool that is not a number": (
        changed(jackpot_pool="1000"),
        "deal 1, jackpot_pool: must be a whole number",
    ),
    "a surrender at a pool table": (
        {**with_player(2, surrender=True), "rules": "pool"},
        "deal 1, players[2] (Cy).surrender: this table's preset plays no surrender",
    ),
    "a declaration at a single-winner table": (
        {**with_player(2, declare="six-pairs", cards=SIX_PAIRS), "rules": "pusoy-single-winner"},
        "deal 1, players[2] (Cy).declare: this table's preset plays no declared special hands",
    ),
    "a surrender number under pool": (
        changed(house_options={"payment": "pool"}),
        "deal 1, rules: preset.surrender must be null under payment pool:"
        " this table's preset plays no surrender",
    ),
    "specials under single-winner": (
        changed(
            rules="pusoy-single-winner", house_options={"specials": [{"kind": "no-pictures", "units": 2}]}
        ),
        "deal 1, rules: preset.specials must be empty under payment single-winner",
    ),
    "a bank under pool": (
        changed(rules="pool", house_options={"bank": True}),
        "deal 1, rules: preset.bank must be false under payment pool",
    ),
    "a 2-7 pineapple table with an award": (
        {
            "rules": "standard",
            "variant": "2-7-pineapple",
            "dealer": "Ann",
            "players": [{k: v for k, v in p.items()} for p in FOUR[:2]],
            "house_options": {"jackpot_award": AWARD},
        },
        "deal 1, variant: a 2-7-pineapple table takes no jackpot_award",
    ),
    "an OFC award with shares over 100": (
        {
            "rules": "standard",
            "dealer": "Ann",
            "players": [{k: v for k, v in p.items()} for p in FOUR[:2]],
            "house_options": {"jackpot_award": {**AWARD, "table": 26}},
        },
        "deal 1, rules: preset.jackpot_award: the shares add up to 101 percent",
    ),
    "an OFC negative pool": (
        {"rules": "standard", "dealer": "Ann", "players": FOUR[:2], "jackpot_pool": -5},
        "deal 1, jackpot_pool: a pool holds 0 chips or more, not -5",
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
        ["pool", "single-winner", "pairs", "pair", "flush", "straight-flush", "no-pictures", "Ann"]
    ),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = [
    ("jackpot_pool",), ("house_options", "jackpot_award"), ("house_options", "jackpot_award", "front"),
    ("house_options", "jackpot_award", "loser"), ("house_options", "jackpot_award", "table"),
    ("house_options", "payment"), ("house_options", "pool_row"), ("house_options", "pool_scoop"),
    ("house_options", "stake"), ("house_options", "surrender"), ("players", 1, "declare"),
    ("players", 2, "surrender"),
]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    path=st.sampled_from(FIELDS),
    value=JSON_VALUES,
    rules=st.sampled_from(["chinese-basic", "pool", "pusoy-single-winner"]),
)
def test_any_value_in_any_new_field_is_scored_or_refused_never_crashes(
    path: tuple[str | int, ...], value: Any, rules: str
) -> None:
    scored_or_refused(changed(rules=rules), path, value)
