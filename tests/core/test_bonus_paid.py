"""Which row bonuses a Chinese hand was paid (issue 36, point 5; docs/rules.md §10–§11): under
`extra` and `instead` only on a row won, under `always` on every bonus row, under `pool` and
`single-winner` on none; a seat's bonus total counts the paid rows alone."""

from __future__ import annotations

import pytest

from ofc_desk.core.cards import parse_cards
from ofc_desk.core.chinese.bonus_paid import BonusPaid, mark_paid
from ofc_desk.core.chinese.deal import ChineseDeal, ChineseSeat, score_chinese_deal
from ofc_desk.core.chinese.payment import Payment
from ofc_desk.core.chinese.presets import BonusMode, load_chinese_preset
from ofc_desk.core.chinese.showdown import Entry
from ofc_desk.core.ofc.scoring import SetHand
from ofc_desk.core.results import HandResult

# Ann's bonus rows (eights full in the middle, four nines at the back) lose every row to Bob's
# (tens full, a straight flush).
ANN = ("2c 3d 5c", "8s 8h 8d 4c 4d", "9s 9h 9d 9c Kc")
BOB = ("Ac Ad Jc", "Tc Td Ts 7c 7s", "2h 3h 4h 5h 6h")


def hawaiian_gardens_hand() -> HandResult:
    def seat(name: str, rows: tuple[str, str, str]) -> ChineseSeat:
        front, middle, back = (tuple(parse_cards(row)) for row in rows)
        return ChineseSeat(name, 100, Entry.set_rows(SetHand(front, middle, back)))

    deal = ChineseDeal(load_chinese_preset("hawaiian-gardens"), "Bob", (seat("Ann", ANN), seat("Bob", BOB)))
    return score_chinese_deal(deal).view()


def bonuses(result: HandResult, name: str) -> tuple[tuple[int, bool], ...]:
    return tuple((row.points, row.paid) for row in result.seat(name).rows or ())


def test_under_extra_a_bonus_is_paid_only_on_a_row_won() -> None:
    scored = hawaiian_gardens_hand()
    assert bonuses(scored, "Ann") == ((0, True), (2, True), (4, True))  # as stored: the hand's bonus
    shown = mark_paid(scored, BonusPaid.of(load_chinese_preset("hawaiian-gardens").bonus_mode, Payment.PAIRS))
    assert bonuses(shown, "Ann") == ((0, False), (2, False), (4, False))
    assert bonuses(shown, "Bob") == ((0, True), (2, True), (5, True))
    assert (shown.seat("Ann").royalties, shown.seat("Bob").royalties) == (0, 7)
    assert shown.pairs == scored.pairs and shown.transfers == scored.transfers  # no chip changes


@pytest.mark.parametrize(("paid", "ann", "bob"), [(BonusPaid.ALWAYS, 6, 7), (BonusPaid.NEVER, 0, 0)])
def test_always_pays_every_bonus_row_and_a_whole_deal_none(paid: BonusPaid, ann: int, bob: int) -> None:
    shown = mark_paid(hawaiian_gardens_hand(), paid)
    assert (shown.seat("Ann").royalties, shown.seat("Bob").royalties) == (ann, bob)


def test_the_payment_and_bonus_mode_say_which() -> None:
    assert BonusPaid.of(BonusMode.INSTEAD, Payment.PAIRS) is BonusPaid.WON
    assert BonusPaid.of(BonusMode.ALWAYS, Payment.PAIRS) is BonusPaid.ALWAYS
    assert BonusPaid.of(BonusMode.EXTRA, Payment.SINGLE_WINNER) is BonusPaid.NEVER
