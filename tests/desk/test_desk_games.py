"""Each game's part of the desk gives everything the desk asks of it (`DeskGame`), without Qt but for
its own controls in the card entry: the New table's choices and default preset, the entry's form,
the prompt's keys, a word typed instead of cards, the seat's mark for a lost hand and its own marks
read from its part of the snapshot, the scored hand and its settlement view; and the one lookup
finds a table's part from its snapshot and a New table choice's from its variant."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from ofc_desk.core.chinese.deal import CHINESE, score_chinese_deal
from ofc_desk.core.chinese.deal_input import chinese_deal_from_json
from ofc_desk.core.ofc.deal import score_deal
from ofc_desk.core.ofc.deal_input import deal_from_json
from ofc_desk.core.presets import Game, preset_names
from ofc_desk.core.resources import resources_dir
from ofc_desk.core.results import HandResult
from ofc_desk.desk.entry.key_syntax import read_keyed_text
from ofc_desk.desk.entry.panel import EntryPanel
from ofc_desk.desk.games import DESK_GAMES, chosen_game, desk_game, game_at
from ofc_desk.desk.games.base import DeskGame, EntryForm, NoControls
from ofc_desk.desk.games.chinese_controls import ChineseControls
from ofc_desk.desk.games.chinese_showdown import ShowdownEntry
from ofc_desk.desk.games.ofc import FANTASYLAND_COLUMN, PROGRESSIVE
from ofc_desk.desk.hand_end.settlement_panel import SettlementPanel
from ofc_desk.desk.table.seatface import NO_MARKS, SeatMark, SeatMarks
from ofc_desk.service import TableService, TableSetup
from ofc_desk.service.table.commands import StartHand
from ofc_desk.service.table.games.base import LiveHand, PlayedTable, TableGame
from ofc_desk.service.table.games.chinese.game import plays_surrender
from ofc_desk.service.table.games.chinese.view_parts import ChineseSeatView
from ofc_desk.service.table.games.choose import game_for
from ofc_desk.service.table.games.ofc.view_parts import OfcSeatView, OfcTableView
from ofc_desk.service.terms.setup import SeatSetup, TableRules
from ofc_desk.service.terms.snapshot import Phase, RakeView, SettlementPreview
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account

PARTS = [pytest.param(part, id=game.value) for game, part in DESK_GAMES.items()]


EXAMPLES: dict[Game, tuple[str, Callable[[Any], HandResult]]] = {
    Game.OFC: ("score-deal.json", lambda data: score_deal(deal_from_json(data)).view()),
    Game.CHINESE: ("chinese-deal.json", lambda data: score_chinese_deal(chinese_deal_from_json(data)).view()),
}
"""Each game's shipped example deal, and how the core scores it."""


def scored_example(game: Game) -> HandResult:
    name, scored = EXAMPLES[game]
    return scored(json.loads((resources_dir() / "examples" / name).read_text(encoding="utf-8")))


def test_every_game_has_its_part_and_each_variant_one_game() -> None:
    assert set(DESK_GAMES) == set(Game)
    variants = [variant for part in DESK_GAMES.values() for _, variant in part.choices]
    assert len(variants) == len(set(variants))
    for game, part in DESK_GAMES.items():
        assert desk_game(game) is part and part.game is game
        assert all(chosen_game(variant) is part for _, variant in part.choices)
    assert chosen_game(CHINESE) is desk_game(Game.CHINESE)
    assert chosen_game("no such variant") is desk_game(Game.OFC)


@pytest.mark.parametrize("part", PARTS)
def test_a_part_gives_the_new_tables_game_parts(part: DeskGame) -> None:
    assert part.choices and all(str(caption) for caption, _ in part.choices)
    assert part.default_preset in preset_names(part.game)
    for preset in preset_names(part.game):
        part.proposed_settlement(preset)  # a preset's proposal, or None: never a refusal
    assert part.proposed_settlement("(this table's own preset)") is None
    assert all(part.pays_line(preset) for preset in preset_names(part.game))
    assert part.pays_line("(this table's own preset)") == ""


