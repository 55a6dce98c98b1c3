"""What a Chinese poker player shows down (docs/rules.md §10): a set hand, a surrender or a declared
special, each read into the facts the pairs are scored from.

Row strength and misset are the OFC core's (§2–§3): the same strength scale, the same foul rule.

>>> from ofc_desk.core.chinese.presets import load_chinese_preset
>>> typical = load_chinese_preset("chinese-typical")
>>> shown = show(SetHand.parse("6s 6h 6d", "4s 4h 4d 9s 9h", "Ks Kh Kd 8s 8h"), typical)
>>> [(row.hand, row.bonus) for row in shown.rows or ()]
[('three sixes', 3), ('fours full of nines', 2), ('kings full of eights', 0)]
>>> shown.misset
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ofc_desk.core.cards import Card, Rank
from ofc_desk.core.chinese.presets import ChinesePreset, SpecialRule
from ofc_desk.core.chinese.specials import SpecialKind
from ofc_desk.core.hands import hand_facts, strength
from ofc_desk.core.results import ResultSeat, SeatPart
from ofc_desk.core.rows import ROWS, SetHand, rows_out_of_order


@dataclass(frozen=True)
class Entry:
    """What the dealer entered for one player at showdown: exactly one of set rows, a surrender or
    a declared special (whose rows, when given, are only shown)."""

    rows: SetHand | None = None
    surrendered: bool = False
    declared: SpecialRule | None = None
    cards: tuple[Card, ...] = ()
    """All 13 cards (none for a surrender)."""

    @classmethod
    def set_rows(cls, rows: SetHand) -> Entry:
        return cls(rows=rows, cards=rows.cards)

    @classmethod
    def surrender(cls) -> Entry:
        return cls(surrendered=True)

    @classmethod
    def declare(cls, special: SpecialRule, cards: Sequence[Card], rows: SetHand | None = None) -> Entry:
        return cls(rows=rows, declared=special, cards=tuple(cards))

    @property
    def compared_row_by_row(self) -> bool:
        return not self.surrendered and self.declared is None


class ShownRow(NamedTuple):
    cards: tuple[Card, ...]
    value: int
    """The OFC core's strength, higher is stronger, front and middle on one scale; under the
    house's `wheel: second`, A-2-3-4-5 placed just below the ace-high straight (§13)."""
    hand: str
    bonus: int
    """The preset's row bonus for this hand in this row; 0 for a misset hand."""
    by_rank: bool = False
    """The bonus is the house's `bonus_by_rank` for this hand's rank (§13)."""


class Shown(NamedTuple):
    entry: Entry
    rows: tuple[ShownRow, ShownRow, ShownRow] | None
    """None for a surrender or a declared special: those are not compared row by row."""
    misset: bool
    misset_reason: str
    aces: int
    """Aces held (0 for a surrender, which holds no cards)."""

    @property
    def special(self) -> SpecialRule | None:
        return self.entry.declared

    @property
    def compared_row_by_row(self) -> bool:
        return self.rows is not None


def show(entry: Entry | SetHand, preset: ChinesePreset) -> Shown:
    """Name the rows, decide the misset (§3's foul) and find the bonus of each row."""
    if isinstance(entry, SetHand):
        entry = Entry.set_rows(entry)
    aces = sum(card.rank is Rank.ACE for card in entry.cards)
    if not entry.compared_row_by_row or entry.rows is None:
        return Shown(entry, None, False, "", aces)
    strengths = tuple(strength(cards) for cards in entry.rows)
    values = tuple(preset.house.ranked(value) for value in strengths)
    reason = rows_out_of_order(values)
    shown_rows = []
    for row, cards, hand_strength, value in zip(ROWS, entry.rows, strengths, values, strict=True):
        category, top, name = hand_facts(hand_strength)
        by_rank = not reason and preset.house.rank_bonus(row, category, top) is not None
        bonus = 0 if reason else preset.bonus(row, category, top)
        shown_rows.append(ShownRow(cards, value, name, bonus, by_rank))
    front, middle, back = shown_rows
    return Shown(entry, (front, middle, back), bool(reason), reason, aces)


@dataclass(frozen=True)
class Showdown(SeatPart):
    """What a Chinese poker player showed besides rows: the Chinese part of a player's line in a
    hand's result (`ResultSeat.showdown`)."""

    surrendered: bool
    special: SpecialKind | None
    """The special hand declared, if any."""
    aces: int | None
    """Aces held, where the preset pays them (None for a surrender, or when it does not)."""


def showdown_of(seat: ResultSeat) -> Showdown | None:
    """A player's showdown beside the rows, at a Chinese table; None at another game's."""
    part = seat.showdown
    return part if isinstance(part, Showdown) else None
