"""An independent, deliberately plain poker evaluator that the core's eval7-based order is checked against.

Ranks are 0 (deuce) to 12 (ace). A key is (category, tie-break ranks): the ranks grouped by how often
they appear, most frequent first, higher rank first within a count; for a straight only its top card,
the wheel A-2-3-4-5 counting as five-high. Keys compare as tuples: a larger key is a stronger hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
ACE, FIVE = 12, 3
WHEEL = (0, 1, 2, 3, 12)

Key = tuple[int, tuple[int, ...]]


def grouped_ranks(ranks: Sequence[int]) -> tuple[list[int], tuple[int, ...]]:
    """The counts, largest first, and the ranks in the same order (count, then rank, descending)."""
    groups = sorted(((count, rank) for rank, count in Counter(ranks).items()), reverse=True)
    return [count for count, _ in groups], tuple(rank for _, rank in groups)


def straight_top(ranks: Sequence[int], *, wheel_is_straight: bool) -> int | None:
    distinct = sorted(set(ranks))
    if len(ranks) != 5 or len(distinct) != 5:
        return None
    if distinct[-1] - distinct[0] == 4:
        return distinct[-1]
    if wheel_is_straight and tuple(distinct) == WHEEL:
        return FIVE
    return None


def high_key(ranks: Sequence[int], flush: bool, *, wheel_is_straight: bool = True) -> Key:
    """The high-hand key of 3 or 5 cards; three cards are never a straight or a flush."""
    counts, order = grouped_ranks(ranks)
    flush = flush and len(ranks) == 5
    top = straight_top(ranks, wheel_is_straight=wheel_is_straight)
    if top is not None and flush:
        return STRAIGHT_FLUSH, (top,)
    if counts[0] == 4:
        return QUADS, order
    if counts[:2] == [3, 2]:
        return FULL_HOUSE, order
    if flush:
        return FLUSH, order
    if top is not None:
        return STRAIGHT, (top,)
    if counts[0] == 3:
        return TRIPS, order
    if counts[:2] == [2, 2]:
        return TWO_PAIR, order
    if counts[0] == 2:
        return PAIR, order
    return HIGH_CARD, order


def deuce_to_seven_key(ranks: Sequence[int], flush: bool) -> Key:
    """2-7 lowball: aces always high, A-2-3-4-5 no straight; a SMALLER key is the better low."""
    return high_key(ranks, flush, wheel_is_straight=False)


def front_beats_middle(front: Key, middle: Key) -> bool:
    """docs/rules.md §2 literally: category, then the front's ranks against the middle's leading ranks."""
    if front[0] != middle[0]:
        return front[0] > middle[0]
    shared = len(front[1])
    return front[1] > middle[1][:shared]


def qualifies_as_low(ranks: Sequence[int], flush: bool) -> bool:
    """A ten-high or better 2-7 low: five different ranks, no straight, no flush, nothing above a ten."""
    return deuce_to_seven_key(ranks, flush)[0] == HIGH_CARD and max(ranks) <= 8