@pytest.mark.parametrize("part", PARTS)
def test_a_part_gives_the_entrys_form_and_words(part: DeskGame) -> None:
    form = part.entry_form(None)
    assert isinstance(form, EntryForm)
    assert set(form.hidden_keys) < set("fmbx?")  # the row buttons' keys: a game hides some
    assert str(form.confirm_caption) and str(form.confirm_name) and str(form.hint) and form.hint_keys
    assert not form.extra_controls and part.prompt_keys(None) == []  # no table: nothing it plays
    assert part.word_typed(read_keyed_text("qh f", []), "Ann", Plays(surrender=True)) == ""
    assert part.foul_word()


class AskedShowdown(ShowdownEntry):
    """A showdown's entry that keeps what the Chinese controls ask of it, and offers six pairs."""

    def __init__(self) -> None:  # no table behind it: nothing is entered
        self.asked: list[str] = []

    def surrender(self) -> None:
        self.asked.append("surrender")

    def declare(self, kind: str) -> None:
        self.asked.append(kind)

    def specials(self) -> tuple[str, list[tuple[str, str]]]:
        return "Bob", [("six-pairs", "six pairs")]


def test_each_games_own_controls_are_its_parts_shown_at_its_tables_only(qtbot: QtBot) -> None:
    """The entry lays out what a game's part builds (`entry_controls`, once) and hides it at
    another game's table; the controls ask the turn's entry the panel passes on to them."""
    panel = EntryPanel()
    qtbot.addWidget(panel)
    panel.show()
    ofc, chinese = desk_game(Game.OFC), desk_game(Game.CHINESE)
    assert isinstance(panel.controls, NoControls)  # before any table: the first game offered's
    assert panel.confirm_button.text() == str(ofc.entry_form(None).confirm_caption)
    panel.set_form(chinese, chinese.entry_form(None)._replace(extra_controls=True))
    controls = panel.controls
    assert isinstance(controls, ChineseControls)
    assert controls.surrender_button.parent() is panel and controls.surrender_button.isVisible()
    showdown = AskedShowdown()
    panel.follow(showdown)
    assert [button.text() for button in controls.declare_bar.buttons] == ["&1 Declare Bob's six pairs"]
    controls.declare_bar.buttons[0].click()
    controls.surrender_button.click()
    assert showdown.asked == ["six-pairs", "surrender"]
    panel.follow(None)  # another turn: nothing offered, nothing asked
    controls.surrender_button.click()
    assert controls.declare_bar.buttons == [] and showdown.asked == ["six-pairs", "surrender"]

    panel.set_form(ofc, ofc.entry_form(None))
    assert isinstance(panel.controls, NoControls)
    assert not controls.surrender_button.isVisible() and not controls.declare_bar.isVisible()
    assert controls.declare_bar.buttons == []
    panel.set_form(chinese, chinese.entry_form(None))
    assert panel.controls is controls and not controls.surrender_button.isVisible()  # built once


@dataclass(frozen=True)
class Between:
    """A table between hands, as a game's own queries read it (`PlayedTable`)."""

    game: TableGame
    live: LiveHand | None = None
    hand_settled: bool = False


@dataclass(frozen=True)
class Plays:
    """A table as `DeskGame.word_typed` asks it: a Chinese table whose preset plays a surrender,
    or one whose preset (a pool) plays none."""

    surrender: bool

    @property
    def machine(self) -> PlayedTable:
        preset = "chinese-basic" if self.surrender else "pool"
        return Between(game_for(TableRules(preset=preset, variant=CHINESE)))


def test_the_games_differ_where_the_desk_asks() -> None:
    ofc, chinese = desk_game(Game.OFC), desk_game(Game.CHINESE)
    assert (ofc.rules_options, chinese.rules_options) == ((PROGRESSIVE,), ())
    assert (ofc.history_columns, chinese.history_columns) == ((FANTASYLAND_COLUMN,), ())
    assert ofc.entry_form(None).hidden_keys == () and set(chinese.entry_form(None).hidden_keys) == {"x", "?"}
    surrender = read_keyed_text("s", [])
    plays, plays_none = Plays(surrender=True), Plays(surrender=False)
    assert (ofc.word_typed(surrender, "Ann", plays), chinese.word_typed(surrender, "Ann", plays)) == (
        "",
        "Enter: Ann surrenders",
    )
    assert chinese.word_typed(surrender, "Ann", plays_none) == ""  # a pool table: no surrender offered
    assert (ofc.foul_word(), chinese.foul_word()) == ("FOUL", "MISSET")
    proposed = chinese.proposed_settlement("hawaiian-gardens")
    assert proposed is not None and ofc.proposed_settlement("standard") is None
    assert ofc.pays_line("standard").startswith("pays pair by pair")
    # The house variants (§13) in the New table list: what each variant preset plays beyond vietnamese.
    assert chinese.pays_line("vietnamese") == "pays pair by pair"
    assert chinese.pays_line("taiwanese") == (
        "pays pair by pair · A-2-3-4-5 second-highest · bonuses by rank · scoops ×2, ×3, ×4 by scoop count"
        " · strict six pairs, five pairs and trips, four trips, three flushes"
    )
    assert chinese.pays_line("shisanshui").endswith("three flushes, three straight flushes")


