"""Special hands of closed Chinese poker (docs/rules.md §10): every kind true and one card off, and
the searching kinds against a search over every way to set the 13 cards."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ofc_desk.core.cards import FULL_DECK, Card, Rank, Suit, parse_cards
from ofc_desk.core.chinese.presets import load_chinese_preset
from ofc_desk.core.chinese.specials import SpecialKind, makes

# kind -> (a hand that makes it, the same hand with one card changed that does not), limit
CASES: dict[SpecialKind, tuple[str, str, Rank | None]] = {
    SpecialKind.SIX_PAIRS: (
        "2s 2h 3s 3h 4s 4h 5s 5h 6s 6h 7s 7h Ks",
        "2s 2h 3s 3h 4s 4h 5s 5h 6s 6h 7s 8h Ks",
        None,
    ),
    SpecialKind.FIVE_PAIRS_AND_TRIPS: (
        "2s 2h 2d 3s 3h 4s 4h 5s 5h 6s 6h 7s 7h",
        "2s 2h 2d 3s 3h 4s 4h 5s 5h 6s 6h 7s 8h",
        None,
    ),
    SpecialKind.FOUR_TRIPS: (
        "2s 2h 2d 3s 3h 3d 4s 4h 4d 5s 5h 5d Ks",
        "2s 2h 2d 3s 3h 3d 4s 4h 4d 5s 5h 6d Ks",
        None,
    ),
    SpecialKind.THREE_QUADS: (
        "2s 2h 2d 2c 3s 3h 3d 3c 4s 4h 4d 4c Ks",
        "2s 2h 2d 2c 3s 3h 3d 3c 4s 4h 4d 5c Ks",
        None,
    ),
    SpecialKind.THREE_STRAIGHTS: (
        "2s 3d 4c 5h 6s 7s 8d 9c Th Jh 3h 4d 5c",
        "2s 3d 4c 5h 6s 7s 8d 9c Th Jh 3h 4d Kc",
        None,
    ),
    SpecialKind.THREE_FLUSHES: (
        "2s 5s 9s 2h 4h 7h Th Kh 3d 6d 8d Jd Qd",
        "2s 5s 9c 2h 4h 7h Th Kh 3d 6d 8d Jd Qd",
        None,
    ),
    SpecialKind.THREE_STRAIGHT_FLUSHES: (
        "As 2s 3s 4h 5h 6h 7h 8h 9d Td Jd Qd Kd",
        "Ac 2s 3s 4h 5h 6h 7h 8h 9d Td Jd Qd Kd",
        None,
    ),
    SpecialKind.ALL_ONE_COLOUR: (
        "2h 3h 4h 5h 6h 7h 8h 2d 3d 4d 5d 6d 7d",
        "2h 3h 4h 5h 6h 7h 8h 2d 3d 4d 5d 6d 7s",
        None,
    ),
    SpecialKind.TWELVE_ONE_COLOUR: (
        "2s 3s 4s 5s 6s 7s 2c 3c 4c 5c 6c 7c Ah",
        "2s 3s 4s 5s 6s 7s 2c 3c 4c 5c 6c 7h Ah",
        None,
    ),
    SpecialKind.SMALL: (
        "2s 3s 4s 5s 6s 7s 8s 2h 3h 4h 5h 6h 7h",
        "2s 3s 4s 5s 6s 7s 8s 2h 3h 4h 5h 6h 9h",
        Rank.EIGHT,
    ),
    SpecialKind.BIG: (
        "8s 9s Ts Js Qs Ks As 8h 9h Th Jh Qh Kh",
        "8s 9s Ts Js Qs Ks As 8h 9h Th Jh Qh 7h",
        Rank.EIGHT,
    ),
    SpecialKind.TWELVE_PICTURES: (
        "Js Jh Jd Jc Qs Qh Qd Qc Ks Kh Kd Kc 2s",
        "Js Jh Jd Jc Qs Qh Qd Qc Ks Kh Kd Ac 2s",
        None,
    ),
    SpecialKind.NO_PICTURES: (
        "As Ah Ts Th 9s 9h 8s 8h 7s 7h 2c 3c 4c",
        "As Ah Ts Th 9s 9h 8s 8h 7s 7h 2c 3c Jc",
        None,
    ),
    SpecialKind.DRAGON: (
        "2s 3h 4d 5c 6s 7h 8d 9c Ts Jh Qd Kc Ac",
        "2s 3h 4d 5c 6s 7h 8d 9c Ts Jh Qd Qc Ac",
        None,
    ),
    SpecialKind.ONE_SUIT: (
        "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As",
        "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah",
        None,
    ),
}


@pytest.mark.parametrize("kind", list(SpecialKind), ids=str)
def test_every_kind_is_made_by_its_hand_and_not_with_one_card_off(kind: SpecialKind) -> None:
    true_hand, one_card_off, limit = CASES[kind]
    made, missed = parse_cards(true_hand), parse_cards(one_card_off)
    assert len(made) == len(set(made)) == 13
    assert len(missed) == len(set(missed)) == 13
    assert sum(a != b for a, b in zip(made, missed, strict=True)) == 1
    assert makes(kind, made, limit)
    assert not makes(kind, missed, limit)


def test_four_of_a_rank_count_as_two_pairs() -> None:
    assert makes(SpecialKind.SIX_PAIRS, parse_cards("2s 2h 2d 2c 3s 3h 4s 4h 5s 5h 6s 6h Ks"))


def test_twelve_one_colour_means_exactly_twelve() -> None:
    assert not makes(SpecialKind.TWELVE_ONE_COLOUR, parse_cards(CASES[SpecialKind.ALL_ONE_COLOUR][0]))


def test_the_small_limit_is_the_presets() -> None:
    nine = parse_cards(CASES[SpecialKind.SMALL][1])
    assert makes(SpecialKind.SMALL, nine, Rank.NINE)
    assert not makes(SpecialKind.SMALL, nine, Rank.EIGHT)
    paid_from_nine, paid_from_eight = (
        load_chinese_preset(name).special(SpecialKind.SMALL) for name in ("singapore", "malayan")
    )
    assert paid_from_nine is not None and paid_from_nine.made_by(nine)
    assert paid_from_eight is not None and not paid_from_eight.made_by(nine)


def test_an_ace_plays_low_and_high_in_straights() -> None:
    # A-2-3-4-5, 9-T-J-Q-K and Q-K-A; then A-2-3-4-5, 6-T and A-2-3.
    assert makes(SpecialKind.THREE_STRAIGHTS, parse_cards("As 2d 3c 4h 5s 9s Td Jc Qh Kh Qd Kc Ac"))
    assert makes(SpecialKind.THREE_STRAIGHTS, parse_cards("Ah 2h 3c 4h 5s 6s 7d 8c 9h Ts Ad 2c 3s"))
    # Two 3-7 straights and K-A-2, which wraps round and is no straight.
    assert not makes(SpecialKind.THREE_STRAIGHTS, parse_cards("3s 3h 4s 4h 5s 5h 6s 6h 7s 7h Kd Ad 2c"))


def test_too_few_cards_make_nothing() -> None:
    twelve = parse_cards(CASES[SpecialKind.DRAGON][0])[:12]
    assert not any(makes(kind, twelve, Rank.EIGHT) for kind in SpecialKind)


def test_the_desk_is_offered_every_listed_special_most_valuable_first() -> None:
    spades = parse_cards("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As")
    made = [special.kind for special in load_chinese_preset("hawaiian-gardens").specials_made(spades)]
    assert made == [
        SpecialKind.ONE_SUIT,
        SpecialKind.DRAGON,
        SpecialKind.ALL_ONE_COLOUR,
        SpecialKind.THREE_FLUSHES,
        SpecialKind.THREE_STRAIGHTS,
    ]
    # Equal units: the later in the preset's list is the more valuable (it wins under `higher`).
    dragon = parse_cards(CASES[SpecialKind.DRAGON][0])
    typical = load_chinese_preset("chinese-typical").specials_made(dragon)
    assert [special.kind for special in typical] == [SpecialKind.DRAGON, SpecialKind.THREE_STRAIGHTS]


# --- the searching kinds against every way to set the cards ---------------------------------------


def _is_straight(cards: Sequence[Card]) -> bool:
    orders = sorted(card.rank.order for card in cards)
    if len(set(orders)) != len(orders):
        return False
    run = list(range(orders[0], orders[0] + len(orders)))
    ace_low = [*range(len(orders) - 1), Rank.ACE.order]
    return orders in (run, ace_low)


def _is_flush(cards: Sequence[Card]) -> bool:
    return len({card.suit for card in cards}) == 1


def _is_straight_flush(cards: Sequence[Card]) -> bool:
    return _is_straight(cards) and _is_flush(cards)


ROW_TESTS: dict[SpecialKind, Callable[[Sequence[Card]], bool]] = {
    SpecialKind.THREE_STRAIGHTS: _is_straight,
    SpecialKind.THREE_FLUSHES: _is_flush,
    SpecialKind.THREE_STRAIGHT_FLUSHES: _is_straight_flush,
}


def settable(kind: SpecialKind, cards: Sequence[Card]) -> bool:
    """Tries all 72,072 ways to put 3 cards in front and 5 in the middle."""
    row_test = ROW_TESTS[kind]

    @cache
    def five(chosen: frozenset[Card]) -> bool:
        return row_test(tuple(chosen))

    for front in combinations(cards, 3):
        if not row_test(front):
            continue
        rest = [card for card in cards if card not in front]
        for middle in combinations(rest, 5):
            if five(frozenset(middle)) and five(frozenset(rest) - frozenset(middle)):
                return True
    return False


ROW_SIZES = (5, 5, 3)


@st.composite
def near_special_hands(draw: st.DrawFn, kind: SpecialKind) -> list[Card]:
    """Two five-card rows and a three-card row of the kind, perhaps with one card swapped for
    another: the search meets hands that make the special and hands that just miss it."""
    cards: list[Card] = []
    for size in ROW_SIZES:
        suit = draw(st.sampled_from(list(Suit)))
        if kind is SpecialKind.THREE_FLUSHES:
            ranks = draw(st.lists(st.sampled_from(list(Rank)), min_size=size, max_size=size, unique=True))
        else:
            low = draw(st.integers(-1, len(Rank) - size))  # -1: the ace plays low
            ranks = [list(Rank)[order] for order in range(low, low + size)]
        for rank in ranks:
            if kind is SpecialKind.THREE_STRAIGHTS:
                suit = draw(st.sampled_from(list(Suit)))
            cards.append(Card(rank, suit))
    assume(len(set(cards)) == len(cards))
    if draw(st.booleans()):
        spare = draw(st.sampled_from([card for card in FULL_DECK if card not in cards]))
        cards[draw(st.integers(0, len(cards) - 1))] = spare
    return cards


@settings(max_examples=40, deadline=None)
@given(data=st.data(), kind=st.sampled_from(list(ROW_TESTS)))
def test_the_searching_kinds_agree_with_trying_every_way_to_set_the_cards(
    data: st.DataObject, kind: SpecialKind
) -> None:
    cards = data.draw(near_special_hands(kind))
    assert makes(kind, cards) == settable(kind, cards)


@pytest.mark.parametrize("kind", list(ROW_TESTS), ids=str)
def test_the_searching_kinds_agree_with_trying_every_way_on_the_worked_hands(kind: SpecialKind) -> None:
    true_hand, one_card_off, _ = CASES[kind]
    assert settable(kind, parse_cards(true_hand))
    assert not settable(kind, parse_cards(one_card_off))
