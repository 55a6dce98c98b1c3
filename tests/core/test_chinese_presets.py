"""Chinese poker presets as data (docs/rules.md §10): the six shipped files with §10's numbers, a
card room's own file, each game listing only its own presets, and malformed data refused by field."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ofc_desk.core import presets as preset_files
from ofc_desk.core.cards import parse_cards
from ofc_desk.core.chinese.presets import (
    BonusMode,
    Scheme,
    SpecialVsSpecial,
    chinese_preset_from_dict,
    load_chinese_preset,
)
from ofc_desk.core.chinese.specials import SpecialKind
from ofc_desk.core.hands import HandClass
from ofc_desk.core.jackpot import JackpotAward
from ofc_desk.core.ofc.presets import load_preset
from ofc_desk.core.presets import Game, PresetError, preset_names
from ofc_desk.core.rows import Row
from ofc_desk.core.settlement import ProposedSettlement, SettleFrom, SettlementPolicy

SHIPPED = ["chinese-basic", "chinese-typical", "hawaiian-gardens", "malayan", "singapore", "vietnamese"]
SHIPPED_PAYMENTS = ["pool", "pusoy-single-winner"]
"""The presets of docs/rules.md §11's other payments (tests/core/test_payments.py)."""
FH, QUADS, SF = HandClass.FULL_HOUSE, HandClass.QUADS, HandClass.STRAIGHT_FLUSH


def test_each_game_lists_only_its_own_presets() -> None:
    """The shipped ones at least: a room's own file may stand among them (an exact list would make
    every new preset break this test)."""
    assert set(SHIPPED + SHIPPED_PAYMENTS) <= set(preset_names(Game.CHINESE))
    assert preset_names(Game.CHINESE) == sorted(preset_names(Game.CHINESE))
    for name in preset_names(Game.CHINESE):
        assert load_chinese_preset(name).name == name
    assert preset_names() == preset_names(Game.OFC)
    for name in preset_names():
        assert load_preset(name).name == name
    assert not set(preset_names()) & set(SHIPPED + SHIPPED_PAYMENTS)
    assert {"standard", "classic", "two-point"} <= set(preset_names())


def test_a_preset_of_the_other_game_is_refused_by_name() -> None:
    with pytest.raises(PresetError, match="'malayan' is a preset for Chinese poker, not for OFC"):
        load_preset("malayan")
    with pytest.raises(PresetError, match="'standard' is a preset for OFC, not for Chinese poker"):
        load_chinese_preset("standard")
    with pytest.raises(PresetError, match=r"unknown preset 'macau'.*standard.*malayan"):
        load_chinese_preset("macau")


def bonuses(
    front_trips: int, middle: tuple[int, int, int], back: tuple[int, int]
) -> dict[Row, dict[HandClass, int]]:
    return {
        Row.FRONT: {HandClass.TRIPS: front_trips},
        Row.MIDDLE: dict(zip((FH, QUADS, SF), middle, strict=True)),
        Row.BACK: dict(zip((QUADS, SF), back, strict=True)),
    }


