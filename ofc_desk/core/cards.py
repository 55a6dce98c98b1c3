"""Cards and the one funnel that turns any spelling of a card into a `Card`.

>>> parse_cards("ah")
[Card(rank=<Rank.ACE: 'A'>, suit=<Suit.HEART: 'h'>)]
>>> [str(card) for card in parse_cards("ah 10d Q♥ KS")]
['Ah', 'Td', 'Qh', 'Ks']
>>> parse_entries("Qh ?? 2c")[1] is None
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Final

from ofc_desk.i18n import _

UNKNOWN_TOKEN: Final = "??"
"""A face-down card nobody saw, as typed, stored in sentences and printed (the card is None)."""


class Rank(StrEnum):
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @cached_property
    def order(self) -> int:
        """0 for a deuce up to 12 for an ace."""
        return _RANK_ORDER.index(self)

    @cached_property
    def word(self) -> str:
        return _RANK_WORDS[self.order]

    @cached_property
    def plural(self) -> str:
        return "sixes" if self is Rank.SIX else f"{self.word}s"


class Suit(StrEnum):
    SPADE = "s"
    HEART = "h"
    DIAMOND = "d"
    CLUB = "c"


SUIT_SYMBOLS: Final[dict[str, str]] = {Suit.SPADE: "♠", Suit.HEART: "♥", Suit.DIAMOND: "♦", Suit.CLUB: "♣"}
"""Keyed by the suit (a `str`), so a suit letter read from a stored card finds its symbol too."""

_RANK_ORDER: tuple[Rank, ...] = tuple(Rank)
_SUIT_ORDER: tuple[Suit, ...] = tuple(Suit)
_RANK_WORDS = (
    "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)  # fmt: skip
_SUIT_SPELLINGS = {
    "s": Suit.SPADE, "♠": Suit.SPADE, "♤": Suit.SPADE,
    "h": Suit.HEART, "♥": Suit.HEART, "♡": Suit.HEART,
    "d": Suit.DIAMOND, "♦": Suit.DIAMOND, "♢": Suit.DIAMOND,
    "c": Suit.CLUB, "♣": Suit.CLUB, "♧": Suit.CLUB,
}  # fmt: skip
_RANK_SPELLINGS = {rank.value.lower(): rank for rank in Rank} | {"10": Rank.TEN}
_SEPARATORS = re.compile(r"[\s,]+")


class CardError(ValueError):
    """A token that is not a card; the message names the token and its position."""

    def __init__(self, token: str, position: int | None = None, problem: str = "") -> None:
        self.token = token
        self.position = position
        detail = problem or _("not a card: use a rank 2-9, T/10, J, Q, K, A and a suit s, h, d, c")
        if position is None:
            super().__init__(_("'{token}': {problem}").format(token=token, problem=detail))
        else:
            said = _("'{token}' (card {number}): {problem}")
            super().__init__(said.format(token=token, number=position + 1, problem=detail))


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A playing card: its rank and suit."""

    rank: Rank
    suit: Suit
    # Worked out once: a deal hashes and prints its cards hundreds of times, and going through the
    # enums each time was most of the cost of reading and writing a deal.
    text: str = field(init=False, repr=False, compare=False)
    code: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"{self.rank.value}{self.suit.value}")
        object.__setattr__(self, "code", self.rank.order * len(Suit) + _SUIT_ORDER.index(self.suit))

    def __hash__(self) -> int:
        return self.code

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:
        # Pickled as its number, thawed as the deck's own card: one call, where the slotted
        # dataclass's state (four fields, set one by one in Python) cost a kept table's thaw most of
        # its time, and the thawed cards are the same 52 objects as everywhere else.
        return deck_card, (self.code,)


FULL_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
_DECK_BY_CODE: tuple[Card, ...] = tuple(sorted(FULL_DECK, key=lambda card: card.code))


def deck_card(code: int) -> Card:
    """The deck's card whose `Card.code` is `code`.

    >>> deck_card(parse_card("Ah").code) is parse_card("Ah")
    True
    """
    return _DECK_BY_CODE[code]


