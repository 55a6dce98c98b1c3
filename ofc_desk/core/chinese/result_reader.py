"""A Chinese poker hand's stored result read back (`ChineseDealResult.to_json()`): with or without
its `payment` (before the pool and single-winner payments, none), and with nulls for a surrender's or
a declaration's rows, for aces the preset does not pay and for a pair not compared row by row."""

from __future__ import annotations

from ofc_desk.core.chinese.payment import Payment
from ofc_desk.core.chinese.schemes import PaymentOutcome
from ofc_desk.core.chinese.showdown import Showdown
from ofc_desk.core.chinese.specials import SpecialKind
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
from ofc_desk.core.rows import ROWS
from ofc_desk.i18n import _


def read_chinese_result(result: ResultReader) -> HandResult:
    payment = None if result.optional("payment") is None else _payment(result.section("payment"))
    return read_result(result, Game.CHINESE, result.text("rules"), _seat, _pair, payment)


def _seat(player: ResultReader) -> ResultSeat:
    rows = None if player.optional("rows") is None else read_rows(player.section("rows"), "bonus")
    return read_seat(player, rows, sum(row.points for row in rows or ()), showdown=_showdown(player))


def _showdown(player: ResultReader) -> Showdown:
    special = player.optional_choice("special", SpecialKind, _("a special hand"))
    aces = None if player.optional("aces") is None else player.whole("aces")
    return Showdown(player.flag("surrendered"), special, aces)


def _pair(matchup: ResultReader) -> ResultPair:
    return read_pair(matchup, special=matchup.whole("special"))


def _payment(payment: ResultReader) -> PaymentOutcome:
    kind = payment.text("payment")
    if kind == Payment.POOL:
        winners = payment.section("row_winners")
        return PaymentOutcome(Payment.POOL, tuple(winners.optional_text(row.value) for row in ROWS))
    if kind == Payment.SINGLE_WINNER:
        return PaymentOutcome(Payment.SINGLE_WINNER, winner=payment.optional_text("winner"))
    said = _("{field}: {kind} has no outcome of its own")
    raise ResultUnreadable(said.format(field=f"{payment.path}.payment", kind=repr(kind)))
