"""Special hands of closed Chinese poker ("naturals", docs/rules.md §10): which kinds 13 cards make.

Kinds that depend on how the cards could be set (three straights, three flushes, three straight
flushes) are decided by a search over the ways to split the 13 cards into 5 + 5 + 3; the others
by counting ranks, suits and colours.

>>> from ofc_desk.core.cards import parse_cards
>>> dragon = parse_cards("2s 3h 4d 5c 6s 7h 8d 9c Ts Jh Qd Kc Ac")
>>> makes(SpecialKind.DRAGON, dragon), makes(SpecialKind.THREE_STRAIGHTS, dragon)
(True, True)
>>> makes(SpecialKind.SIX_PAIRS, dragon)
False
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Final

from ofc_desk.core.cards import Card, Rank, Suit
from ofc_desk.i18n import LazyText, lazy_pgettext

HAND_CARDS: Final = 13
_SPLIT: Final = (5, 5, 3)
"""Two five-card rows and a three-card row, largest first: the search fills the rows in this order."""
_ACE: Final = Rank.ACE.order
_RED: Final = frozenset({Suit.HEART, Suit.DIAMOND})
_PICTURES: Final = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING})


class SpecialKind(StrEnum):
    SIX_PAIRS = "six-pairs"
    FIVE_PAIRS_AND_TRIPS = "five-pairs-and-trips"
    FOUR_TRIPS = "four-trips"
    THREE_QUADS = "three-quads"
    THREE_STRAIGHTS = "three-straights"
    THREE_FLUSHES = "three-flushes"
    THREE_STRAIGHT_FLUSHES = "three-straight-flushes"
    ALL_ONE_COLOUR = "all-one-colour"
    TWELVE_ONE_COLOUR = "twelve-one-colour"
    SMALL = "small"
    BIG = "big"
    TWELVE_PICTURES = "twelve-pictures"
    NO_PICTURES = "no-pictures"
    DRAGON = "dragon"
    ONE_SUIT = "one-suit"

    @property
    def words(self) -> str:
        """As a dealer says it: 'six pairs', 'three straight flushes'."""
        return self.value.replace("-", " ")

    @property
    def label(self) -> LazyText:
        """`words` in the reader's language."""
        return _SPECIAL_LABELS[self]


_SPECIAL_LABELS: Final[dict[SpecialKind, LazyText]] = {
    SpecialKind.SIX_PAIRS: lazy_pgettext("special hand", "six pairs"),
    SpecialKind.FIVE_PAIRS_AND_TRIPS: lazy_pgettext("special hand", "five pairs and trips"),
    SpecialKind.FOUR_TRIPS: lazy_pgettext("special hand", "four trips"),
    SpecialKind.THREE_QUADS: lazy_pgettext("special hand", "three quads"),
    SpecialKind.THREE_STRAIGHTS: lazy_pgettext("special hand", "three straights"),
    SpecialKind.THREE_FLUSHES: lazy_pgettext("special hand", "three flushes"),
    SpecialKind.THREE_STRAIGHT_FLUSHES: lazy_pgettext("special hand", "three straight flushes"),
    SpecialKind.ALL_ONE_COLOUR: lazy_pgettext("special hand", "all one colour"),
    SpecialKind.TWELVE_ONE_COLOUR: lazy_pgettext("special hand", "twelve one colour"),
    SpecialKind.SMALL: lazy_pgettext("special hand", "small"),
    SpecialKind.BIG: lazy_pgettext("special hand", "big"),
    SpecialKind.TWELVE_PICTURES: lazy_pgettext("special hand", "twelve pictures"),
    SpecialKind.NO_PICTURES: lazy_pgettext("special hand", "no pictures"),
    SpecialKind.DRAGON: lazy_pgettext("special hand", "dragon"),
    SpecialKind.ONE_SUIT: lazy_pgettext("special hand", "one suit"),
}


def _straights(size: int) -> tuple[tuple[int, ...], ...]:
    """Rank orders of every straight of that size; the ace plays low too (A-2-3, A-2-3-4-5)."""
    low_ace = ((_ACE, *range(size - 1)),)
    return low_ace + tuple(tuple(range(low, low + size)) for low in range(_ACE - size + 2))


_STRAIGHTS: Final = {size: _straights(size) for size in set(_SPLIT)}


