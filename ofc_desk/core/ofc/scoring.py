"""Fouls, royalties and the points between two players (docs/rules.md §3–§5, §7 for 2-7).

>>> from ofc_desk.core.ofc.presets import load_preset
>>> from ofc_desk.core.ofc.variants import Variant
>>> standard = load_preset("standard")
>>> ann = evaluate_hand(SetHand.parse("Qs Qd 2c", "Ah Kh 9h 4h 2h", "7s 7d 7c 3s 3d"),
...                     standard, Variant.REGULAR)
>>> ann.foul, [row.royalty for row in ann.rows.values()], ann.royalties
(False, [7, 8, 6], 21)
"""

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ofc_desk.core.cards import Card, Rank
from ofc_desk.core.hands import (
    HandClass,
    deuce_to_seven_value,
    hand_facts,
    lowball_category,
    lowball_high_card,
    lowball_name,
    lowball_ranks,
    strength,
)
from ofc_desk.core.ofc.presets import RulesPreset, ScoringSystem
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.rows import HIGH_ROW_ORDER, ROW_SIZE, ROWS, Row, SetHand, rows_out_of_order


class RowReport(NamedTuple):
    cards: tuple[Card, ...]
    hand: str
    royalty: int
    value: int
    """Comparable strength: higher is better (for a 2-7 middle the value is negated)."""
    category: HandClass
    """The row's high-hand class (also for a 2-7 middle), which Fantasyland stays look at."""
    top_rank: Rank
    """The deciding rank: the pair's or the trips' rank, else the highest card."""


class HandReport(NamedTuple):
    hand: SetHand
    foul: bool
    foul_reason: str
    rows: Mapping[Row, RowReport]
    royalties: int
    """All rows' royalties together; 0 for a fouled hand."""


def evaluate_row(row: Row, cards: tuple[Card, ...], preset: RulesPreset, variant: Variant) -> RowReport:
    """A full row on its own: its name, its royalty before any foul, and its strength.

    >>> from ofc_desk.core.cards import parse_cards
    >>> from ofc_desk.core.ofc.presets import load_preset
    >>> report = evaluate_row(Row.FRONT, tuple(parse_cards("Qs Qd 2c")), load_preset("standard"),
    ...                       Variant.REGULAR)
    >>> report.hand, report.royalty
    ('pair of queens', 7)
    """
    return _row_report(row, cards, strength(cards), preset, variant, pays=True)


def _row_report(
    row: Row, cards: tuple[Card, ...], value: int, preset: RulesPreset, variant: Variant, *, pays: bool
) -> RowReport:
    category, top, name = hand_facts(value)
    if row is Row.MIDDLE and variant.lowball_middle:
        royalty = _lowball_royalty(cards, preset) if pays else 0
        return RowReport(cards, lowball_name(cards), royalty, -deuce_to_seven_value(cards), category, top)
    royalty = high_hand_royalty(row, category, top, preset) if pays else 0
    return RowReport(cards, name, royalty, value, category, top)


def evaluate_hand(hand: SetHand, preset: RulesPreset, variant: Variant) -> HandReport:
    """Name every row, decide the foul and count the royalties (none for a fouled hand)."""
    values = (strength(hand.front), strength(hand.middle), strength(hand.back))
    reason = foul_reason(values, variant, hand.middle)
    pays = not reason
    rows = {
        row: _row_report(row, cards, value, preset, variant, pays=pays)
        for row, cards, value in zip(ROWS, hand, values, strict=True)
    }
    return HandReport(hand, not pays, reason, rows, sum(row.royalty for row in rows.values()))


def foul_certain(rows: Mapping[Row, Sequence[Card]], variant: Variant) -> bool:
    """For a hand still being set: True once the rows already full make a foul unavoidable.

    >>> from ofc_desk.core.cards import parse_cards
    >>> foul_certain({Row.FRONT: parse_cards("Ks Kd 2c"), Row.BACK: parse_cards("Qs Qd 7c 5h 3s")},
    ...              Variant.REGULAR)
    True
    """
    full = [tuple(rows.get(row, ())) for row in ROWS]
    complete = [len(cards) == ROW_SIZE[row] for row, cards in zip(ROWS, full, strict=True)]
    values = [strength(cards) if done else None for cards, done in zip(full, complete, strict=True)]
    return bool(foul_reason(values, variant, full[1] if complete[1] else None))


