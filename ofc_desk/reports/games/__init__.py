"""Each game's part of the reports (`base.ReportGame`): OFC's (`ofc`) and closed Chinese poker's
(`chinese`), and the one lookup from a session's record or a table's rules to it. Only here do the
reports ask which game was played; a table keeps its game all session (a rules change to the other
game is refused), so its hands are all that game's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ofc_desk.core.presets import Game
from ofc_desk.reports.games.base import ReportGame
from ofc_desk.reports.games.chinese import ChineseReport
from ofc_desk.reports.games.ofc import OfcReport
from ofc_desk.reports.record import SessionRecord
from ofc_desk.service.setup import CHINESE_VARIANT

GAMES: Mapping[Game, ReportGame] = {Game.OFC: OfcReport(), Game.CHINESE: ChineseReport()}


def report_game(source: SessionRecord | Mapping[str, Any]) -> ReportGame:
    """The part of the game a session's record was played at, or a table's rules (the `ofc-desk
    score` keys) are for: Chinese poker's variant, or any of OFC's."""
    variant = source.variant if isinstance(source, SessionRecord) else source.get("variant")
    return GAMES[Game.CHINESE if variant == CHINESE_VARIANT else Game.OFC]
