"""The toy game, registered, is a part in every registry the architecture test lists but the shipped
presets (a resources folder the tests do not write), and `ofc-desk score` scores a toy deal."""

from __future__ import annotations

import json

import pytest

from ofc_desk.cli.score import score_document
from ofc_desk.core.games import DEAL_GAMES
from ofc_desk.core.presets import Game
from tests.architecture import test_every_game_is_a_part as every_game
from tests.toy_game.rules import TOY
from tests.toy_game.test_toy_session import ROWS

SHIPPED_PRESETS = next(name for name in every_game.REGISTRIES if "shipped presets" in name)


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize("registry", sorted(set(every_game.REGISTRIES) - {SHIPPED_PRESETS}))
def test_the_toy_is_a_part_in_the_registry(registry: str) -> None:
    assert TOY in set(every_game.REGISTRIES[registry]()), registry


@pytest.mark.usefixtures("toy")
def test_the_registries_stay_whole_with_the_toy() -> None:
    every_game.test_each_result_reader_is_named_by_a_variant_word("toy")
    every_game.test_each_entry_only_one_game_has_is_said()


@pytest.mark.usefixtures("toy")
def test_ofc_desk_score_scores_a_toy_deal_and_still_reads_ofc_last() -> None:
    assert list(DEAL_GAMES)[-1] is Game.OFC
    players = [{"name": name, "stack": 100, "row": row} for name, row in ROWS.items()]
    (scored,) = score_document({"variant": "toy", "unit": 5, "players": players})
    result = json.loads(scored)
    assert [player["stack_after"] for player in result["players"]] == [110, 95, 95]


def test_the_toy_is_gone_after_its_test() -> None:
    assert TOY not in set(Game) and list(DEAL_GAMES) == [Game.CHINESE, Game.OFC]
