"""The `ofc-desk score` contract: the worked examples figure by figure, and every kind of bad input.

The worked examples are copies of the card room's published worked examples, kept in
tests/core/data so the tests stand on their own.
"""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ofc_desk.cli.main import main
from ofc_desk.core.ofc.presets import load_preset
from tests.core.score_output import scored_or_refused

DATA = Path(__file__).parent / "data"
DEALS = DATA / "score-deals.json"
EXPECTED = DATA / "score-expected.json"
ROWS = ("front", "middle", "back")

GOOD_DEAL: dict[str, Any] = {
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
        {
            "name": "Cy",
            "stack": 100,
            "front": "4s 5s 6d",
            "middle": "8h 8c 6h 6s 2s",
            "back": "Qh Qc Kd Kc As",
        },
    ],
}


def assert_matches_expected(results: list[dict[str, Any]], expected: list[dict[str, Any]]) -> None:
    assert len(results) == len(expected)
    for index, (got, want) in enumerate(zip(results, expected, strict=True)):
        players = {player["name"]: player for player in got["players"]}
        assert [p["name"] for p in got["players"]] == [p["name"] for p in want["players"]], index
        for wanted in want["players"]:
            player = players[wanted["name"]]
            where = f"deal {index}, {wanted['name']}"
            assert {row: player["rows"][row]["royalty"] for row in ROWS} == wanted["royalties"], where
            assert player["royalties"] == sum(wanted["royalties"].values()), where
            assert player["foul"] == wanted["foul"], where
            assert player["stack_after"] == wanted["stack_after"], where
            assert player["fantasyland"] == wanted["fantasyland"], where
        points = {}
        for matchup in got["matchups"]:
            first, second = matchup["players"]
            points[first, second], points[second, first] = matchup["points"], -matchup["points"]
        assert len(got["matchups"]) == len(want["matchups"]), index
        for matchup in want["matchups"]:
            assert points[tuple(matchup["players"])] == matchup["points"], (index, matchup)
        assert [
            {key: transfer[key] for key in ("from", "to", "owed", "paid")} for transfer in got["transfers"]
        ] == want["transfers"], index
        assert all(transfer["reason"] for transfer in got["transfers"])


def run_score(argument: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["score", argument])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_worked_examples_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_score(str(DEALS), capsys)
    assert (code, err) == (0, "")
    assert_matches_expected(json.loads(out), json.loads(EXPECTED.read_text()))


def test_the_worked_examples_as_a_subprocess(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ofc_desk", "score", str(DEALS)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert_matches_expected(json.loads(done.stdout), json.loads(EXPECTED.read_text()))


def test_one_deal_in_gives_one_result_out_with_the_documented_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(GOOD_DEAL))
    code, out, err = run_score(str(path), capsys)
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert set(result) == {"players", "matchups", "transfers"}
    ann = result["players"][0]
    assert ann["rows"]["front"] == {"cards": "Qs Qd 2c", "hand": "pair of queens", "royalty": 7}
    assert ann["rows"]["middle"]["hand"] == "ace-high flush"
    assert ann["rows"]["back"]["hand"] == "sevens full of threes"
    assert ann["fantasyland"] == {"next": True, "cards": 13}
    assert result["players"][1]["fantasyland"] == {"next": False, "cards": 0}
    assert [m["players"] for m in result["matchups"]] == [["Cy", "Ann"], ["Cy", "Bob"], ["Ann", "Bob"]]
    assert sum(p["stack_after"] for p in result["players"]) == 300
    assert sum(p["points"] for p in result["players"]) == 0


@pytest.mark.parametrize("stack", [100, 2**70], ids=["ordinary stacks", "stacks beyond 64 bits"])
def test_any_whole_number_of_chips_and_any_name_is_written_exactly(
    stack: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deal = copy.deepcopy(GOOD_DEAL)
    for player in deal["players"]:
        player["stack"] = stack
    deal["players"][0]["name"] = 'Zoë "Ace" 李'
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal), encoding="utf-8")
    code, out, err = run_score(str(path), capsys)
    assert (code, err) == (0, "")
    result = json.loads(out)
    zoe = result["players"][0]
    assert zoe["name"] == 'Zoë "Ace" 李'
    assert zoe["stack_before"] == stack
    assert zoe["stack_after"] == stack + zoe["points"]
    assert sum(player["stack_after"] for player in result["players"]) == 3 * stack


def test_standard_input_with_a_dash(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(DEALS.read_bytes())))
    code, out, err = run_score("-", capsys)
    assert (code, err) == (0, "")
    assert_matches_expected(json.loads(out), json.loads(EXPECTED.read_text()))


