"""Every game is a part in every registry (issue 27): a game is added in its own packages and named
once in each lookup below, and a game one of them lacks fails here with that registry's name
(docs/architecture.md, "Where a change goes", "A game")."""

from __future__ import annotations

from collections.abc import Callable, Collection

import pytest

from ofc_desk.core.games import DEAL_GAMES, GAME_OF_VARIANT, MOST_SEATS, PRESET_LOADERS, VARIANT_LABELS
from ofc_desk.core.presets import Game, preset_names
from ofc_desk.core.stored_results import READERS
from ofc_desk.desk.games import DESK_GAMES
from ofc_desk.reports.games import GAMES as REPORT_GAMES
from ofc_desk.reports.games import report_game
from ofc_desk.service.table.actions.words import STORED_RULE_WORDS
from ofc_desk.service.table.games.choose import GAMES as SERVICE_GAMES
from ofc_desk.service.table.games.choose import (
    OWN_ENTRY_KEYS,
    OWN_ENTRY_REFUSALS,
    OWN_ENTRY_WORDS,
    RESCORING,
    game_for,
)
from ofc_desk.service.terms.setup import TableRules


def _labelled() -> set[Game]:
    labelled = set()
    for game in Game:
        try:
            str(game.label)
        except KeyError:
            continue
        labelled.add(game)
    return labelled


REGISTRIES: dict[str, Callable[[], Collection[Game]]] = {
    "core: Game.label (core/presets.py, _GAME_LABELS)": _labelled,
    "core: its shipped presets (resources/presets/*.json, preset_names)": lambda: {
        game for game in Game if preset_names(game)
    },
    "core: core/stored_results.py, READERS (by the variant word a stored result names; an OFC result"
    " names none, and is read when no reader is named)": lambda: (
        {GAME_OF_VARIANT[word] for word in READERS} | {Game.OFC}
    ),
    "service: service/table/games/choose.py, GAMES (game_for)": lambda: SERVICE_GAMES.keys(),
    "service: service/table/games/choose.py, RESCORING (verify's re-scoring beside the fold)": lambda: (
        RESCORING.keys()
    ),
    "core: core/games.py, GAME_OF_VARIANT (its variant words)": lambda: set(GAME_OF_VARIANT.values()),
    "core: core/games.py, PRESET_LOADERS (its preset by name)": lambda: PRESET_LOADERS.keys(),
    "core: core/games.py, VARIANT_LABELS (its variant words said)": lambda: {
        GAME_OF_VARIANT[word] for word in VARIANT_LABELS
    },
    "service: service/table/actions/words.py, STORED_RULE_WORDS (its variant words said)": lambda: {
        GAME_OF_VARIANT[word] for word in GAME_OF_VARIANT if word in STORED_RULE_WORDS
    },
    "desk: desk/games/__init__.py, DESK_GAMES": lambda: DESK_GAMES.keys(),
    "reports: reports/games/__init__.py, GAMES (report_game)": lambda: REPORT_GAMES.keys(),
    "core: core/games.py, DEAL_GAMES (ofc-desk score)": lambda: DEAL_GAMES.keys(),
    "core: core/games.py, MOST_SEATS (the seats a new table offers)": lambda: MOST_SEATS.keys(),
}
"""Each registry, and the games it has a part for."""


@pytest.mark.parametrize("registry", REGISTRIES)
def test_every_game_has_its_part_in_the_registry(registry: str) -> None:
    missing = sorted(set(Game) - set(REGISTRIES[registry]()))
    assert not missing, f"{registry} has no part for {[game.value for game in missing]}"


@pytest.mark.parametrize("word", GAME_OF_VARIANT)
def test_each_variant_word_reaches_its_games_part(word: str) -> None:
    """The lookups that go by a table's rules find the part of the game its variant word is dealt in."""
    game = GAME_OF_VARIANT[word]
    rules = TableRules(preset=preset_names(game)[0], variant=word)
    assert game_for(rules).game is game, f"service: games.choose.game_for deals {word!r} in another game"
    assert report_game({"variant": word}) is REPORT_GAMES[game], (
        f"reports: report_game reads {word!r} as another game"
    )
    assert DESK_GAMES[game].game is game, f"desk: DESK_GAMES[{game.value!r}] is another game's part"
    assert word in STORED_RULE_WORDS, f"service: actions.words.STORED_RULE_WORDS does not say {word!r}"


@pytest.mark.parametrize("word", READERS)
def test_each_result_reader_is_named_by_a_variant_word(word: str) -> None:
    assert word in GAME_OF_VARIANT, f"core: stored_results.READERS reads {word!r}, which no game deals"


def test_each_entry_only_one_game_has_is_said_and_refused_in_its_words() -> None:
    """An entry a game alone has (its keys in `OWN_ENTRY_KEYS`) has its audit words in
    `OWN_ENTRY_WORDS` and its refusal where no hand takes it in `OWN_ENTRY_REFUSALS` of the same
    registry, so the service never imports the game to say it."""
    own = set(OWN_ENTRY_KEYS)
    missing = own - set(OWN_ENTRY_WORDS)
    assert not missing, f"service: games.choose.OWN_ENTRY_WORDS says nothing of {sorted(missing)}"
    unrefused = own - set(OWN_ENTRY_REFUSALS)
    assert not unrefused, f"service: games.choose.OWN_ENTRY_REFUSALS refuses nothing of {sorted(unrefused)}"
