"""Hand strength for the rows, on eval7's single scale for 3- and 5-card hands.

eval7 packs a hand as ``category << 24`` followed by the deciding ranks from the highest down, a
missing kicker counting as nothing. That is exactly docs/rules.md §2: a front is compared with a middle
by category, then by the rank of the pair or trips, then by the kickers as far as the front has
them, and a full tie leaves the middle at least as strong.

>>> from ofc_desk.core.cards import parse_cards
>>> strength(parse_cards("Qh Qd Ac")) > strength(parse_cards("Qs Qc Kd 7h 3s"))
True
>>> strength(parse_cards("Kh Qd Jc")) > strength(parse_cards("Ks Qc Jd 9h 3s"))
False
>>> hand_name(parse_cards("7s 7d 7c 3s 3d"))
'sevens full of threes'
"""

import importlib
import importlib.util
import sys
from collections.abc import Callable, Sequence
from enum import IntEnum
from functools import cached_property
from types import ModuleType
from typing import Any, Final, NamedTuple

from ofc_desk.core.cards import FULL_DECK, Card, Rank


def _eval7_part(name: str) -> ModuleType:
    """eval7's compiled `name` module, loaded without running the package's `__init__` when
    nothing has imported eval7 yet: that `__init__` also imports its hand-range parser, and with it
    pyparsing and unittest (about a twentieth of a desk's start), for ranges no rule here reads.
    The bare package is dropped once its parts are in, so a later `import eval7` runs in full
    (reusing them)."""
    if "eval7" in sys.modules:
        return importlib.import_module(f"eval7.{name}")
    spec = importlib.util.find_spec("eval7")
    assert spec is not None, "eval7 is a dependency"
    sys.modules["eval7"] = importlib.util.module_from_spec(spec)
    try:
        return importlib.import_module(f"eval7.{name}")
    finally:
        del sys.modules["eval7"]


# eval7's evaluate answers a Python int (a C unsigned int converted by Cython), typed here so that
# `strength` needs no int() around it: a call per hand, and a hand is evaluated millions of times
# in the exhaustive checks and thousands in a verify.
_evaluate: Final[Callable[[list[Any]], int]] = _eval7_part("evaluate").evaluate
_Eval7Card: Final = _eval7_part("cards").Card
# Indexed by `Card.code`: a list index is far cheaper than hashing a card, and a batch evaluates
# hundreds of thousands of rows.
EVAL7_CARDS: Final = tuple(_Eval7Card(str(card)) for card in sorted(FULL_DECK, key=lambda card: card.code))
_CATEGORY_SHIFT: Final = 24
_FIRST_RANK_SHIFT: Final = 16
_RANK_ORDER: Final = tuple(Rank)
_WHEEL_RANKS: Final = frozenset({Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE})


class HandClass(IntEnum):
    """Hand categories, in eval7's order; ROYAL_FLUSH splits the ace-high straight flush off."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @cached_property
    def key(self) -> str:
        """The name used in preset files: 'full_house', 'royal_flush'."""
        return self.name.lower()


_CATEGORIES: Final = tuple(HandClass)
_STRAIGHTS: Final = frozenset({HandClass.STRAIGHT, HandClass.STRAIGHT_FLUSH})
_WHEEL_AS_ACE_HIGH: Final = sum(
    rank.order << (_FIRST_RANK_SHIFT - 4 * place)
    for place, rank in enumerate((Rank.ACE, Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO))
)
"""The wheel's ranks packed as eval7 packs a high card: ace first."""


def strength(cards: Sequence[Card]) -> int:
    """A number that orders hands: higher is stronger; 3- and 5-card hands share the scale."""
    return _evaluate([EVAL7_CARDS[card.code] for card in cards])


def category_of(value: int) -> HandClass:
    return _CATEGORIES[value >> _CATEGORY_SHIFT]


def deciding_rank(value: int, place: int = 0) -> Rank:
    """The rank eval7 packed at `place` (0 first): the pair, trips or quads first, then the rest.

    For a full house place 0 is the trips and place 1 the pair; for a straight place 0 is its top
    card (a five for the wheel).
    """
    return _RANK_ORDER[(value >> (_FIRST_RANK_SHIFT - 4 * place)) & 0xF]


def hand_class_of(value: int) -> HandClass:
    category = category_of(value)
    if category is HandClass.STRAIGHT_FLUSH and deciding_rank(value) is Rank.ACE:
        return HandClass.ROYAL_FLUSH
    return category


def hand_class(cards: Sequence[Card]) -> HandClass:
    return hand_class_of(strength(cards))


