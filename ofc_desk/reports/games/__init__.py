"""Each game's part of the reports (`base.ReportGame`): OFC's (`ofc`) and closed Chinese poker's
(`chinese`), and the one lookup from a session's record or a table's rules to it. Only here do the
reports ask which game was played; a table keeps its game all session (a rules change to the other
game is refused), so its hands are all that game's. A game beyond the shipped two is added by
`register_game`, after the core's (`core.games.register_game`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ofc_desk.core.games import GAME_OF_VARIANT, Undo, add_entries, variant_words
from ofc_desk.core.presets import Game
from ofc_desk.core.registries import OnFirstUse, Registry
from ofc_desk.reports.games.base import ReportGame
from ofc_desk.reports.games.ofc import OfcReport
from ofc_desk.reports.record import SessionRecord
from ofc_desk.reports.spoken import DATA_WORDS


def _chinese_report() -> ReportGame:
    from ofc_desk.reports.games.chinese import ChineseReport

    return ChineseReport()


GAMES: Registry[Game, ReportGame] = Registry(
    {Game.OFC: OfcReport(), Game.CHINESE: OnFirstUse(_chinese_report)}
)
"""Every game's part of the reports (the closed Chinese game's loaded with its first use,
`core.registries`)."""


def register_game(game: Game, part: ReportGame) -> Undo:
    """A game the core has registered (`core.games.register_game`) added to the reports': its part
    (`GAMES`) and its variant words as the reports say stored values (`spoken.DATA_WORDS`). The
    undo returned takes it out again."""
    return add_entries((GAMES, {game: part}), (DATA_WORDS, variant_words(game)))


def report_game(source: SessionRecord | Mapping[str, Any]) -> ReportGame:
    """The part of the game a session's record was played at, or a table's rules (the `ofc-desk
    score` keys) are for: the game its variant word is dealt in (`core.games.GAME_OF_VARIANT`), OFC's
    for a word none names, as a table's rules read it."""
    variant = source.variant if isinstance(source, SessionRecord) else source.get("variant")
    game = GAME_OF_VARIANT.get(variant, Game.OFC) if isinstance(variant, str) else Game.OFC
    return GAMES[game]
