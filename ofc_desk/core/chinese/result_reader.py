"""A Chinese poker hand's stored result read back (`ChineseDealResult.to_json()`): with or without
its `payment` (before the pool and single-winner payments, none), and with nulls for a surrender's or
a declaration's rows, for aces the preset does not pay and for a pair not compared row by row."""

from __future__ import annotations

from ofc_desk.core.chinese.payment import Payment
from ofc_desk.core.chinese.schemes import PaymentOutcome
from ofc_desk.core.chinese.specials import SpecialKind
from ofc_desk.core.presets import Game
from ofc_desk.core.results import (
    HandResult,
    ResultPair,
    ResultReader,
    ResultSeat,
    ResultUnreadable,
    Showdown,
    pair_names,
    pair_rows,
    read_jackpot,
    read_rows,
    transfers,
)
from ofc_desk.core.rows import ROWS


def read_chinese_result(result: ResultReader) -> HandResult:
    return HandResult(
        game=Game.CHINESE,
        preset=result.text("rules"),
        seats=tuple(_seat(player) for player in result.items("players")),
        pairs=tuple(_pair(matchup) for matchup in result.items("matchups")),
        transfers=transfers(result),
        payment=None if result.optional("payment") is None else _payment(result.section("payment")),
        jackpot=read_jackpot(result),
    )


def _seat(player: ResultReader) -> ResultSeat:
    rows = None if player.optional("rows") is None else read_rows(player.section("rows"), "bonus")
    return ResultSeat(
        name=player.text("name"),
        stack_before=player.whole("stack_before"),
        stack_after=player.whole("stack_after"),
        points=player.whole("points"),
        foul=player.flag("foul"),
        foul_reason=player.optional_text("foul_reason"),
        rows=rows,
        royalties=sum(row.points for row in rows or ()),
        fantasyland_next=0,
        showdown=_showdown(player),
    )


def _showdown(player: ResultReader) -> Showdown:
    special = player.optional_text("special")
    try:
        kind = None if special is None else SpecialKind(special)
    except ValueError:
        raise ResultUnreadable(f"{player.path}.special: {special!r} is not a special hand") from None
    aces = None if player.optional("aces") is None else player.whole("aces")
    return Showdown(player.flag("surrendered"), kind, aces)


def _pair(matchup: ResultReader) -> ResultPair:
    first, second = pair_names(matchup)
    return ResultPair(
        first=first,
        second=second,
        points=matchup.whole("points"),
        unit=matchup.whole("unit"),
        rows=pair_rows(matchup),
        scoop=None,
        royalties=None,
        foul_penalty=None,
        fouled=(),
        special=matchup.whole("special"),
    )


def _payment(payment: ResultReader) -> PaymentOutcome:
    kind = payment.text("payment")
    if kind == Payment.POOL:
        winners = payment.section("row_winners")
        return PaymentOutcome(Payment.POOL, tuple(winners.optional_text(row.value) for row in ROWS))
    if kind == Payment.SINGLE_WINNER:
        return PaymentOutcome(Payment.SINGLE_WINNER, winner=payment.optional_text("winner"))
    raise ResultUnreadable(f"{payment.path}.payment: {kind!r} has no outcome of its own")