Bonuses = dict[Row, dict[HandClass, int]]
Row10 = tuple[Scheme, BonusMode, Bonuses, SpecialVsSpecial, list[tuple[str, int]], int]
NO_BONUS: Bonuses = {Row.FRONT: {}, Row.MIDDLE: {}, Row.BACK: {}}
# name -> scheme, bonus mode, bonuses, special_vs_special, specials (kind, units) lowest first, surrender
TABLE: dict[str, Row10] = {
    "chinese-basic": (Scheme.ROWS, BonusMode.INSTEAD, NO_BONUS, SpecialVsSpecial.DIFFERENCE, [], 1),
    "chinese-typical": (
        Scheme.ROWS,
        BonusMode.INSTEAD,
        bonuses(3, (2, 4, 5), (4, 5)),
        SpecialVsSpecial.HIGHER,
        [("six-pairs", 3), ("three-straights", 3), ("three-flushes", 3), ("dragon", 13)],
        1,
    ),
    "hawaiian-gardens": (
        Scheme.MAJORITY,
        BonusMode.EXTRA,
        bonuses(3, (2, 8, 10), (4, 5)),
        SpecialVsSpecial.DIFFERENCE,
        [
            ("three-straights", 4), ("three-flushes", 4), ("twelve-one-colour", 4), ("six-pairs", 4),
            ("all-one-colour", 6), ("dragon", 13), ("one-suit", 39),
        ],
        3,
    ),
    "malayan": (
        Scheme.ROWS,
        BonusMode.ALWAYS,
        bonuses(2, (2, 6, 8), (4, 6)),
        SpecialVsSpecial.DIFFERENCE,
        [
            ("three-flushes", 3), ("three-straights", 4), ("six-pairs", 4), ("five-pairs-and-trips", 5),
            ("four-trips", 6), ("all-one-colour", 10), ("small", 10), ("big", 10), ("three-quads", 16),
            ("three-straight-flushes", 18), ("twelve-pictures", 18), ("one-suit", 26),
        ],
        1,
    ),
    "vietnamese": (
        Scheme.ROWS,
        BonusMode.INSTEAD,
        bonuses(3, (2, 8, 10), (4, 5)),
        SpecialVsSpecial.HIGHER,
        [
            ("three-straights", 3), ("three-flushes", 3), ("six-pairs", 3), ("five-pairs-and-trips", 6),
            ("dragon", 13), ("one-suit", 26),
        ],
        1,
    ),
    "singapore": (
        Scheme.ROWS,
        BonusMode.INSTEAD,
        bonuses(3, (2, 8, 14), (4, 7)),
        SpecialVsSpecial.HIGHER,
        [("six-pairs", 3), ("three-straights", 3), ("three-flushes", 3), ("small", 3), ("dragon", 13)],
        1,
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", SHIPPED)
def test_the_shipped_presets_carry_the_numbers_of_the_rules(name: str) -> None:
    preset = load_chinese_preset(name)
    scheme, mode, row_bonuses, versus, specials, surrender = TABLE[name]
    assert (preset.name, preset.scheme, preset.bonus_mode, preset.special_vs_special) == (
        name,
        scheme,
        mode,
        versus,
    )
    assert {row: dict(table) for row, table in preset.bonuses.items()} == row_bonuses
    assert [(special.kind.value, special.units) for special in preset.specials] == specials
    assert preset.surrender == surrender
    assert (preset.sweep, preset.overall_point) == (0, 0)
    assert preset.bank is (name == "malayan")
    assert not preset.aces
    assert chinese_preset_from_dict(preset.to_dict()) == preset


def test_the_presets_other_numbers() -> None:
    assert (
        load_chinese_preset("vietnamese").scoop_multiplier,
        load_chinese_preset("vietnamese").scoop_all_multiplier,
    ) == (2, 3)
    assert (
        load_chinese_preset("singapore").scoop_multiplier,
        load_chinese_preset("singapore").scoop_all_multiplier,
    ) == (1, 2)
    gardens = load_chinese_preset("hawaiian-gardens")
    assert (gardens.majority, gardens.scoop, gardens.scoop_all, gardens.ace_units) == (1, 6, 9, (1, 2, 6, 8))
    malayan = load_chinese_preset("malayan")
    assert [special.limit.value for special in malayan.specials if special.limit] == ["8", "8"]
    singapore = load_chinese_preset("singapore").special(SpecialKind.SMALL)
    assert singapore is not None and singapore.limit is not None and singapore.limit.value == "9"
    # A royal flush counts as a straight flush.
    assert load_chinese_preset("singapore").bonus(Row.MIDDLE, HandClass.ROYAL_FLUSH) == 14


def test_a_card_rooms_own_preset_is_one_more_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for shipped in preset_files.presets_dir().glob("*.json"):
        shutil.copy(shipped, tmp_path)
    house = {"name": "harbour-room", "game": "chinese", "scheme": "rows", "surrender": 2, "sweep": 1}
    (tmp_path / "harbour-room.json").write_text(json.dumps(house))
    monkeypatch.setattr(preset_files, "presets_dir", lambda: tmp_path)
    assert "harbour-room" in preset_names(Game.CHINESE)
    assert "harbour-room" not in preset_names()
    preset = load_chinese_preset("harbour-room")
    assert (preset.surrender, preset.sweep, preset.scoop_multiplier, preset.specials) == (2, 1, 1, ())


SIX_PAIRS = {"kind": "six-pairs", "units": 3}


def test_a_house_ranks_its_specials_whatever_their_units() -> None:
    """§11: a house puts no-pictures where it ranks in its own list, which may be above a special
    worth more units; under `higher` the list's order decides, and the desk suggests by units."""
    ranked = [SIX_PAIRS, {"kind": "no-pictures", "units": 2}, {"kind": "dragon", "units": 13}]
    preset = chinese_preset_from_dict(typical_with(specials=ranked))
    no_pictures = preset.special(SpecialKind.NO_PICTURES)
    six_pairs = preset.special(SpecialKind.SIX_PAIRS)
    assert no_pictures is not None and six_pairs is not None
    assert preset.special_rank(no_pictures) > preset.special_rank(six_pairs)
    both = parse_cards("2s 2h 3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 9d")  # six pairs, and no pictures
    assert preset.specials_made(both) == [six_pairs, no_pictures]


def typical_with(**changes: Any) -> dict[str, Any]:
    return {**load_chinese_preset("chinese-typical").to_dict(), **changes}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (typical_with(surender=2), "preset.surender is not a preset field"),
        (typical_with(scheme="best-of-three"), "preset.scheme must be one of rows, majority"),
        (typical_with(scheme="majority"), "bonus_mode must be extra or always under the majority scheme"),
        (typical_with(overall_point=2), "preset.overall_point must be a whole number from 0 to 1"),
        (typical_with(scoop_multiplier=0), "preset.scoop_multiplier"),
        (typical_with(bonuses={"front": {"pair": 1}}), "preset.bonuses.front.pair is not a bonus hand"),
        (typical_with(bonuses={"back": {"full_house": 1}}), "preset.bonuses.back.full_house"),
        (typical_with(specials=[{"kind": "dragon", "units": 1}, {"kind": "dragon", "units": 2}]), "twice"),
        (typical_with(specials=[{"kind": "seven-pairs", "units": 1}]), "'seven-pairs' is not a special hand"),
        (typical_with(specials=[{"kind": "small", "units": 1}]), r"preset.specials\[0\].highest is missing"),
        (typical_with(specials=[{"kind": "big", "units": 1, "lowest": "A"}]), "below an ace"),
        (
            typical_with(specials=[{"kind": "dragon", "units": 1, "highest": "8"}]),
            r"specials\[0\].highest is not a preset field",
        ),
        (typical_with(ace_units=[1, 2, 6]), "preset.ace_units must be four whole numbers"),
        (typical_with(game="ofc"), "preset.game must be chinese"),
        (typical_with(rake={"mode": "sometimes"}), "preset.rake.mode must be one of"),
    ],
)
def test_malformed_chinese_preset_data_is_refused_by_field(data: dict[str, Any], message: str) -> None:
    with pytest.raises(PresetError, match=message):
        chinese_preset_from_dict(data)