# (row that may not be stronger, row that may not be weaker), as places in ROWS, checked in this
# order. Front against back decides nothing more on a finished regular hand, but makes a foul
# certain before the middle is full.
_ROW_ORDER: Mapping[bool, tuple[tuple[int, int], ...]] = {
    False: HIGH_ROW_ORDER,
    True: ((0, 2),),  # 2-7: the middle is a low hand, ranked on its own
}


def foul_reason(values: Sequence[int | None], variant: Variant, middle: Sequence[Card] | None) -> str:
    """Why the rows foul the hand, or "" while they do not.

    `values` are the strengths of front, middle and back, None for a row not yet full.
    """
    reason = rows_out_of_order(values, _ROW_ORDER[variant.lowball_middle])
    if reason:
        return reason
    if variant.lowball_middle and middle is not None and not qualifies_as_low(middle):
        return "the middle is not a ten-high or better low"
    return ""


def qualifies_as_low(middle: Sequence[Card]) -> bool:
    """No pair, no straight, no flush, highest card at most a ten."""
    return (
        lowball_category(middle) is HandClass.HIGH_CARD and lowball_high_card(middle).order <= Rank.TEN.order
    )


def _lowball_royalty(middle: Sequence[Card], preset: RulesPreset) -> int:
    if not qualifies_as_low(middle):
        return 0
    table = preset.royalties.deuce_to_seven_middle
    exact = "-".join(rank.value for rank in lowball_ranks(middle))
    return table.get(exact, table.get(lowball_high_card(middle).value, 0))


def high_hand_royalty(row: Row, category: HandClass, top: Rank, preset: RulesPreset) -> int:
    """The royalty of a row ranked as a high hand (every row but a 2-7 middle), before any foul.

    >>> from ofc_desk.core.ofc.presets import load_preset
    >>> high_hand_royalty(Row.FRONT, HandClass.PAIR, Rank.QUEEN, load_preset("standard"))
    7
    """
    royalties = preset.royalties
    if row is not Row.FRONT:
        return (royalties.middle if row is Row.MIDDLE else royalties.back).get(category.key, 0)
    if category is HandClass.TRIPS:
        return royalties.front_trips.get(top.value, 0)
    if category is HandClass.PAIR:
        return royalties.front_pairs.get(top.value, 0)
    return 0


class MatchupScore(NamedTuple):
    """Points between two players, from the first player's side."""

    rows: tuple[int, int, int]
    scoop: int
    royalties: int
    penalty: int
    fouled: tuple[bool, bool]
    points: int


def score_matchup(
    first: HandReport, second: HandReport, system: ScoringSystem, preset: RulesPreset
) -> MatchupScore:
    fouled = (first.foul, second.foul)
    if first.foul and second.foul:
        return MatchupScore((0, 0, 0), 0, 0, 0, fouled, 0)
    if first.foul or second.foul:
        # The clean player takes every row, the penalty and all of their own royalties.
        sign = -1 if first.foul else 1
        clean = second if first.foul else first
        rows = (sign, sign, sign)
        royalties, penalty = sign * clean.royalties, sign * preset.foul_penalty
        return MatchupScore(rows, 0, royalties, penalty, fouled, royalties + penalty)
    front, middle, back = (_compare(first.rows[row].value, second.rows[row].value) for row in ROWS)
    rows = (front, middle, back)
    won, lost = rows.count(1), rows.count(-1)
    bonus = _bonus(won, lost, system)
    royalties = _royalties(first, rows, preset) - _royalties(second, tuple(-r for r in rows), preset)
    points = (won - lost) * system.row + bonus + royalties
    return MatchupScore(rows, bonus, royalties, 0, fouled, points)


def _compare(first: int, second: int) -> int:
    return (first > second) - (first < second)


def _bonus(won: int, lost: int, system: ScoringSystem) -> int:
    scoop = system.scoop * ((won == len(ROWS)) - (lost == len(ROWS)))
    majority = system.majority * ((won > lost) - (lost > won))
    return scoop + majority


def _royalties(report: HandReport, rows: Sequence[int], preset: RulesPreset) -> int:
    if not preset.winner_only_royalties:
        return report.royalties
    return sum(report.rows[row].royalty for row, result in zip(ROWS, rows, strict=True) if result > 0)