def hand_name_of(value: int, category: HandClass | None = None) -> str:
    """The hand as a dealer says it: 'pair of queens', 'ace-high flush', 'royal flush'.

    `category` may be passed when the caller already has `hand_class_of(value)`.
    """
    category = hand_class_of(value) if category is None else category
    top, second = deciding_rank(value), deciding_rank(value, 1)
    match category:
        case HandClass.HIGH_CARD:
            return f"{top.word}-high"
        case HandClass.PAIR:
            return f"pair of {top.plural}"
        case HandClass.TWO_PAIR:
            return f"two pair, {top.plural} and {second.plural}"
        case HandClass.TRIPS:
            return f"three {top.plural}"
        case HandClass.STRAIGHT:
            return f"{top.word}-high straight"
        case HandClass.FLUSH:
            return f"{top.word}-high flush"
        case HandClass.FULL_HOUSE:
            return f"{top.plural} full of {second.plural}"
        case HandClass.QUADS:
            return f"four {top.plural}"
        case HandClass.STRAIGHT_FLUSH:
            return f"{top.word}-high straight flush"
        case HandClass.ROYAL_FLUSH:
            return "royal flush"
    raise AssertionError(category)  # pragma: no cover - every category is matched above


def hand_name(cards: Sequence[Card]) -> str:
    return hand_name_of(strength(cards))


class HandFacts(NamedTuple):
    category: HandClass
    top: Rank
    """The deciding rank: the pair's or the trips' rank, else the highest card."""
    name: str


_FACTS_BY_VALUE: Final[dict[int, HandFacts]] = {}


def hand_facts(value: int) -> HandFacts:
    """Class, deciding rank and name of a strength value, each worked out once per value.

    There are fewer than 9,000 values of 3- and 5-card hands, and a batch of deals meets them
    over and over.

    >>> from ofc_desk.core.cards import parse_cards
    >>> hand_facts(strength(parse_cards("Qs Qd 2c")))
    HandFacts(category=<HandClass.PAIR: 1>, top=<Rank.QUEEN: 'Q'>, name='pair of queens')
    """
    facts = _FACTS_BY_VALUE.get(value)
    if facts is None:
        category = hand_class_of(value)
        facts = _FACTS_BY_VALUE[value] = HandFacts(
            category, deciding_rank(value), hand_name_of(value, category)
        )
    return facts


# --- 2-7 lowball (the middle of 2-7 pineapple) ----------------------------------------------


def deuce_to_seven_value(cards: Sequence[Card]) -> int:
    """High-hand strength with aces always high and A-2-3-4-5 not a straight.

    In 2-7 lowball the weaker high hand is the better low hand, so a smaller value wins.

    >>> from ofc_desk.core.cards import parse_cards
    >>> deuce_to_seven_value(parse_cards("7s 5d 4c 3h 2s")) < deuce_to_seven_value(
    ...     parse_cards("8s 5d 4c 3h 2s"))
    True
    >>> category_of(deuce_to_seven_value(parse_cards("As 2d 3c 4h 5s"))).name
    'HIGH_CARD'
    """
    return deuce_to_seven_of(strength(cards))


def deuce_to_seven_of(value: int) -> int:
    """`deuce_to_seven_value` of a hand whose high-hand `strength` is `value`: the 2-7 value
    follows from the high one alone, so a caller that has the strength need not evaluate again.

    >>> from ofc_desk.core.cards import parse_cards
    >>> wheel = parse_cards("As 2d 3c 4h 5s")
    >>> deuce_to_seven_of(strength(wheel)) == deuce_to_seven_value(wheel)
    True
    """
    category = category_of(value)
    # eval7 calls the wheel a (five-high) straight; in 2-7 it is ace-high nothing (or a flush).
    if category not in _STRAIGHTS or deciding_rank(value) is not Rank.FIVE:
        return value
    category = HandClass.FLUSH if category is HandClass.STRAIGHT_FLUSH else HandClass.HIGH_CARD
    return (int(category) << _CATEGORY_SHIFT) | _WHEEL_AS_ACE_HIGH


def lowball_category(cards: Sequence[Card]) -> HandClass:
    return category_of(deuce_to_seven_value(cards))


def lowball_high_card(cards: Sequence[Card]) -> Rank:
    return max((card.rank for card in cards), key=lambda rank: rank.order)


def lowball_ranks(cards: Sequence[Card]) -> list[Rank]:
    return sorted((card.rank for card in cards), key=lambda rank: rank.order, reverse=True)


def lowball_name(cards: Sequence[Card]) -> str:
    """'seven-five low', or the high-hand name when the hand is no low (a pair, a straight…)."""
    category = lowball_category(cards)
    if category is HandClass.HIGH_CARD:
        ranks = lowball_ranks(cards)
        return f"{ranks[0].word}-{ranks[1].word} low ({'-'.join(rank.value for rank in ranks)})"
    if category is HandClass.FLUSH and {card.rank for card in cards} == _WHEEL_RANKS:
        # A suited A-5-4-3-2 is no straight flush in 2-7, only an ace-high flush.
        return "ace-high flush"
    return hand_name(cards)
