"""Which of a Chinese hand's row bonuses were paid (docs/rules.md §10–§11), so that what is shown and
counted is what moved chips: under `bonus_mode` `always` every bonus row of a hand is paid, won, tied
or lost; under `instead` and `extra` a bonus row is paid only where its player won that row against
at least one opponent; under the `pool` and `single-winner` payments no bonus is paid.

>>> BonusPaid.of(BonusMode.EXTRA, Payment.PAIRS), BonusPaid.of(BonusMode.ALWAYS, Payment.POOL)
(<BonusPaid.WON: 'won'>, <BonusPaid.NEVER: 'never'>)
"""

from __future__ import annotations

from enum import StrEnum

from ofc_desk.core.chinese.payment import Payment
from ofc_desk.core.chinese.presets import BonusMode
from ofc_desk.core.results import HandResult, ResultSeat

ROW_WON = 1


class BonusPaid(StrEnum):
    ALWAYS = "always"
    WON = "won"
    """Only on a row the player won against someone."""
    NEVER = "never"

    @classmethod
    def of(cls, bonus_mode: BonusMode, payment: Payment) -> BonusPaid:
        if payment is not Payment.PAIRS:
            return cls.NEVER
        return cls.ALWAYS if bonus_mode is BonusMode.ALWAYS else cls.WON


def mark_paid(result: HandResult, paid: BonusPaid) -> HandResult:
    """The result with each row's `paid` said and each seat's bonus total (`royalties`) counting
    the paid rows alone."""
    won = _rows_won(result)
    none_won = (False, False, False)
    seats = tuple(_seat_marked(seat, paid, won.get(seat.name, none_won)) for seat in result.seats)
    return result._replace(seats=seats)


def _rows_won(result: HandResult) -> dict[str, tuple[bool, bool, bool]]:
    """Per player, each row won against at least one opponent (pairs are from the first's side)."""
    won: dict[str, list[bool]] = {}
    for pair in result.pairs:
        if pair.rows is None:
            continue
        for index, outcome in enumerate(pair.rows):
            if outcome:
                winner = pair.first if outcome == ROW_WON else pair.second
                won.setdefault(winner, [False, False, False])[index] = True
    return {name: (rows[0], rows[1], rows[2]) for name, rows in won.items()}


def _seat_marked(seat: ResultSeat, paid: BonusPaid, won: tuple[bool, bool, bool]) -> ResultSeat:
    if seat.rows is None:
        return seat
    front, middle, back = (
        row._replace(paid=paid is BonusPaid.ALWAYS or (paid is BonusPaid.WON and row_won))
        for row, row_won in zip(seat.rows, won, strict=True)
    )
    rows = (front, middle, back)
    return seat._replace(rows=rows, royalties=sum(row.points for row in rows if row.paid))
