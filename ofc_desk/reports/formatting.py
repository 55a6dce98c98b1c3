"""How chips, cards and times read on every report, so they read the same everywhere: in the
report's language (the active one, ofc_desk.i18n), whose grouping and dates Babel knows."""

from __future__ import annotations

from datetime import datetime

from ofc_desk.core.cards import SUIT_SYMBOLS, UNKNOWN_TOKEN
from ofc_desk.i18n import ngettext
from ofc_desk.i18n.formatting import date_time, number, signed_number
from ofc_desk.service.terms.events import ChipTotal

RED_SUITS = frozenset("hd")


def chips(amount: int) -> str:
    """Whole chips with the language's thousands separators: 1234567 -> '1,234,567' in English."""
    return number(amount)


def signed_chips(amount: int) -> str:
    """A gain or loss: '+1,200', '-35', '0'."""
    return signed_number(amount)


def total_chips(amount: int, total: ChipTotal) -> str:
    """One of the chip totals (`ChipTotal`): with its sign if it may add chips or take them."""
    return signed_chips(amount) if total.said.either_way else chips(amount)


def hand_count(settled: int, voided: int) -> str:
    """Hands settled, voided ones included as they were settled too: '7' or '7 (1 voided)'."""
    if not voided:
        return number(settled)
    words = ngettext("{settled} ({voided} voided)", "{settled} ({voided} voided)", voided)
    return words.format(settled=number(settled), voided=number(voided))


def card_text(card: str) -> str:
    """'Ah' -> 'A♥'; an unknown card ('??' or '') stays as '??'."""
    if len(card) != 2 or card[1].lower() not in SUIT_SYMBOLS:
        return UNKNOWN_TOKEN
    return card[0].upper() + SUIT_SYMBOLS[card[1].lower()]


def card_is_red(card: str) -> bool:
    return len(card) == 2 and card[1].lower() in RED_SUITS


def timestamp(moment: datetime | None) -> str:
    """UTC times as '2026-11-21 14:03 UTC'; an unknown time as an en dash."""
    if moment is None:
        return "–"
    return date_time(moment)
