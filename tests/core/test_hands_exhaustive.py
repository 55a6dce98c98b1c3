"""The core's hand order (eval7 underneath) against the plain reference evaluator, over every hand.

Each check walks all hands once (the two five-card orders share one walk), evaluates each hand once
(every order's core value follows from its strength, as `deuce_to_seven_of` gives the 2-7 one),
looks up the reference keys, and asserts that the two orders agree: the same value never meets two keys,
and sorted by value the keys strictly increase. That proves both orders have the same equivalence
classes in the same order.
"""

from __future__ import annotations

import gc
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, combinations, combinations_with_replacement, pairwise, product

import pytest
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from ofc_desk.core.cards import Card, Rank, Suit, parse_cards
from ofc_desk.core.hands import (
    HandClass,
    category_of,
    deuce_to_seven_of,
    hand_class,
    strength,
)
from ofc_desk.core.ofc.scoring import qualifies_as_low
from tests.core import reference

# Card index = rank * 4 + suit: a rank's four cards lie together, in the order of the suits.
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in Rank for suit in Suit)
CARDS_OF_RANK = tuple(DECK[4 * rank : 4 * rank + 4] for rank in range(13))
FIVE_CARD_HANDS = 2_598_960
THREE_CARD_FRONTS = 22_100


HandGroup = tuple[tuple[int, ...], bool, list[tuple[Card, ...]]]


def hand_groups(size: int) -> Iterator[HandGroup]:
    """Every hand of `size` cards once, in groups that share their ranks and whether all their
    cards share one suit: (the ranks' indices in ascending order, one suit, the group's hands,
    each in the deck's order as `combinations(DECK, size)` gives it). A group's hands are the
    product of each rank's choice of suits, made by itertools without a Python step per hand
    (building every hand in Python was most of the walk's time). When the ranks all differ,
    the product's hands of one suit are those whose suits, read as base-4 digits, are all alike:
    every (4**size - 1) / 3-th hand (for five cards the 0th, 341st, 682nd and 1023rd of 1024)."""
    one_suit_step = (4**size - 1) // 3
    for ranks in combinations_with_replacement(range(13), size):
        counts = Counter(ranks)
        if len(counts) == size:
            hands = list(product(*(CARDS_OF_RANK[rank] for rank in ranks)))
            yield ranks, True, hands[::one_suit_step]
            del hands[::one_suit_step]
            yield ranks, False, hands
        elif max(counts.values()) <= 4:
            choices = [combinations(CARDS_OF_RANK[rank], count) for rank, count in counts.items()]
            yield ranks, False, list(map(tuple, map(chain.from_iterable, product(*choices))))


def assert_same_order(pairs: dict[int, reference.Key], *, what: str) -> None:
    """`pairs` maps each core value to the one reference key seen with it; keys must rise with values."""
    previous: tuple[int, reference.Key] | None = None
    for value in sorted(pairs):
        key = pairs[value]
        if previous is not None:
            assert key > previous[1], f"{what}: {previous[0]} < {value} but {previous[1]} >= {key}"
        previous = (value, key)


@dataclass
class Order:
    """One of the core's orders against the reference's, as a walk over the hands gathers it: each
    core value with the one reference key seen with it and a hand that has it, and the first hand
    whose value had met another key. The order's core value is worked out from the hand's
    high-hand `strength` (`of_strength`), so the walk evaluates each hand once for every order."""

    of_strength: Callable[[int], int]
    reference_key: Callable[[tuple[int, ...], bool], reference.Key]
    pairs: dict[int, reference.Key] = field(default_factory=dict)
    examples: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    conflict: str | None = None

    def meet(self, value: int, key: reference.Key, cards: tuple[Card, ...]) -> None:
        """The order's `value` seen with `key` in `cards`: kept if new, a conflict if it held another key."""
        seen = self.pairs.get(value)
        if seen is None:
            self.pairs[value], self.examples[value] = key, cards
        elif seen != key and self.conflict is None:
            self.conflict = f"{' '.join(map(str, cards))}: core value {value} also holds {seen}, not {key}"

    def agreed(self) -> tuple[dict[int, reference.Key], dict[int, tuple[Card, ...]]]:
        """The pairs and the examples, once no core value is found to have met two keys."""
        assert self.conflict is None, self.conflict
        return self.pairs, self.examples