@pytest.mark.parametrize("part", PARTS)
def test_a_part_draws_its_games_settlement(part: DeskGame, qtbot: QtBot) -> None:
    result = scored_example(part.game)
    html = part.settlement_html(result, None, "#ff0000")
    assert all(seat.name in html for seat in result.seats)
    panel = SettlementPanel()  # the rake line is the panel's, under every game's details
    qtbot.addWidget(panel)
    rake = RakeView(((result.seats[0].name, 2),), 2, 0)
    stacks = tuple((seat.name, seat.stack_after) for seat in result.seats)
    panel.show_result(1, result, None, SettlementPreview(stacks, rake, 0, None))
    assert f"Rake 2 ({result.seats[0].name} 2)" in panel.details.toPlainText()


@pytest.mark.parametrize("game", list(Game))
def test_a_tables_part_is_read_from_its_snapshot(
    game: Game, database: Database, template_accounts: tuple[Path, Account]
) -> None:
    part = desk_game(game)
    seats = tuple(SeatSetup(name, 100) for name in ("Ann", "Bob", "Cy"))
    rules = TableRules(preset=part.default_preset, variant=part.choices[0][1])
    service = TableService.open(database, TableSetup("Parts", seats, "Cy", rules), template_accounts[1])
    service.do(StartHand())
    snapshot = service.snapshot()
    assert game_at(snapshot) is part
    assert snapshot.result is None  # dealt, not scored
    assert part.entry_form(service).extra_controls == plays_surrender(service.machine)


def test_each_games_marks_read_its_own_part_of_the_snapshot(
    database: Database, template_accounts: tuple[Path, Account]
) -> None:
    ofc, chinese = desk_game(Game.OFC), desk_game(Game.CHINESE)
    seats = tuple(SeatSetup(name, 100) for name in ("Ann", "Bob", "Cy"))
    service = TableService.open(
        database, TableSetup("Marks", seats, "Cy", TableRules()), template_accounts[1]
    )
    between = service.snapshot()
    dealing = replace(between, phase=Phase.LIVE)
    going = replace(between.seats[0], part=OfcSeatView(fantasyland_cards=15, fantasyland_next=14))
    next_hand = SeatMark(
        "FL 14", "Fantasyland, 14 cards", "[FL 14]", "goes to Fantasyland next hand, 14 cards"
    )
    this_hand = SeatMark("FL 15", "Fantasyland, 15 cards", "[FL 15]", "in Fantasyland this hand, 15 cards")
    assert ofc.seat_marks(between, going) == SeatMarks(dealt=next_hand)
    assert ofc.seat_marks(dealing, going) == SeatMarks(dealt=this_hand)
    surrendered = replace(between.seats[0], part=ChineseSeatView(showdown="surrendered"))
    assert chinese.seat_marks(between, surrendered) == SeatMarks(shown=SeatMark("SURRENDERED", "surrendered"))
    # Another game's part, or none, says nothing to a game.
    assert ofc.seat_marks(between, surrendered) == chinese.seat_marks(between, going) == NO_MARKS
    assert ofc.seat_marks(between, between.seats[1]) == NO_MARKS  # not going to Fantasyland
    held = replace(between, part=OfcTableView(button_held_for_fantasyland=True))
    assert ofc.button_words(held, "button Cy") == "button Cy (held: Fantasyland)"
    assert ofc.button_words(between, "button Cy") == chinese.button_words(held, "button Cy") == "button Cy"
    in_fantasyland = replace(dealing, seats=(going, *dealing.seats[1:]))
    assert (ofc.sets_due(in_fantasyland), chinese.sets_due(in_fantasyland)) == (("Ann",), ())
