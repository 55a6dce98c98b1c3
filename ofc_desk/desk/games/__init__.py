"""Each game's part of the desk (issue 27: a game is a part, not a branch): the desk asks the part
of the table's game (`base.DeskGame`) what differs, and only this package tells the games apart.

`game_at` is the one place a table's game is read from its snapshot; `desk_game` gives a game's part,
`chosen_game` the part of a game the New table offers by its variant, and `first_game` the part the
entry takes before any table. A game beyond the shipped two is added by `register_game`, after the
core's (`core.games.register_game`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ofc_desk.core.games import Undo, add_entries
from ofc_desk.core.presets import Game
from ofc_desk.core.registries import OnFirstUse, Registry
from ofc_desk.desk.games.base import DeskGame, SetWords
from ofc_desk.desk.games.ofc import OfcDesk

if TYPE_CHECKING:
    from ofc_desk.service.terms.snapshot import TableSnapshot


def _chinese_desk() -> DeskGame:
    from ofc_desk.desk.games.chinese import ChineseDesk

    return ChineseDesk()


DESK_GAMES: Registry[Game, DeskGame] = Registry(
    {Game.OFC: OfcDesk(), Game.CHINESE: OnFirstUse(_chinese_desk)}
)
"""Every game's part, in the order the New table offers them (the closed Chinese game's loaded with
its first use, `core.registries`: a desk at an OFC table never imports it)."""


def register_game(part: DeskGame) -> Undo:
    """The part of a game the core has registered (`core.games.register_game`) in `DESK_GAMES`,
    offered by the New table after the shipped games'. The undo returned takes it out again."""
    return add_entries((DESK_GAMES, {part.game: part}))


def first_game() -> DeskGame:
    """The part of the first game the New table offers: the desk's entry as it is before any table."""
    return next(iter(DESK_GAMES.values()))


def desk_game(game: Game) -> DeskGame:
    return DESK_GAMES[game]


def game_at(snapshot: TableSnapshot) -> DeskGame:
    """The part of the game the table plays: the desk's one reading of it from a snapshot."""
    return desk_game(snapshot.game)


def set_words() -> SetWords:
    """F6's menu caption (`actions.Command.HAND_SET`) and keyboard reference line
    (`entry.keyboard_help`): those of the first game, in the New table's order, that sets a whole
    hand in its own dialog (`DeskGame.set_words`: OFC's). One menu and one reference serve every
    table, and F6 is offered only at a set's turn."""
    return next(part.set_words for part in DESK_GAMES.values() if part.set_words is not None)


def chosen_game(variant: str) -> DeskGame:
    """The part of the game whose New table choice names `variant` (OFC's for one none names)."""
    return next(
        (part for part in DESK_GAMES.values() if any(variant == named for _, named in part.choices)),
        DESK_GAMES[Game.OFC],
    )
