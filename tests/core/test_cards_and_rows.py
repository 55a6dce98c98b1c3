"""Card spellings (docs/rules.md §1) and the front-vs-middle comparison examples (§2)."""

from __future__ import annotations

import pickle

import pytest

from ofc_desk.core.cards import (
    FULL_DECK,
    Card,
    CardError,
    Rank,
    Suit,
    find_duplicate,
    format_cards,
    parse_card,
    parse_cards,
    parse_entries,
)
from ofc_desk.core.hands import HandClass, hand_class, hand_name, strength

SUIT_SPELLINGS = {
    Suit.SPADE: ("s", "S", "♠"),
    Suit.HEART: ("h", "H", "♥"),
    Suit.DIAMOND: ("d", "D", "♦"),
    Suit.CLUB: ("c", "C", "♣"),
}
RANK_SPELLINGS = {rank: (rank.value, rank.value.lower()) for rank in Rank} | {Rank.TEN: ("T", "t", "10")}


@pytest.mark.parametrize("rank", list(Rank))
@pytest.mark.parametrize("suit", list(Suit))
def test_every_spelling_of_every_card_parses_to_its_canonical_form(rank: Rank, suit: Suit) -> None:
    canonical = f"{rank.value}{suit.value}"
    for rank_text in RANK_SPELLINGS[rank]:
        for suit_text in SUIT_SPELLINGS[suit]:
            card = parse_card(rank_text + suit_text)
            assert card == Card(rank, suit)
            assert str(card) == canonical


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("ah", "Ah"), ("AH", "Ah"), ("A♥", "Ah"), ("10d", "Td"), ("Td", "Td"), ("10D", "Td"), ("q♠", "Qs")],
)
def test_the_spellings_named_in_the_rules(text: str, canonical: str) -> None:
    assert str(parse_card(text)) == canonical


def test_a_row_of_mixed_spellings_formats_canonically() -> None:
    cards = parse_cards("ah, 10d K♣  qs 2H")
    assert format_cards(cards) == "Ah Td Kc Qs 2h"
    assert parse_cards(["ah", "10d"]) == parse_cards("Ah Td")


def test_the_deck_holds_52_different_cards() -> None:
    assert len(set(FULL_DECK)) == 52
    assert find_duplicate(FULL_DECK) is None
    assert find_duplicate(parse_cards("Ah Kd ah")) == Card(Rank.ACE, Suit.HEART)


@pytest.mark.parametrize("token", ["1x", "Ax", "1h", "11h", "A", "", "Ahh", "Zs", "??"])
def test_a_bad_token_names_itself_and_its_position(token: str) -> None:
    with pytest.raises(CardError) as raised:
        parse_cards(["Ah", "Kd", token])
    assert raised.value.token == token
    assert raised.value.position == 2
    assert f"'{token}'" in str(raised.value)
    assert "(card 3)" in str(raised.value)


def test_unknown_cards_are_allowed_only_where_asked_for() -> None:
    assert parse_entries("Qh ?? 2c") == [Card(Rank.QUEEN, Suit.HEART), None, Card(Rank.TWO, Suit.CLUB)]
    with pytest.raises(CardError, match="unknown card is not allowed"):
        parse_cards("Qh ?? 2c")


def beats(front: str, middle: str) -> bool:
    return strength(parse_cards(front)) > strength(parse_cards(middle))


def test_rules_section_2_kicker_decides_when_the_pair_ties() -> None:
    assert beats("Qh Qd Ac", "Qs Qc Kd 7h 3s")


def test_rules_section_2_a_full_tie_leaves_the_middle_at_least_as_strong() -> None:
    assert not beats("Kh Qd Jc", "Ks Qc Jd 9h 3s")


@pytest.mark.parametrize(
    ("front", "middle", "front_stronger"),
    [
        ("Qh Qd 2c", "Js Jc Ad Kh Qs", True),  # the higher pair
        ("Qh Qd 2c", "Qs Qc 3d 2h 4s", False),  # kicker 2 loses to kicker 3
        ("Qh Qd 3c", "Qs Qc 3d 2h 4s", False),  # all three front cards tie: the middle holds
        ("Ah Kd Qc", "As Kc Jd 9h 3s", True),  # the third card decides
        ("2h 2d 2c", "Ks Kc Qd Qh As", True),  # trips beat two pair
        ("Ah Ad Ac", "2s 3c 4d 5h 6s", False),  # any straight beats front trips
        ("Ah Ad Kc", "2s 2c 3d 3h 4s", False),  # two pair beats a pair
        ("7h 7d 7c", "7s 8c 8d 8h 2s", False),  # higher trips in the middle
    ],
)
def test_front_against_middle_compares_category_then_ranks(
    front: str, middle: str, front_stronger: bool
) -> None:
    assert beats(front, middle) is front_stronger


@pytest.mark.parametrize(
    ("front", "name"), [("Qh Kh Jh", "king-high"), ("2s 3s 4s", "four-high"), ("As 2s 3s", "ace-high")]
)
def test_three_suited_or_connected_cards_are_only_high_card_in_front(front: str, name: str) -> None:
    cards = parse_cards(front)
    assert hand_class(cards) is HandClass.HIGH_CARD
    assert hand_name(cards) == name


@pytest.mark.parametrize(
    ("cards", "name", "hand"),
    [
        ("As 2d 3c 4h 5s", "five-high straight", HandClass.STRAIGHT),
        ("Ts Js Qs Ks As", "royal flush", HandClass.ROYAL_FLUSH),
        ("As 2s 3s 4s 5s", "five-high straight flush", HandClass.STRAIGHT_FLUSH),
        ("9h 9d 9c 4s 4d", "nines full of fours", HandClass.FULL_HOUSE),
        ("6h 6d Kc Ks 2d", "two pair, kings and sixes", HandClass.TWO_PAIR),
        ("6h 6d 6c 6s 2d", "four sixes", HandClass.QUADS),
        ("Ah 9h 7h 4h 2h", "ace-high flush", HandClass.FLUSH),
    ],
)
def test_hand_names_and_classes(cards: str, name: str, hand: HandClass) -> None:
    parsed = parse_cards(cards)
    assert hand_name(parsed) == name
    assert hand_class(parsed) is hand


def test_the_wheel_is_the_lowest_straight_and_suits_never_break_ties() -> None:
    wheel = strength(parse_cards("As 2d 3c 4h 5s"))
    assert wheel < strength(parse_cards("2s 3d 4c 5h 6s"))
    assert wheel > strength(parse_cards("As Ad Ac Kh Qs"))
    assert strength(parse_cards("Ah Kh 9d 4c 2s")) == strength(parse_cards("As Ks 9c 4d 2h"))


def test_a_pickled_card_thaws_as_the_deck_s_own_card() -> None:
    """A checkpoint's cards (a desk's table, a floor's kept row) are the deck's 52 objects once
    thawed, equal and identical to the cards a deal parses."""
    for card in FULL_DECK:
        for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
            thawed = pickle.loads(pickle.dumps(card, protocol=protocol))
            assert thawed is card and thawed == Card(card.rank, card.suit) and str(thawed) == card.text
    assert pickle.loads(pickle.dumps(parse_cards("Ah Ah Td"))) == parse_cards("Ah Ah Td")