# --- bad input -----------------------------------------------------------------------------------


def changed(**changes: Any) -> dict[str, Any]:
    deal = copy.deepcopy(GOOD_DEAL)
    deal.update(changes)
    return deal


def with_player(index: int, **changes: Any) -> dict[str, Any]:
    deal = copy.deepcopy(GOOD_DEAL)
    deal["players"][index].update(changes)
    return deal


def player(name: str, cards: tuple[str, str, str]) -> dict[str, Any]:
    return {"name": name, "stack": 50, "front": cards[0], "middle": cards[1], "back": cards[2]}


FIVE_PLAYERS = [
    player("P1", ("2s 3s 4s", "5s 6s 7s 8s 9s", "Ts Js Qs Ks As")),
    player("P2", ("2h 3h 4h", "5h 6h 7h 8h 9h", "Th Jh Qh Kh Ah")),
    player("P3", ("2d 3d 4d", "5d 6d 7d 8d 9d", "Td Jd Qd Kd Ad")),
    player("P4", ("2c 3c 4c", "5c 6c 7c 8c 9c", "Tc Jc Qc Kc Ac")),
]
BAD_INPUTS: dict[str, tuple[Any, list[str]]] = {
    "unknown card": (with_player(1, middle="Jc Jd 9c 4c 1x"), ["players[1].middle", "'1x'", "card 5"]),
    "same card twice": (
        with_player(2, back="Qh Qc Kd Kc Ah"),
        ["players[2].back", "Ah is already in Ann's middle"],
    ),
    "same card twice in one row": (
        with_player(0, front="Qs Qs 2c"),
        ["players[0].front", "Qs is already in Ann's front"],
    ),
    "front too short": (with_player(0, front="Qs Qd"), ["players[0].front", "holds 2 cards, needs 3"]),
    "middle too long": (with_player(1, middle="Jc Jd 9c 4c 3c 2s"), ["players[1].middle", "needs 5"]),
    "one player": (changed(players=GOOD_DEAL["players"][:1], dealer="Ann"), ["players", "not 1"]),
    "five players": (
        changed(players=[*FIVE_PLAYERS, GOOD_DEAL["players"][0]], dealer="P1"),
        ["players", "not 5"],
    ),
    "four for pineapple": (
        changed(variant="pineapple", players=FIVE_PLAYERS, dealer="P1"),
        ["players", "not 4"],
    ),
    "unknown dealer": (changed(dealer="Zed"), ["dealer", "'Zed' is not one of the players"]),
    "missing dealer": ({"players": GOOD_DEAL["players"]}, ["dealer", "missing"]),
    "unknown preset": (changed(rules="vegas"), ["rules", "unknown preset 'vegas'"]),
    "unknown variant": (changed(variant="omaha"), ["variant", "'omaha'"]),
    "unknown policy": (changed(settlement="winner-takes-all"), ["settlement", "'winner-takes-all'"]),
    "unknown settle_from": (changed(settle_from="button"), ["settle_from", "'button'"]),
    "unknown scoring": (changed(scoring="3-9"), ["scoring", "'3-9'"]),
    "negative stack": (with_player(1, stack=-5), ["players[1].stack", "at least 0"]),
    "half a surrogate pair in a name": (
        with_player(1, name="B\ud800b"),
        ["players[1].name", "not valid Unicode"],
    ),
    "fractional stack": (with_player(1, stack=2.5), ["players[1].stack", "whole number"]),
    "zero unit": (changed(unit=0), ["unit", "at least 1"]),
    "unknown field": (changed(rule="standard"), ["rule", "unknown field"]),
    "unknown fantasyland player": (changed(in_fantasyland=["Zed"]), ["in_fantasyland[0]", "'Zed'"]),
    "pair unit for one player": (
        changed(pair_units=[{"players": ["Ann", "Ann"], "unit": 2}]),
        ["pair_units[0].players[1]", "'Ann' is named twice"],
    ),
    # A pair's unit misspelt or left out would settle that pair silently at 1 chip a point.
    "pair unit misspelt": (
        changed(unit=5, pair_units=[{"players": ["Ann", "Bob"], "units": 50}]),
        ["pair_units[0].units", "unknown field"],
    ),
    "pair unit missing": (
        changed(unit=5, pair_units=[{"players": ["Ann", "Bob"]}]),
        ["pair_units[0].unit", "is missing"],
    ),
    "fantasyland player twice": (
        changed(in_fantasyland=["Ann", "Ann"]),
        ["in_fantasyland[1]", "'Ann' is named twice"],
    ),
    "empty scoring": (changed(scoring=""), ["scoring", "unknown scoring ''"]),
    "streak of a player not in fantasyland": (
        changed(in_fantasyland=["Ann"], fantasyland_streaks={"Bob": 2}),
        ["fantasyland_streaks.Bob", "'Bob' did not play this deal in Fantasyland"],
    ),
    "streak of no hands": (
        changed(in_fantasyland=["Ann"], fantasyland_streaks={"Ann": 0}),
        ["fantasyland_streaks.Ann", "1 or more"],
    ),
    "misspelt house option": (
        changed(house_options={"winner_only_royalty": True}),
        ["rules", "preset.winner_only_royalty is not a preset field"],
    ),
    "royalty for a misspelt hand": (
        changed(house_options={"royalties": {"back": {"flussh": 4}}}),
        ["rules", "preset.royalties.back.flussh is not a hand class"],
    ),
    "field a preset object does not have": (
        changed(rules={**load_preset("standard").to_dict(), "foul_penalti": 12}),
        ["rules", "preset.foul_penalti is not a preset field"],
    ),
    "rake above 100 percent": (
        changed(house_options={"rake": {"mode": "percent-of-win", "percent": 200}}),
        ["rules", "preset.rake.percent must be a whole number from 0 to 100, not 200"],
    ),
    "jackpot share above 100 percent": (
        changed(house_options={"rake": {"jackpot_percent": 150}}),
        ["rules", "preset.rake.jackpot_percent must be a whole number from 0 to 100"],
    ),
    "fantasyland dealt fewer than 13": (
        changed(house_options={"fantasyland": {"cards": {"pineapple": 12}}}),
        ["rules", "preset.fantasyland.cards.pineapple must be a whole number from 13 to 52, not 12"],
    ),
    "a foul penalty beyond any room's": (
        changed(house_options={"foul_penalty": 10**19}),
        ["rules", "preset.foul_penalty must be a whole number from 0 to 1,000"],
    ),
    "NUL in a preset name": (changed(rules="stan\x00dard"), ["rules", "unknown preset 'stan\\x00dard'"]),
    "half a surrogate pair in a preset name": (changed(rules="\ud800"), ["rules", "unknown preset"]),
    # Text from the input goes into messages as it is, but the message stays on one line.
    "newline in a name": (
        changed(players=[{**GOOD_DEAL["players"][0], "name": "Ann\nLee"}, *GOOD_DEAL["players"][1:]])
        | {"dealer": "Zed"},
        ["dealer", "'Zed' is not one of the players (Ann\\nLee, Bob"],
    ),
    "newline in a field name": (changed(**{"sett\nlement": "win-cap"}), ["sett\\nlement", "unknown field"]),
    "a deal that is not an object": (["not a deal"], ["deal 0", "JSON object"]),
    # Preset data that is well-formed JSON but names no rank or hand: refused, not a crash later.
    "house option entry pair not a rank": (
        changed(house_options={"fantasyland": {"entry_front_pair": "X"}}),
        ["rules", "entry_front_pair"],
    ),
    "house option stay not a hand": (
        changed(in_fantasyland=["Ann"], house_options={"fantasyland": {"stay": {"front": "bogus"}}}),
        ["rules", "stay"],
    ),
}


