"""A chip kind is said once (service/terms/events.py) and every report adds it up from there: a kind
without its words or its total, or a total whose sign disagrees with the stored amounts, fails here."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from ofc_desk.i18n import Language, in_language
from ofc_desk.reports.record import ChipKind, ChipTotal, ChipTransaction, SessionRecord
from ofc_desk.reports.record_words import kind_words
from ofc_desk.reports.shift import ShiftWindow, table_shift
from ofc_desk.reports.table_close_pdf import table_close_figures
from ofc_desk.service.terms.events import CHIP_KINDS_SAID, CHIP_TOTALS


def test_every_kind_has_its_words_and_a_total_and_every_total_a_kind() -> None:
    assert set(CHIP_KINDS_SAID) == set(ChipKind) and set(CHIP_TOTALS) == set(ChipTotal)
    assert {kind.said.total for kind in ChipKind} == set(ChipTotal)
    with in_language(Language.RU):
        assert all(kind_words(kind) != str(kind) for kind in ChipKind), "a kind left in English"


def _taken_off(kind: ChipKind) -> bool:
    return kind.said.total.said.sign < 0


@pytest.mark.parametrize("kind", list(ChipKind))
def test_each_kind_adds_to_its_total_and_to_the_chips_expected(
    sample_record: SessionRecord, kind: ChipKind
) -> None:
    # Stored as the player's stack sees it: chips taken off (a cash-out) are negative.
    amount = -7 if _taken_off(kind) else 7
    moment = datetime(2026, 11, 21, 21, 0, tzinfo=UTC)
    moved = ChipTransaction(99, moment, kind, "Ann", amount, 3, "Dana Dealer")
    record = dataclasses.replace(sample_record, chip_transactions=(*sample_record.chip_transactions, moved))
    total = kind.said.total
    assert record.chip_total(total) - sample_record.chip_total(total) == 7
    before, after = table_close_figures(sample_record, None), table_close_figures(record, None)
    assert after.expected - before.expected == amount
    # The shift's chips on the table and its drop see it the same way.
    window = ShiftWindow()
    shift_before, shift_after = table_shift(sample_record, window), table_shift(record, window)
    assert shift_after.chips_on_table - shift_before.chips_on_table == amount
    assert shift_after.drop - shift_before.drop == (7 if total.said.in_drop else 0)