def rank_counts(cards: Sequence[Card]) -> list[int]:
    """How many cards of each rank, indexed by `Rank.order`."""
    counts = [0] * len(Rank)
    for card in cards:
        counts[card.rank.order] += 1
    return counts


def splits_into_straights(counts: list[int], sizes: Sequence[int]) -> bool:
    """Whether the cards counted (by rank) are exactly straights of these sizes.

    Tries every straight for the first size the cards hold, and the rest recursively: at most
    10 x 10 x 12 straights for 5 + 5 + 3, far under a millisecond.

    >>> from ofc_desk.core.cards import parse_cards
    >>> splits_into_straights(rank_counts(parse_cards("As 2d 3c 4h 5s 9s Td Jc Qh Kh Qd Kc Ac")), _SPLIT)
    True
    """
    if not sizes:
        return not any(counts)
    for straight in _STRAIGHTS[sizes[0]]:
        if all(counts[rank] for rank in straight):
            for rank in straight:
                counts[rank] -= 1
            found = splits_into_straights(counts, sizes[1:])
            for rank in straight:
                counts[rank] += 1
            if found:
                return True
    return False


_ROWS_BY_SUIT_COUNT: Final[dict[int, tuple[int, ...]]] = {
    13: (5, 5, 3),
    10: (5, 5),
    8: (5, 3),
    5: (5,),
    3: (3,),
}
"""How many cards of one suit can fill whole rows of 5, 5 and 3, and the only rows they fill."""


def _suit_rows(cards: Sequence[Card]) -> dict[Suit, tuple[int, ...]] | None:
    """The rows each suit fills when every row is one suit, or None when the suits cannot fill them.

    A suit's count decides its rows alone (13 = 5 + 5 + 3, 10 = 5 + 5, 8 = 5 + 3), so there is
    nothing to search.
    """
    counts = {suit: 0 for suit in Suit}
    for card in cards:
        counts[card.suit] += 1
    rows: dict[Suit, tuple[int, ...]] = {}
    for suit, count in counts.items():
        if count:
            if count not in _ROWS_BY_SUIT_COUNT:
                return None
            rows[suit] = _ROWS_BY_SUIT_COUNT[count]
    filled = sorted(size for sizes in rows.values() for size in sizes)
    return rows if filled == sorted(_SPLIT) else None


def three_flushes(cards: Sequence[Card]) -> bool:
    return _suit_rows(cards) is not None


def three_straight_flushes(cards: Sequence[Card]) -> bool:
    rows = _suit_rows(cards)
    return rows is not None and all(
        splits_into_straights(rank_counts([card for card in cards if card.suit is suit]), sizes)
        for suit, sizes in rows.items()
    )


def three_straights(cards: Sequence[Card]) -> bool:
    return splits_into_straights(rank_counts(cards), _SPLIT)


