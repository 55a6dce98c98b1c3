"""The toy game plugged in through the registries only, for one test (a `monkeypatch` undoes it):
the closed `Game` enum is opened here, by its own lookups, so no generic module changes."""

from __future__ import annotations

from typing import Any, cast

import pytest

from ofc_desk.core import games as core_games
from ofc_desk.core import presets, stored_results
from ofc_desk.core.presets import Game
from ofc_desk.desk import games as desk_games
from ofc_desk.i18n import lazy_pgettext
from ofc_desk.reports import games as report_games
from ofc_desk.reports import spoken
from ofc_desk.service.table.actions import words
from ofc_desk.service.table.games import choose
from tests.toy_game.desk import ToyDesk
from tests.toy_game.report import ToyReport
from tests.toy_game.rules import (
    TOY,
    TOY_WORD,
    is_toy_deal,
    load_toy_preset,
    read_toy_result,
    score_toy_deal_json,
)
from tests.toy_game.table import ToyGame


def open_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """`TOY` becomes one of `Game`'s members (by name, by value, in iteration) and has its label."""
    enum = cast(Any, Game)
    monkeypatch.setitem(enum._member_map_, "TOY", TOY)
    monkeypatch.setitem(enum._value2member_map_, TOY_WORD, TOY)
    monkeypatch.setattr(enum, "_member_names_", [*enum._member_names_, "TOY"])
    monkeypatch.setitem(cast(dict[Game, object], presets._GAME_LABELS), TOY, lazy_pgettext("game", "Toy"))


def register_toy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game named once in each registry a table's session reads."""
    open_game(monkeypatch)
    monkeypatch.setitem(cast(dict[str, Game], core_games.GAME_OF_VARIANT), TOY_WORD, TOY)
    label = presets._GAME_LABELS[TOY]
    monkeypatch.setitem(cast(dict[str, object], core_games.VARIANT_LABELS), TOY_WORD, label)
    monkeypatch.setitem(words.STORED_RULE_WORDS, TOY_WORD, label)
    monkeypatch.setitem(cast(dict[str, object], stored_results.READERS), TOY_WORD, read_toy_result)
    monkeypatch.setitem(choose.GAMES, TOY, ToyGame.for_rules)
    monkeypatch.setitem(cast(dict[Game, object], report_games.GAMES), TOY, ToyReport())
    monkeypatch.setitem(desk_games.DESK_GAMES, TOY, ToyDesk())
    monkeypatch.setitem(spoken.DATA_WORDS, TOY_WORD, label)
    monkeypatch.setitem(cast(dict[Game, object], core_games.PRESET_LOADERS), TOY, load_toy_preset)
    deal_games = cast(dict[Game, object], core_games.DEAL_GAMES)
    monkeypatch.setitem(deal_games, TOY, (is_toy_deal, score_toy_deal_json))
    # OFC's reader takes any deal, so it stays asked last: out and in again, after the toy's (the
    # monkeypatch undoes this in reverse, which leaves the order as it was).
    ofc = deal_games[Game.OFC]
    monkeypatch.delitem(deal_games, Game.OFC)
    monkeypatch.setitem(deal_games, Game.OFC, ofc)