DECK_SIZE: Final = len(FULL_DECK)
"""Cards in the one deck both games are dealt from."""
# Every lower-case spelling of every card, mapped to the deck's own objects: parsing is one lookup,
# and the same 52 objects everywhere make the evaluator's dictionary lookups hit on identity.
_CARDS_BY_SPELLING: dict[str, Card] = {
    rank_text + suit_text: card
    for card in FULL_DECK
    for rank_text, rank in _RANK_SPELLINGS.items()
    if rank is card.rank
    for suit_text, suit in _SUIT_SPELLINGS.items()
    if suit is card.suit
}
# The spellings dealers and other systems actually send (`Ah`, `ah`, `AH`, `10d`), as they come: a
# deal of 52 cards is read without cleaning each token first. Anything else is cleaned and looked up
# in the table above.
CARDS_AS_TYPED: dict[str, Card] = _CARDS_BY_SPELLING | {
    spelling: card
    for lower, card in _CARDS_BY_SPELLING.items()
    for spelling in (lower.upper(), lower[:-1].upper() + lower[-1])
}


def parse_card(token: str, position: int | None = None) -> Card:
    """Read one card in any spelling docs/rules.md allows: `ah`, `AH`, `A♥`, `10d`, `Td`.

    >>> str(parse_card("10♦"))
    'Td'
    >>> parse_card("1x")
    Traceback (most recent call last):
    ...
    ofc_desk.core.cards.CardError: '1x': not a card: use a rank 2-9, T/10, J, Q, K, A and a suit s, h, d, c
    """
    card = CARDS_AS_TYPED.get(token) or _CARDS_BY_SPELLING.get(token.strip().lower())
    if card is None:
        raise CardError(token, position)
    return card


def split_tokens(text: str | Iterable[object]) -> list[str]:
    """Split a string of cards on spaces or commas; a list (JSON may hold anything) gives its items
    as text."""
    if isinstance(text, str):
        if "," not in text:
            return text.split()
        return [token for token in _SEPARATORS.split(text.strip()) if token]
    return [str(token).strip() for token in text]


def parse_entries(text: str | Iterable[object]) -> list[Card | None]:
    """Like `parse_cards`, but `??` (in a list also `None`, JSON's null) stands for a face-down
    card nobody saw (`None`).

    >>> parse_entries(["Qh", None, Card(Rank.TWO, Suit.CLUB)])[1:]
    [None, Card(rank=<Rank.TWO: '2'>, suit=<Suit.CLUB: 'c'>)]
    """
    if isinstance(text, list):
        try:  # the usual list (a stored entry's): cards as typed, null for an unknown one
            return [None if token is None else CARDS_AS_TYPED[token] for token in text]
        except (KeyError, TypeError):
            pass  # another spelling, `??`, or not a card: read token by token below
    if not isinstance(text, str):
        text = [UNKNOWN_TOKEN if token is None else token for token in text]
    return [
        None if token == UNKNOWN_TOKEN else parse_card(token, position)
        for position, token in enumerate(split_tokens(text))
    ]


def parse_cards(text: str | Iterable[object]) -> list[Card]:
    """The funnel: any spelling of any number of cards into `Card`s; unknown cards refused."""
    tokens = split_tokens(text)
    try:
        return [CARDS_AS_TYPED[token] for token in tokens]
    except KeyError:
        pass  # an unusual spelling, or not a card: read token by token to name the bad one
    cards: list[Card] = []
    for position, token in enumerate(tokens):
        if token == UNKNOWN_TOKEN:
            raise CardError(token, position, _("an unknown card is not allowed here"))
        cards.append(parse_card(token, position))
    return cards


def find_duplicate(cards: Iterable[Card]) -> Card | None:
    """The first card that appears a second time, if any."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            return card
        seen.add(card)
    return None


def entered_twice(card: Card) -> str:
    """The refusal for a card given twice in one entry."""
    return _("{card} is entered twice").format(card=card)


def format_cards(cards: Iterable[Card | None]) -> str:
    return " ".join(UNKNOWN_TOKEN if card is None else str(card) for card in cards)
