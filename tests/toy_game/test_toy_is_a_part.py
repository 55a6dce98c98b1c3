"""The toy game, registered, is a part in every registry the architecture test lists but the shipped
presets (a resources folder the tests do not write), and `ofc-desk score` scores a toy deal; each
layer's `register_game` refuses a game registered already, and its undo leaves every registry as
it was."""

from __future__ import annotations

import json

import pytest

from ofc_desk.cli.score import score_document
from ofc_desk.core.games import (
    DEAL_GAMES,
    GAME_OF_VARIANT,
    MOST_SEATS,
    PRESET_LOADERS,
    VARIANT_LABELS,
    most_seats,
    register_game,
)
from ofc_desk.core.presets import Game, new_game
from ofc_desk.core.resources import resources_dir
from ofc_desk.core.stored_results import READERS
from ofc_desk.desk.games import DESK_GAMES
from ofc_desk.reports import games as report_games
from ofc_desk.reports.spoken import DATA_WORDS
from ofc_desk.service.table.actions.hand_corrections import carried_words
from ofc_desk.service.table.actions.words import STORED_RULE_WORDS
from ofc_desk.service.table.games import choose
from ofc_desk.service.table.games.ofc.view_parts import OfcTurn
from ofc_desk.service.terms.payloads import CorrectedCarry
from tests.architecture import test_every_game_is_a_part as every_game
from tests.toy_game.register import TOY_CORE, toy_registered
from tests.toy_game.rescoring import TOY_RESCORING
from tests.toy_game.rules import MOST_PLAYERS, TOY, TOY_WORD, load_toy_preset
from tests.toy_game.table import ShowRow, ToyGame
from tests.toy_game.test_toy_session import ROWS

SHIPPED_PRESETS = next(name for name in every_game.REGISTRIES if "shipped presets" in name)


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize("registry", sorted(set(every_game.REGISTRIES) - {SHIPPED_PRESETS}))
def test_the_toy_is_a_part_in_the_registry(registry: str) -> None:
    assert TOY in set(every_game.REGISTRIES[registry]()), registry


@pytest.mark.usefixtures("toy")
def test_the_registries_stay_whole_with_the_toy() -> None:
    every_game.test_each_result_reader_is_named_by_a_variant_word("toy")
    every_game.test_each_entry_only_one_game_has_is_said_and_refused_in_its_words()


@pytest.mark.usefixtures("toy")
def test_ofc_desk_score_scores_a_toy_deal_whatever_order_the_games_were_registered_in() -> None:
    assert list(DEAL_GAMES)[-1] is TOY  # after OFC's reader, which takes any deal, and asked before it
    players = [{"name": name, "stack": 100, "row": row} for name, row in ROWS.items()]
    (scored,) = score_document({"variant": "toy", "unit": 5, "players": players})
    result = json.loads(scored)
    assert [player["stack_after"] for player in result["players"]] == [110, 95, 95]
    ofc_deal = json.loads((resources_dir() / "examples" / "score-deal.json").read_text(encoding="utf-8"))
    (scored,) = score_document(ofc_deal)
    assert "variant" not in json.loads(scored)  # an OFC result, as OFC's reader scores it


def test_a_new_table_offers_as_many_seats_as_the_toy_seats() -> None:
    shipped = most_seats()
    assert shipped < MOST_PLAYERS  # the shipped games seat fewer than the toy
    with toy_registered():
        assert most_seats() == MOST_PLAYERS
    assert most_seats() == shipped


def registries() -> dict[str, object]:
    """Every registry a game is added to, copied as it is now."""
    return {
        "Game": list(Game),
        "labels": {game: str(game.label) for game in Game},
        **{
            name: dict(registry)
            for name, registry in (
                ("GAME_OF_VARIANT", GAME_OF_VARIANT),
                ("VARIANT_LABELS", VARIANT_LABELS),
                ("PRESET_LOADERS", PRESET_LOADERS),
                ("DEAL_GAMES", DEAL_GAMES),
                ("MOST_SEATS", MOST_SEATS),
                ("READERS", READERS),
                ("service GAMES", choose.GAMES),
                ("STORED_RULE_WORDS", STORED_RULE_WORDS),
                ("RESCORING", choose.RESCORING),
                ("CARRY_CORRECTION_WORDS", choose.CARRY_CORRECTION_WORDS),
                ("TURN_ENTRIES", choose.TURN_ENTRIES),
                ("report GAMES", report_games.GAMES),
                ("DATA_WORDS", DATA_WORDS),
                ("DESK_GAMES", DESK_GAMES),
            )
        },
    }


def test_a_game_is_registered_once_and_its_undo_leaves_every_registry_as_it_was() -> None:
    before = registries()
    with toy_registered():
        assert Game(TOY_WORD) is TOY and str(TOY.label) == "Toy" and STORED_RULE_WORDS[TOY_WORD]
        assert registries() != before
        with pytest.raises(ValueError, match="registered already"):
            register_game(TOY_CORE)
        with pytest.raises(ValueError, match="registered already"):
            choose.register_game(TOY, ToyGame.for_rules)
        with pytest.raises(ValueError, match="already"):
            new_game("TOY", TOY_WORD)
    assert registries() == before
    with pytest.raises(ValueError, match="already"):
        new_game("CHINESE", "chinese")
    # A registry that has the game already refuses it whole: nothing is added to the others.
    PRESET_LOADERS[TOY] = load_toy_preset
    try:
        with pytest.raises(ValueError, match="registered already: toy"):
            register_game(TOY_CORE)
        assert TOY not in set(Game) and TOY_WORD not in GAME_OF_VARIANT
    finally:
        del PRESET_LOADERS[TOY]
    assert registries() == before


def test_a_kind_of_turn_another_game_has_is_refused_and_nothing_added() -> None:
    """`choose.TURN_ENTRIES` holds each game's own kinds of turn: a game naming one another game has
    (OFC's street) is refused, as when the kinds were one mapping, and no service registry takes it."""
    before = registries()
    undo_core = register_game(TOY_CORE)
    try:
        with pytest.raises(ValueError, match="registered already: street"):
            choose.register_game(TOY, ToyGame.for_rules, turn_entries={OfcTurn.STREET: ShowRow})
        assert TOY not in choose.GAMES and TOY not in choose.TURN_ENTRIES
    finally:
        undo_core()
    assert registries() == before


def test_the_toy_is_gone_after_its_test() -> None:
    assert TOY not in set(Game) and list(DEAL_GAMES) == [Game.CHINESE, Game.OFC]


def test_a_games_rescoring_and_correction_words_come_and_go_with_its_service_part() -> None:
    """A game's re-scoring (the toy's) and, for one that carries something between hands (the toy
    carries nothing: made-up words here), its correction words go to `choose.register_game` with
    its table, and the correction's sentence says its words."""
    before = registries()
    carry = CorrectedCarry(owed={"Ann": 1}, recorded={}, follows=False)
    undo_core = register_game(TOY_CORE)
    try:
        undo_service = choose.register_game(
            TOY, ToyGame.for_rules, rescoring=TOY_RESCORING, correction_words=lambda _: "; toy words"
        )
        assert choose.RESCORING[TOY] is TOY_RESCORING
        assert carried_words(carry).endswith("; toy words")
        undo_service()
    finally:
        undo_core()
    assert registries() == before
    assert not carried_words(carry).endswith("; toy words")