def collect(size: int, *orders: Order) -> int:
    """Walk every hand of `size` cards once for all `orders`; the number of hands walked.

    Each hand is evaluated once (its `strength`), and its reference keys, every order's, are looked
    up once per group of hands that share ranks and suitedness (`hand_groups`). An order's value
    follows from the strength alone, so every hand of a group with the same strength brings the
    orders the same pair, and so does a hand whose strength and keys are those of the first
    group with that strength; every other strength of a group is met by each order."""
    first: dict[int, tuple[reference.Key, ...]] = {}
    count = 0
    gc.disable()  # millions of tuples and no cycles: the collector's passes cost a fifth of the walk
    try:
        for ranks, one_suit, hands in hand_groups(size):
            keys = tuple(order.reference_key(ranks, one_suit) for order in orders)
            values = list(map(strength, hands))
            count += len(values)
            for value, cards in dict(zip(values, hands, strict=True)).items():
                seen = first.get(value)
                if seen is None:
                    first[value] = keys
                elif seen == keys:
                    continue
                for order, key in zip(orders, keys, strict=True):
                    order.meet(order.of_strength(value), key, cards)
    finally:
        gc.enable()
    return count


def same_strength(value: int) -> int:
    """The high-hand order's value: the strength itself."""
    return value


@pytest.fixture(scope="session")
def five_card_orders() -> tuple[Order, Order, int]:
    """The high-hand and the 2-7 orders of every five-card hand, from one walk, kept for the
    worker's session (a module's fixture goes when its worker turns to another module's test)."""
    high = Order(same_strength, reference.high_key)
    low = Order(deuce_to_seven_of, reference.deuce_to_seven_key)
    return high, low, collect(5, high, low)


@pytest.mark.slow
@pytest.mark.xdist_group("five-card walk")  # one worker walks for both
def test_every_five_card_hand_orders_and_classes_like_the_reference(
    five_card_orders: tuple[Order, Order, int],
) -> None:
    high, _, count = five_card_orders
    pairs, examples = high.agreed()

    assert count == FIVE_CARD_HANDS
    assert len(pairs) == 7462  # the number of distinct five-card poker hands
    assert_same_order(pairs, what="five-card hands")
    for value, key in pairs.items():
        assert category_of(value) == key[0], examples[value]
        expected = HandClass(key[0])
        if key == (reference.STRAIGHT_FLUSH, (reference.ACE,)):
            expected = HandClass.ROYAL_FLUSH
        assert hand_class(examples[value]) is expected, examples[value]


@pytest.mark.slow
def test_every_three_card_front_orders_and_classes_like_the_reference() -> None:
    fronts = Order(same_strength, reference.high_key)
    count = collect(3, fronts)
    pairs, examples = fronts.agreed()

    assert count == THREE_CARD_FRONTS
    assert len(pairs) == 13 + 13 * 12 + 286  # trips, pairs with a kicker, three different ranks
    assert_same_order(pairs, what="fronts")
    assert {hand_class(cards) for cards in examples.values()} == {
        HandClass.HIGH_CARD,
        HandClass.PAIR,
        HandClass.TRIPS,
    }
    for value, key in pairs.items():
        assert hand_class(examples[value]) == HandClass(key[0]), examples[value]


@pytest.mark.slow
def test_every_front_against_every_middle_follows_rules_section_2() -> None:
    """One front and one middle per class stand for all: the comparison depends on the class only."""
    walked = Order(same_strength, reference.high_key)
    collect(3, walked)
    fronts, front_cards = walked.agreed()
    middle_cards = {strength(cards): cards for cards in one_hand_per_rank_pattern()}
    middles = {value: _reference_key(cards) for value, cards in middle_cards.items()}
    assert len(middles) == 7462
    middle_values, middle_keys = list(middles), list(middles.values())
    for front_value, front_key in fronts.items():
        # Each front against every middle as two lists compared at once; a pair apart is named.
        said = [reference.front_beats_middle(front_key, middle_key) for middle_key in middle_keys]
        if said == [front_value > middle_value for middle_value in middle_values]:
            continue
        middle_value, expected = next(
            (value, stronger)
            for value, stronger in zip(middle_values, said, strict=True)
            if (front_value > value) != stronger
        )
        pytest.fail(
            f"front {' '.join(map(str, front_cards[front_value]))} vs middle "
            f"{' '.join(map(str, middle_cards[middle_value]))}: reference says "
            f"{'front stronger' if expected else 'middle at least as strong'}"
        )