def write_input(tmp_path: Path, document: Any) -> Path:
    path = tmp_path / "deals.json"
    path.write_text(json.dumps(document) if not isinstance(document, str) else document)
    return path


def assert_refused(code: int, out: str, err: str, fragments: list[str]) -> None:
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("ofc-desk score: ")
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_input_exits_2_with_one_line_naming_field_and_problem(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document, fragments = BAD_INPUTS[case]
    assert_refused(*run_score(str(write_input(tmp_path, document)), capsys), fragments)


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_a_bad_deal_in_a_list_is_named_by_its_index(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document, fragments = BAD_INPUTS[case]
    if isinstance(document, list):
        document = document[0]
    deals = [GOOD_DEAL, GOOD_DEAL, changed(rules="classic"), document, GOOD_DEAL]
    code, out, err = run_score(str(write_input(tmp_path, deals)), capsys)
    assert_refused(code, out, err, [fragment for fragment in fragments if fragment != "deal 0"])
    assert err.startswith("ofc-desk score: deal 3")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('{"dealer": "Bob", "players": [', "malformed JSON at line 1"),
        ("", "malformed JSON"),
        ("{'dealer': 'Bob'}", "malformed JSON"),
        ("[" * 100_000 + "]" * 100_000, "JSON"),
        ('{"dealer": "Ann", "players": [], "unit": 1' + "0" * 5000 + "}", "more than 4,300 digits"),
    ],
    ids=["cut short", "empty", "single quotes", "nested too deeply", "a number of 5,000 digits"],
)
def test_malformed_json_is_refused(
    text: str, fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_refused(*run_score(str(write_input(tmp_path, text)), capsys), [fragment])


def test_stacks_at_the_reading_limit_still_give_a_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """4,300 digits are read; a winner's stack can end a digit longer, and is still written."""
    huge = 9 * 10**4299
    deal = changed(players=[{**player, "stack": huge} for player in GOOD_DEAL["players"]], unit=huge)
    code, out, err = run_score(str(write_input(tmp_path, deal)), capsys)
    assert (code, err) == (0, "")
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        stacks = [player["stack_after"] for player in json.loads(out)["players"]]
    finally:
        sys.set_int_max_str_digits(limit)
    assert sum(stacks) == huge * len(stacks) and max(stacks) > 10**4300


def test_the_cap_on_consecutive_fantasyland_hands_counts_the_streak_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ann plays in Fantasyland and qualifies to stay (quads in the back); the room allows 2 in a row."""
    deal = {
        "dealer": "Bob",
        "in_fantasyland": ["Ann"],
        "house_options": {"fantasyland": {"max_consecutive": 2}},
        "players": [
            {"name": "Ann", "stack": 50, "front": "Ks Kd 2c", "middle": "2h 3h 4h 5h 7h",
             "back": "As Ad Ac Ah 2s"},
            {"name": "Bob", "stack": 50, "front": "3c 4c 6d", "middle": "5c 6c 7d 8s Ts",
             "back": "9s 9d Jc Qd Jd"},
        ],
    }  # fmt: skip

    def ann_next(**extra: Any) -> Any:
        code, out, err = run_score(str(write_input(tmp_path, deal | extra)), capsys)
        assert (code, err) == (0, "")
        return json.loads(out)["players"][0]["fantasyland"]

    assert ann_next() == {"next": True, "cards": 13}, "not given: this is her first in a row"
    assert ann_next(fantasyland_streaks={"Ann": 1}) == {"next": True, "cards": 13}
    assert ann_next(fantasyland_streaks={"Ann": 2}) == {"next": False, "cards": 0}


def test_a_missing_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_refused(*run_score(str(tmp_path / "nowhere.json"), capsys), ["cannot read"])


def test_bad_standard_input_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    deal = json.dumps(with_player(1, back="Ts 9s 8d 7h Qs"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(deal.encode())))
    assert_refused(*run_score("-", capsys), ["players[1].back", "Qs is already in Ann's front"])


def test_bad_standard_input_as_a_subprocess() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ofc_desk", "score", "-"],
        input=json.dumps([GOOD_DEAL, GOOD_DEAL, GOOD_DEAL, changed(variant="omaha")]),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert_refused(done.returncode, done.stdout, done.stderr, ["deal 3", "variant", "'omaha'"])


# --- never a traceback: any JSON value in any field is scored or refused cleanly ------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 60)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["Ann", "Bob", "Qs", "Ah Kd", "standard", "2-4", "trips", "Q", "regular", "win-cap"]),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = [
    ("rules",), ("scoring",), ("variant",), ("progressive",), ("unit",), ("pair_units",), ("settlement",),
    ("settle_from",), ("in_fantasyland",), ("fantasyland_streaks",), ("dealer",), ("players",),
    ("house_options",),
    ("house_options", "foul_penalty"), ("house_options", "winner_only_royalties"),
    ("house_options", "royalties", "back"), ("house_options", "royalties", "front_pairs"),
    ("house_options", "fantasyland", "entry_front_pair"), ("house_options", "fantasyland", "cards"),
    ("house_options", "fantasyland", "progressive_cards"), ("house_options", "fantasyland", "stay"),
    ("house_options", "fantasyland", "max_consecutive"), ("house_options", "scoring_systems"),
    ("house_options", "fantasyland", "deuce_to_seven", "stay"),
    ("house_options", "fantasyland", "deuce_to_seven", "entry_front_pair"),
    ("players", 0), ("players", 1, "name"), ("players", 1, "stack"), ("players", 0, "front"),
    ("players", 2, "back"),
]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    path=st.sampled_from(FIELDS),
    value=JSON_VALUES,
    variant=st.sampled_from(["regular", "pineapple", "2-7-pineapple"]),
)
def test_any_value_in_any_field_is_scored_or_refused_never_crashes(
    path: tuple[str | int, ...], value: Any, variant: str
) -> None:
    scored_or_refused(changed(variant=variant, progressive=True, in_fantasyland=["Ann", "Cy"]), path, value)
