"""Building finished hands for tests: a given row, with the other rows filled so the hand does not foul."""

from __future__ import annotations

from collections.abc import Iterable

from ofc_desk.core.cards import FULL_DECK, Card, Rank, Suit, parse_cards
from ofc_desk.core.hands import strength
from ofc_desk.core.rows import SetHand

_TOPS_HIGH_FIRST = [rank for rank in reversed(Rank) if rank.order >= Rank.SIX.order]


def straight_flushes(used: Iterable[Card]) -> list[tuple[Card, ...]]:
    """Every straight flush (royal first, wheel excluded) that avoids the used cards, strongest first."""
    taken = set(used)
    found = []
    ranks = list(Rank)
    for top in _TOPS_HIGH_FIRST:
        for suit in Suit:
            cards = tuple(Card(rank, suit) for rank in ranks[top.order - 4 : top.order + 1])
            if not taken.intersection(cards):
                found.append(cards)
    return found


def around_front(front: str) -> SetHand:
    """The front as given, with two straight flushes behind it (so any front is clean)."""
    front_cards = tuple(parse_cards(front))
    back = straight_flushes(front_cards)[0]
    middle = straight_flushes((*front_cards, *back))[0]
    return SetHand(front_cards, middle, back)


def around_middle(middle: str) -> SetHand:
    """The middle as given, the weakest free front in front of it, the strongest free back behind it."""
    middle_cards = tuple(parse_cards(middle))
    back = straight_flushes(middle_cards)[0]
    free = [card for card in FULL_DECK if card not in middle_cards and card not in back]
    front = weakest_front(free)
    return SetHand(front, middle_cards, back)


def around_back(back: str) -> SetHand:
    """The back as given, with the weakest possible front and middle from the free cards."""
    back_cards = tuple(parse_cards(back))
    free = [card for card in FULL_DECK if card not in back_cards]
    middle = weakest_five(free)
    front = weakest_front([card for card in free if card not in middle])
    hand = SetHand(front, middle, back_cards)
    assert strength(hand.back) >= strength(hand.middle), "the back given is weaker than any middle"
    return hand


def weakest_front(free: list[Card]) -> tuple[Card, ...]:
    by_rank: dict[Rank, Card] = {}
    for card in free:
        by_rank.setdefault(card.rank, card)
    return tuple(list(by_rank.values())[:3]) if len(by_rank) >= 3 else tuple(free[:3])


def weakest_five(free: list[Card]) -> tuple[Card, ...]:
    """Seven-high or nearest: 2 3 4 5 7 of mixed suits when free, else the weakest high card found."""
    preferred = [Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SEVEN, Rank.EIGHT, Rank.NINE]
    chosen: list[Card] = []
    for rank in preferred:
        options = [card for card in free if card.rank is rank]
        options.sort(key=lambda card: any(card.suit is other.suit for other in chosen))
        if options and len(chosen) < 5:
            chosen.append(options[0])
    return tuple(chosen)