def one_hand_per_rank_pattern() -> Iterator[tuple[Card, ...]]:
    """A five-card hand for every multiset of ranks, plus a suited one for every five distinct ranks."""
    ranks = list(Rank)
    for chosen in combinations_with_replacement(ranks, 5):
        if max(chosen.count(rank) for rank in chosen) > 4:
            continue
        if len(set(chosen)) == 5:
            yield tuple(Card(rank, Suit.SPADE) for rank in chosen)
            yield (*(Card(rank, Suit.SPADE) for rank in chosen[:4]), Card(chosen[4], Suit.HEART))
        else:
            seen: dict[Rank, int] = {}
            hand = []
            for rank in chosen:
                hand.append(Card(rank, list(Suit)[seen.get(rank, 0)]))
                seen[rank] = seen.get(rank, 0) + 1
            yield tuple(hand)


def _reference_key(cards: Sequence[Card]) -> reference.Key:
    return reference.high_key([card.rank.order for card in cards], len({card.suit for card in cards}) == 1)


@pytest.mark.slow
@pytest.mark.xdist_group("five-card walk")  # one worker walks for both
def test_every_five_card_hand_orders_as_deuce_to_seven_like_the_reference(
    five_card_orders: tuple[Order, Order, int],
) -> None:
    _, low, count = five_card_orders
    pairs, examples = low.agreed()

    assert count == FIVE_CARD_HANDS
    assert len(pairs) == 7462
    assert_same_order(pairs, what="2-7 lows (smaller is better on both sides)")
    best = min(pairs)
    assert sorted(card.rank.value for card in examples[best]) == ["2", "3", "4", "5", "7"]
    for cards in examples.values():
        ranks = tuple(card.rank.order for card in cards)
        flush = len({card.suit for card in cards}) == 1
        assert qualifies_as_low(cards) == reference.qualifies_as_low(ranks, flush), cards


def test_the_walk_yields_every_hand_once_as_combinations_does() -> None:
    for size in (1, 2, 3):
        expected = [
            (cards, tuple(card.rank.order for card in cards), len({card.suit for card in cards}) == 1)
            for cards in combinations(DECK, size)
        ]
        walked = [(cards, ranks, one_suit) for ranks, one_suit, hands in hand_groups(size) for cards in hands]
        assert len(walked) == len(expected) and set(walked) == set(expected)


def test_a_strength_is_eval7s_answer_a_plain_int() -> None:
    """`strength` hands on eval7's answer as it is, with no int() around it (a call per hand of the
    walks above): it is a Python int, for a front and a five-card row alike."""
    for text in ("Qh Qd Ac", "2c 3d 4h", "As Ks Qs Js Ts", "7s 5d 4c 3h 2s"):
        assert type(strength(parse_cards(text))) is int


def test_qualifies_as_low_examples() -> None:
    def low(text: str) -> bool:
        return qualifies_as_low(parse_cards(text))

    assert low("7s 5d 4c 3h 2s")
    assert low("Ts 9d 8c 7h 5s")
    assert not low("Js 5d 4c 3h 2s"), "jack-high is not ten-high or better"
    assert not low("As 2d 3c 4h 5s"), "the wheel is ace-high in 2-7"
    assert not low("6s 5d 4c 3h 2s"), "a straight counts against the hand"
    assert not low("7s 5s 4s 3s 2s"), "a flush counts against the hand"
    assert not low("7s 7d 4c 3h 2s"), "a pair is no low"


def test_a_random_sample_orders_like_treys() -> None:
    """treys ranks 1 (royal flush) to 7462 (seven-high): lower is stronger, the opposite of the core."""
    rng = random.Random(20261121)
    evaluator = TreysEvaluator()
    sample = [rng.sample(DECK, 5) for _ in range(20_000)]
    rows = sorted(
        (strength(cards), evaluator.evaluate([], [TreysCard.new(str(card)) for card in cards]))
        for cards in sample
    )
    for (value, treys_rank), (next_value, next_treys_rank) in pairwise(rows):
        if value == next_value:
            assert treys_rank == next_treys_rank
        else:
            assert treys_rank > next_treys_rank, (value, next_value)
    assert len({value for value, _ in rows}) > 3000
