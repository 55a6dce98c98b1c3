"""Presets as data (every number of docs/rules.md §4–§7 in plain files) and the house's rake (§9)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ofc_desk.core.ofc.presets import load_preset, preset_from_dict
from ofc_desk.core.presets import Game, PresetError, RakeMode, RakeRules, preset_names
from ofc_desk.core.rake import compute_rake

SHIPPED = ["classic", "standard", "two-point"]


def test_the_three_presets_ship_as_files() -> None:
    assert set(SHIPPED) <= set(preset_names())
    for name in SHIPPED:
        preset = load_preset(name)
        assert preset.name == name
        assert preset.to_dict()["name"] == name
        assert preset.foul_penalty == 6
        assert not preset.winner_only_royalties
        assert preset.rake.mode is RakeMode.OFF


def test_a_preset_round_trips_through_its_stored_form_with_house_options() -> None:
    preset = preset_from_dict(load_preset("classic").source, {"royalties": {"back": {"trips": 1}}})
    stored = preset.to_dict()
    assert stored["royalties"]["back"]["trips"] == 1
    assert stored["royalties"]["front_trips"]["A"] == 20
    assert preset_from_dict(stored) == preset


def test_scoring_systems_per_preset() -> None:
    standard = load_preset("standard")
    assert standard.scoring == "1-6"
    assert (standard.scoring_system("1-6").row, standard.scoring_system("1-6").scoop) == (1, 3)
    assert (standard.scoring_system("2-4").row, standard.scoring_system("2-4").majority) == (1, 1)
    two_point = load_preset("two-point").scoring_system()
    assert (two_point.row, two_point.scoop, two_point.majority) == (2, 0, 0)


@pytest.mark.parametrize("name", ["", "nope", "../presets/standard", "standard.json", "a\\b"])
def test_an_unknown_preset_is_refused_and_the_known_ones_listed(name: str) -> None:
    with pytest.raises(PresetError, match=r"unknown preset .*\(known: ") as refused:
        load_preset(name)
    known = str(refused.value).rpartition("(known: ")[2].removesuffix(")").split(", ")
    assert set(SHIPPED) <= set(known)  # a room's own preset may stand among them
    assert known == preset_names(Game.OFC) + preset_names(Game.CHINESE)


def standard_data() -> dict[str, Any]:
    return copy.deepcopy(dict(load_preset("standard").to_dict()))


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"foul_penalty": -1}, "preset.foul_penalty"),
        ({"foul_penalty": "6"}, "preset.foul_penalty"),
        ({"winner_only_royalties": "yes"}, "preset.winner_only_royalties"),
        ({"royalties": {"back": {"flush": 2.5}}}, "preset.royalties.back.flush"),
        ({"scoring": "9-9"}, "unknown scoring '9-9'"),
        ({"rake": {"mode": "sometimes"}}, "preset.rake.mode"),
        ({"fantasyland": {"entry_front_pair": "X"}}, "preset.fantasyland.entry_front_pair"),
        ({"fantasyland": {"stay": {"top": "trips"}}}, "preset.fantasyland.stay.top"),
        ({"fantasyland": {"stay": {"front": "quad"}}}, "preset.fantasyland.stay.front"),
        (
            {"fantasyland": {"deuce_to_seven": {"entry_middle": "7-5-4-3"}}},
            "preset.fantasyland.deuce_to_seven.entry_middle",
        ),
        (
            {"fantasyland": {"deuce_to_seven": {"entry_middle": "7-5-4-3-1"}}},
            "preset.fantasyland.deuce_to_seven.entry_middle",
        ),
        (
            {"fantasyland": {"deuce_to_seven": {"stay": {"back": "bogus"}}}},
            "preset.fantasyland.deuce_to_seven.stay.back",
        ),
    ],
)
def test_bad_preset_data_is_refused_naming_the_field(overrides: dict[str, Any], field: str) -> None:
    with pytest.raises(PresetError, match=field.replace(".", r"\.")):
        preset_from_dict(standard_data(), overrides)


def test_missing_fantasyland_card_counts_are_refused() -> None:
    data = standard_data()
    del data["fantasyland"]["cards"]["pineapple"]
    with pytest.raises(PresetError, match=r"fantasyland\.cards\.pineapple is missing"):
        preset_from_dict(data)
    data = standard_data()
    del data["fantasyland"]["progressive_cards"]["K"]
    with pytest.raises(PresetError, match=r"progressive_cards\.K is missing"):
        preset_from_dict(data)


def test_a_casinos_own_preset_needs_no_code() -> None:
    data = standard_data()
    data.update(name="house", foul_penalty=5, winner_only_royalties=True)
    data["royalties"]["middle"]["trips"] = 3
    preset = preset_from_dict(data)
    assert (preset.name, preset.foul_penalty, preset.winner_only_royalties) == ("house", 5, True)
    assert preset.royalties.middle["trips"] == 3


# --- rake ----------------------------------------------------------------------------------------


def test_rake_off_takes_nothing() -> None:
    result = compute_rake(RakeRules(RakeMode.OFF, 5, 5, 0, 50), {"Ann": 100}, {"Ann": 40})
    assert (result.total, result.jackpot, dict(result.per_player)) == (0, 0, {})


def test_rake_per_player_is_a_fixed_amount_never_more_than_the_stack() -> None:
    result = compute_rake(RakeRules(RakeMode.PER_PLAYER, 2, 0, 0, 0), {"Ann": 10, "Bob": 1, "Cy": 0}, {})
    assert dict(result.per_player) == {"Ann": 2, "Bob": 1}
    assert result.total == 3


def test_rake_percent_of_net_win_rounds_down_and_respects_the_cap() -> None:
    rules = RakeRules(RakeMode.PERCENT_OF_WIN, 0, 10, 5, 40)
    result = compute_rake(rules, {"Ann": 139, "Bob": 119, "Cy": 42}, {"Ann": 39, "Bob": 19, "Cy": -58})
    assert dict(result.per_player) == {"Ann": 3, "Bob": 1}, "10% of 39 is 3, of 19 is 1; losers pay none"
    assert result.jackpot == 1, "40% of the 4 chips raked, rounded down"
    capped = compute_rake(
        RakeRules(RakeMode.PERCENT_OF_WIN, 0, 50, 5, 0), {"A": 100, "B": 100}, {"A": 8, "B": 8}
    )
    assert capped.total == 5
    assert dict(capped.per_player) == {"A": 4, "B": 1}


@given(
    mode=st.sampled_from([RakeMode.PER_PLAYER, RakeMode.PERCENT_OF_WIN]),
    amount=st.integers(0, 10),
    percent=st.integers(0, 100),
    cap=st.integers(0, 20),
    jackpot=st.integers(0, 100),
    stacks=st.lists(st.integers(0, 200), min_size=2, max_size=4),
    wins=st.lists(st.integers(-100, 100), min_size=4, max_size=4),
)
def test_rake_is_whole_chips_within_stacks_and_cap(
    mode: RakeMode, amount: int, percent: int, cap: int, jackpot: int, stacks: list[int], wins: list[int]
) -> None:
    names = [f"P{i}" for i in range(len(stacks))]
    result = compute_rake(
        RakeRules(mode, amount, percent, cap, jackpot),
        dict(zip(names, stacks, strict=True)),
        dict(zip(names, wins, strict=False)),
    )
    for name, taken in result.per_player.items():
        assert 0 < taken <= stacks[names.index(name)]
    if cap:
        assert result.total <= cap
    assert 0 <= result.jackpot <= result.total
    assert result.house == result.total - result.jackpot