def _pairs(counts: Sequence[int]) -> int:
    """Pairs among the cards: four of a rank are two pairs, three are one."""
    return sum(count // 2 for count in counts)


def six_pairs(cards: Sequence[Card]) -> bool:
    return _pairs(rank_counts(cards)) >= 6


def five_pairs_and_trips(cards: Sequence[Card]) -> bool:
    counts = rank_counts(cards)
    for rank, count in enumerate(counts):
        if count >= 3:
            rest = [*counts[:rank], count - 3, *counts[rank + 1 :]]
            if _pairs(rest) >= 5:
                return True
    return False


def four_trips(cards: Sequence[Card]) -> bool:
    return sum(count >= 3 for count in rank_counts(cards)) >= 4


def three_quads(cards: Sequence[Card]) -> bool:
    return sum(count == 4 for count in rank_counts(cards)) >= 3


def _reds(cards: Sequence[Card]) -> int:
    return sum(card.suit in _RED for card in cards)


def all_one_colour(cards: Sequence[Card]) -> bool:
    return _reds(cards) in (0, len(cards))


def twelve_one_colour(cards: Sequence[Card]) -> bool:
    return _reds(cards) in (1, len(cards) - 1)


def twelve_pictures(cards: Sequence[Card]) -> bool:
    return sum(card.rank in _PICTURES for card in cards) == 4 * len(_PICTURES)


def no_pictures(cards: Sequence[Card]) -> bool:
    """No jack, queen or king (aces and tens may be held): docs/rules.md §11."""
    return not any(card.rank in _PICTURES for card in cards)


def dragon(cards: Sequence[Card]) -> bool:
    return len({card.rank for card in cards}) == len(Rank)


def one_suit(cards: Sequence[Card]) -> bool:
    return len({card.suit for card in cards}) == 1


def small(cards: Sequence[Card], highest: Rank) -> bool:
    """No card above `highest`; an ace is high, so a small hand never holds one."""
    return all(card.rank.order <= highest.order for card in cards)


def big(cards: Sequence[Card], lowest: Rank) -> bool:
    return all(card.rank.order >= lowest.order for card in cards)


_BY_CARDS: Final[dict[SpecialKind, Callable[[Sequence[Card]], bool]]] = {
    SpecialKind.SIX_PAIRS: six_pairs,
    SpecialKind.FIVE_PAIRS_AND_TRIPS: five_pairs_and_trips,
    SpecialKind.FOUR_TRIPS: four_trips,
    SpecialKind.THREE_QUADS: three_quads,
    SpecialKind.THREE_STRAIGHTS: three_straights,
    SpecialKind.THREE_FLUSHES: three_flushes,
    SpecialKind.THREE_STRAIGHT_FLUSHES: three_straight_flushes,
    SpecialKind.ALL_ONE_COLOUR: all_one_colour,
    SpecialKind.TWELVE_ONE_COLOUR: twelve_one_colour,
    SpecialKind.TWELVE_PICTURES: twelve_pictures,
    SpecialKind.NO_PICTURES: no_pictures,
    SpecialKind.DRAGON: dragon,
    SpecialKind.ONE_SUIT: one_suit,
}


def makes(
    kind: SpecialKind, cards: Sequence[Card], limit: Rank | None = None, *, strict: bool = False
) -> bool:
    """Whether 13 cards make the special. `limit` is the preset's highest rank of a `small` hand
    or lowest of a `big` one (8 when not given); `strict`: only in its exact form (§13)."""
    if len(cards) != HAND_CARDS:
        return False
    if strict and not exact_form(kind, cards):
        return False
    if kind is SpecialKind.SMALL:
        return small(cards, limit or Rank.EIGHT)
    if kind is SpecialKind.BIG:
        return big(cards, limit or Rank.EIGHT)
    return _BY_CARDS[kind](cards)


class LooseBy(StrEnum):
    """What a hand that makes a special only in its loose form holds beyond the exact one."""

    TRIPS = "trips"
    FOUR_OF_A_KIND = "four of a kind"
    ROWS_OF_ONE_SUIT = "two rows of one suit"


_RANK_SHAPES: Final[dict[SpecialKind, list[int]]] = {
    SpecialKind.SIX_PAIRS: [2, 2, 2, 2, 2, 2, 1],
    SpecialKind.FIVE_PAIRS_AND_TRIPS: [3, 2, 2, 2, 2, 2],
    SpecialKind.FOUR_TRIPS: [3, 3, 3, 3, 1],
}
"""The exact forms of docs/rules.md §13 by the 13 cards' rank counts, largest first."""
_SUIT_SHAPE: Final = [5, 5, 3]
_SUIT_KINDS: Final = frozenset({SpecialKind.THREE_FLUSHES, SpecialKind.THREE_STRAIGHT_FLUSHES})


def _shape(counts: Sequence[int]) -> list[int]:
    return sorted((count for count in counts if count), reverse=True)


def _suit_counts(cards: Sequence[Card]) -> list[int]:
    return [sum(card.suit is suit for card in cards) for suit in Suit]


def exact_form(kind: SpecialKind, cards: Sequence[Card]) -> bool:
    """Whether the cards hold the kind's exact shape (§13's strict form); a kind without one
    (dragon, one suit …) always does. The kind itself is decided by `makes`."""
    if kind in _RANK_SHAPES:
        return _shape(rank_counts(cards)) == _RANK_SHAPES[kind]
    if kind in _SUIT_KINDS:
        return _shape(_suit_counts(cards)) == _SUIT_SHAPE
    return True


def loose_by(kind: SpecialKind, cards: Sequence[Card]) -> LooseBy:
    """What keeps cards that make `kind` loosely from its exact form: four of a rank, three of a
    rank (six pairs), or one suit filling two rows (three flushes, three straight flushes)."""
    if kind in _SUIT_KINDS:
        return LooseBy.ROWS_OF_ONE_SUIT
    return LooseBy.FOUR_OF_A_KIND if max(rank_counts(cards)) >= 4 else LooseBy.TRIPS
