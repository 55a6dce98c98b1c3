"""An OFC hand's stored result read back (`DealResult.to_json()`, unchanged since the first commit)."""

from __future__ import annotations

from ofc_desk.core.presets import Game
from ofc_desk.core.results import (
    HandResult,
    ResultPair,
    ResultReader,
    ResultSeat,
    ResultUnreadable,
    read_pair,
    read_result,
    read_rows,
    read_seat,
)
from ofc_desk.i18n import _


def read_ofc_result(result: ResultReader) -> HandResult:
    return read_result(result, Game.OFC, None, _seat, _pair)


def _seat(player: ResultReader) -> ResultSeat:
    rows = read_rows(player.section("rows"), "royalty")
    return read_seat(player, rows, player.whole("royalties"), player.section("fantasyland").whole("cards"))


def _pair(matchup: ResultReader) -> ResultPair:
    fouled = matchup.optional("foul") or ()
    if not isinstance(fouled, list | tuple) or not all(isinstance(name, str) for name in fouled):
        said = _("{field} must be the fouled players' names or null")
        raise ResultUnreadable(said.format(field=f"{matchup.path}.foul"))
    return read_pair(
        matchup,
        scoop=matchup.whole("scoop"),
        royalties=matchup.whole("royalties"),
        foul_penalty=matchup.whole("foul_penalty"),
        fouled=tuple(fouled),
    )
