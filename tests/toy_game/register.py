"""The toy game plugged in through the public registrations only, for one test: one
`register_game` a layer (`core.games`, `service.table.games.choose`, `reports.games`,
`desk.games`), each undone when the test ends; no generic module changes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from ofc_desk.core import games as core_games
from ofc_desk.desk import games as desk_games
from ofc_desk.i18n import lazy_pgettext
from ofc_desk.reports import games as report_games
from ofc_desk.service.table.games import choose
from tests.toy_game.desk import ToyDesk
from tests.toy_game.report import ToyReport
from tests.toy_game.rescoring import TOY_RESCORING
from tests.toy_game.rules import (
    MOST_PLAYERS,
    ROW_TURN,
    TOY,
    TOY_WORD,
    is_toy_deal,
    load_toy_preset,
    read_toy_result,
    score_toy_deal_json,
)
from tests.toy_game.table import ShowRow, ToyGame

TOY_CORE = core_games.CoreGame(
    game=TOY,
    label=lazy_pgettext("game", "Toy"),
    variants={TOY_WORD: lazy_pgettext("game", "Toy")},
    load_preset=load_toy_preset,
    read_result=read_toy_result,
    is_deal=is_toy_deal,
    score_deal=score_toy_deal_json,
    most_players=MOST_PLAYERS,
)


@contextmanager
def toy_registered() -> Iterator[None]:
    """The toy game in every registry while the block runs, each layer's part after the core's."""
    with ExitStack() as registered:
        registered.callback(core_games.register_game(TOY_CORE))
        registered.callback(
            choose.register_game(
                TOY, ToyGame.for_rules, rescoring=TOY_RESCORING, turn_entries={ROW_TURN: ShowRow}
            )
        )
        registered.callback(report_games.register_game(TOY, ToyReport()))
        registered.callback(desk_games.register_game(ToyDesk()))
        yield
