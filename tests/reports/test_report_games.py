"""Each game's part of the reports (`reports.games`) answers everything the reports ask of a game,
in that game's words, and the one lookup finds it from a session's record or a table's rules."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import Game
from ofc_desk.core.results import ResultPair, ResultTransfer
from ofc_desk.i18n import Language, in_language
from ofc_desk.reports.exports import GAME_COLUMNS
from ofc_desk.reports.games import GAMES, report_game
from ofc_desk.reports.games.base import ReportGame
from ofc_desk.reports.games.chinese import ChinesePair, ChineseReport, ChineseSeat
from ofc_desk.reports.games.ofc import OfcReport
from ofc_desk.reports.pdf_common import CONTENT_WIDTH
from ofc_desk.reports.record import MatchupRecord, SessionRecord
from ofc_desk.service.replays.replay_vocabulary import ACTION_KEYS
from ofc_desk.service.table.games.chinese.play import SHOWDOWN_KEYS
from ofc_desk.service.terms.events import EventKind

RULES: dict[Game, dict[str, Any]] = {
    Game.OFC: {"variant": "pineapple", "rules": "standard", "house_options": {"foul_penalty": 6}},
    Game.CHINESE: {"variant": "chinese", "rules": "chinese-typical"},
}
ASKED = sorted(name for name in vars(ReportGame) if not name.startswith("_"))
"""What the reports ask of a game: every member the protocol names."""


def test_every_game_has_a_part_that_answers_everything_the_reports_ask() -> None:
    assert set(GAMES) == set(Game)
    assert "player_headings" in ASKED and "script_entry" in ASKED
    for part in GAMES.values():
        assert [name for name in ASKED if not hasattr(part, name)] == []


@pytest.mark.parametrize("game", list(Game))
def test_a_part_says_its_tables_in_its_own_words(game: Game, sample_record: SessionRecord) -> None:
    part = GAMES[game]
    player = sample_record.players[0]
    assert all(part.player_headings) and len(part.player_headings) == 3
    assert all(isinstance(figure, int) for figure in part.player_figures(player))
    # Nine columns of its own and the last one, "Specials" or "Royalties", with room on the page.
    assert len(part.player_widths) == 9 and sum(part.player_widths) < CONTENT_WIDTH
    assert part.row_points_heading and part.flag and part.why_heading
    seat = sample_record.hands[0].seats[0]
    assert part.in_place_of_rows(seat) == ""  # a player who set three rows shows them
    capped = part.transfer(ResultTransfer("Ann", "Bob", 10, 4, "Ann's stack ran out", None, "scoop"))
    assert capped.capped
    assert part.why(capped, sample_record.hands[0])  # a capped payment always says why
    assert part.transfer_note(capped)
    assert set(part.hand_columns(seat)) <= set(GAME_COLUMNS)  # its own columns, each in the CSV


@pytest.mark.parametrize("game", list(Game))
def test_a_part_reads_its_preset_and_says_its_rules_page(game: Game) -> None:
    part = GAMES[game]
    name, preset = part.resolve_preset(RULES[game])
    assert name == RULES[game]["rules"] and preset is not None
    labels = [line.label for line in part.preset_lines(preset)]
    assert labels and all(labels)
    unreadable = {**RULES[game], "rules": "no-such-preset"}
    assert part.resolve_preset(unreadable) == ("no-such-preset", None)


def test_each_entry_is_one_games_and_a_script_spells_it_as_the_replay_reads_it() -> None:
    ofc, chinese = GAMES[Game.OFC], GAMES[Game.CHINESE]
    assert ofc.entry_kinds == {EventKind.PLACED, EventKind.REVEALED}
    assert chinese.entry_kinds == {EventKind.SHOWN}
    placed = {"player": "Ann", "cards": ["Ah", None], "rows": ["front", "back"]}
    assert set(ofc.script_entry(placed)) == set(ACTION_KEYS)
    assert ofc.script_entry(placed)["cards"] == "Ah ??"
    surrender, declare = SHOWDOWN_KEYS
    assert chinese.script_entry({"player": "Bob", surrender: True}) == {"player": "Bob", surrender: True}
    declared = chinese.script_entry({"player": "Cy", declare: "dragon", "cards": ["Ah", "Kh"]})
    assert declared == {"player": "Cy", declare: "dragon", "cards": "Ah Kh"}


def test_only_chinese_poker_says_a_surrender_in_place_of_the_rows(sample_record: SessionRecord) -> None:
    seat = replace(sample_record.hands[0].seats[0], part=ChineseSeat(surrendered=True))
    with in_language(Language.EN):
        assert ChineseReport().in_place_of_rows(seat) == "surrendered: no hand shown"
        assert ChineseReport().hand_columns(seat) == {"showdown": "surrendered"}
        assert (ChineseReport().flag, OfcReport().flag) == ("MISSET", "FOUL")
    assert OfcReport().in_place_of_rows(seat) == ""


def test_a_chinese_pair_holds_both_passes_and_says_its_special_one() -> None:
    """A Chinese result's pair points are its rest pass: the record's are both passes, the special
    one its part; the hand's "Points by pair" line says that part, OFC's never has one."""
    rest_and_special = ResultPair("Ann", "Cy", 2, 5, (1, 1, 0), 0, 0, 0, (), -3)
    pair = ChineseReport().matchup(rest_and_special)
    assert pair == MatchupRecord(("Ann", "Cy"), -1, 5, ChinesePair(special=-3))
    assert ChineseReport().pair_note(pair) == " (special -3, rest +2)"
    all_special = ChineseReport().matchup(rest_and_special._replace(points=0))
    assert (all_special.points, ChineseReport().pair_note(all_special)) == (-3, " special")
    ofc_pair = OfcReport().matchup(ResultPair("Ann", "Cy", 4, 1, (1, 1, 1), 3, 0, 0, (), None))
    assert ofc_pair == MatchupRecord(("Ann", "Cy"), 4, 1) and OfcReport().pair_note(ofc_pair) == ""
    assert ChineseReport().pair_note(ofc_pair) == ""  # no part: no pass


@pytest.mark.parametrize("variant", [*(v.value for v in Variant), "chinese"])
def test_the_lookup_finds_a_sessions_game_from_its_record_or_its_rules(
    variant: str, sample_record: SessionRecord
) -> None:
    expected = ChineseReport if variant == "chinese" else OfcReport
    assert isinstance(report_game({"variant": variant}), expected)
    assert isinstance(report_game(replace(sample_record, variant=variant)), expected)
    assert isinstance(report_game({}), OfcReport)  # rules from before variants were stored