def test_a_preset_may_propose_its_table_stakes_and_only_real_ones() -> None:
    hawaiian = load_chinese_preset("hawaiian-gardens")
    assert hawaiian.proposed_settlement == ProposedSettlement(
        SettlementPolicy.CHIP_EXPOSURE, SettleFrom.DEALER
    )
    assert load_chinese_preset("chinese-typical").proposed_settlement is None
    data = json.loads((preset_files.presets_dir() / "hawaiian-gardens.json").read_text(encoding="utf-8"))
    for proposal, message in (
        (
            {"policy": "winner-takes-all", "settle_from": "dealer"},
            "proposed_settlement.policy must be one of",
        ),
        (
            {"policy": "win-cap", "settle_from": "dealer", "unit": 2},
            "proposed_settlement.unit is not a preset",
        ),
    ):
        with pytest.raises(PresetError, match=message):
            chinese_preset_from_dict({**data, "proposed_settlement": proposal})


def test_hawaiian_gardens_jackpot_is_hawaiian_gardens_with_its_own_award() -> None:
    """Issue 36: a shipped preset with an award, as docs/rules.md §11.3 quotes the room: a straight
    flush, three of a kind and a pair losing all three rows; half the pool to the loser, a quarter
    each to the winner and the table."""
    with_award = load_chinese_preset("hawaiian-gardens-jackpot")
    assert with_award.jackpot_award == JackpotAward((HandClass.PAIR, HandClass.TRIPS, SF), 50, 25, 25)
    plain = load_chinese_preset("hawaiian-gardens")
    assert (
        dataclasses.replace(with_award, name=plain.name, description=plain.description, jackpot_award=None)
        == plain
    )
