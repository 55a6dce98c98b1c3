"""An OFC hand's stored result read back (`DealResult.to_json()`, unchanged since the first commit)."""

from __future__ import annotations

from ofc_desk.core.presets import Game
from ofc_desk.core.results import (
    HandResult,
    ResultPair,
    ResultReader,
    ResultSeat,
    ResultUnreadable,
    pair_names,
    pair_rows,
    read_jackpot,
    read_rows,
    transfers,
)


def read_ofc_result(result: ResultReader) -> HandResult:
    return HandResult(
        game=Game.OFC,
        preset=None,
        seats=tuple(_seat(player) for player in result.items("players")),
        pairs=tuple(_pair(matchup) for matchup in result.items("matchups")),
        transfers=transfers(result),
        payment=None,
        jackpot=read_jackpot(result),
    )


def _seat(player: ResultReader) -> ResultSeat:
    return ResultSeat(
        name=player.text("name"),
        stack_before=player.whole("stack_before"),
        stack_after=player.whole("stack_after"),
        points=player.whole("points"),
        foul=player.flag("foul"),
        foul_reason=player.optional_text("foul_reason"),
        rows=read_rows(player.section("rows"), "royalty"),
        royalties=player.whole("royalties"),
        fantasyland_next=player.section("fantasyland").whole("cards"),
        showdown=None,
    )


def _pair(matchup: ResultReader) -> ResultPair:
    first, second = pair_names(matchup)
    fouled = matchup.optional("foul") or ()
    if not isinstance(fouled, list | tuple) or not all(isinstance(name, str) for name in fouled):
        raise ResultUnreadable(f"{matchup.path}.foul must be the fouled players' names or null")
    return ResultPair(
        first=first,
        second=second,
        points=matchup.whole("points"),
        unit=matchup.whole("unit"),
        rows=pair_rows(matchup),
        scoop=matchup.whole("scoop"),
        royalties=matchup.whole("royalties"),
        foul_penalty=matchup.whole("foul_penalty"),
        fouled=tuple(fouled),
        special=None,
    )
