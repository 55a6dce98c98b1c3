"""An OFC hand being dealt (docs/rules.md §6–§7), by the core's rules alone: the turn order street by
street and then the Fantasyland sets, each refusal in the dealer's words, and undo."""

from __future__ import annotations

import pytest

from ofc_desk.core.cards import parse_card
from ofc_desk.core.ofc.deal_input import deal_from_json
from ofc_desk.core.ofc.hand import EntryRefused, HandState, OfcTurn, Stage
from ofc_desk.core.ofc.presets import load_preset
from ofc_desk.core.ofc.streets import StreetPlan
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import DEFAULT_PRESET
from ofc_desk.core.rows import Row

PINEAPPLE = StreetPlan.for_variant(Variant.PINEAPPLE, face_down_last=False)
STACKS = {"Ann": 100, "Bob": 100, "Cy": 100}


def pineapple(fantasyland: dict[str, int] | None = None) -> HandState:
    """Cy deals: Ann acts first, then Bob, then Cy."""
    return HandState(7, "Cy", ("Ann", "Bob", "Cy"), fantasyland or {}, STACKS, PINEAPPLE, Variant.PINEAPPLE)


def enter(hand: HandState, player: str, cards: str, rows: str, *, fantasyland: bool = False) -> None:
    entry = hand.read_entry(player, cards, rows)
    hand.verify_enter(entry, fantasyland=fantasyland)
    hand.apply(entry)


def refusal(hand: HandState, player: str, cards: object, rows: object, *, fantasyland: bool = False) -> str:
    with pytest.raises(EntryRefused) as refused:
        hand.verify_enter(hand.read_entry(player, cards, rows), fantasyland=fantasyland)
    return str(refused.value)


def test_regular_players_go_street_by_street_then_the_fantasyland_sets() -> None:
    hand = pineapple({"Bob": 14})
    assert hand.turn() == OfcTurn("Ann", Stage.STREET, 1, 5, 5, 0)
    enter(hand, "Ann", "Ah Ad Kc Kd 2s", "back back middle middle front")
    assert hand.turn() == OfcTurn("Cy", Stage.STREET, 1, 5, 5, 0)
    assert refusal(hand, "Bob", "Qs", "back", fantasyland=True) == (
        "Bob's Fantasyland set is entered after every other player has finished; it is Cy's turn"
    )
    enter(hand, "Cy", "Qh Qd Jc Jd 3s", "back back middle middle front")
    assert hand.turn() == OfcTurn("Ann", Stage.STREET, 2, 3, 2, 1)
    assert hand.cards_seen == 10 and hand.cards_dealt == 24 and hand.fantasyland == {"Bob": 14}


def test_a_refused_entry_says_why_and_changes_nothing() -> None:
    hand = pineapple()
    assert refusal(hand, "Bob", "Ah", "back") == "it is Ann's turn, not Bob's"
    assert refusal(hand, "Zed", "Ah", "back") == "Zed is not dealt into hand 7"
    assert refusal(hand, "Ann", "Ah Kd", "back") == "2 cards but 1 rows: give one row for each card"
    assert refusal(hand, "Ann", "Ah Ah Kc Kd 2s", "back back back middle middle") == "Ah is entered twice"
    assert refusal(hand, "Ann", "Ah Kd Qc Jd Ts 9s", "back back back back back back") == (
        "5 cards is the most on a first street"
    )
    assert refusal(hand, "Ann", "Ah", "back", fantasyland=True) == (
        "Ann is not in Fantasyland: enter the street"
    )
    assert refusal(hand, "Ann", 3, "back") == "cards must be given as text such as 'Qh Qd ??' or as a list"
    assert refusal(hand, "Ann", "Ah", 3) == "rows must be given as words such as 'front middle discard'"
    assert hand.entries == [] and hand.cards_seen == 0
    enter(hand, "Ann", "Qs Qh 2c 3d 4s", "middle middle back back back")
    enter(hand, "Bob", "As Ad 5c 6d 7s", "back back middle middle front")
    enter(hand, "Cy", "Ks Kd 8c 9d Ts", "back back middle middle front")
    assert refusal(hand, "Ann", "Qs Jd Jc", "front front discard") == "Qs is already in Ann's middle"
    assert refusal(hand, "Ann", "?? Jd Jc", "front front discard") == (
        "?? can only be a discard: name each card placed in a row"
    )
    assert refusal(hand, "Ann", "Jd Jc 9c", "front front front") == ("pineapple: place 2 cards and discard 1")


def test_a_row_with_no_room_is_refused() -> None:
    hand = pineapple()
    enter(hand, "Ann", "Qs Qh Qd 3d 4s", "front front front back back")
    enter(hand, "Bob", "As Ad 5c 6d 7s", "front front middle middle back")
    enter(hand, "Cy", "Ks Kd 8c 9d Ts", "back back middle middle front")
    assert refusal(hand, "Ann", "2c 2d ??", "front back discard") == "Ann's front already holds 3 cards"
    enter(hand, "Ann", "2c 2d ??", "back back discard")
    assert refusal(hand, "Bob", "2h 3h ??", "front front discard") == (
        "Bob's front has room for only 1 more card"
    )


def test_undo_takes_the_last_entry_back() -> None:
    hand = pineapple()
    with pytest.raises(EntryRefused, match=r"^nothing to undo in hand 7$"):
        hand.undo()
    enter(hand, "Ann", "Qs Qh 2c 3d 4s", "middle middle back back back")
    assert hand.where(parse_card("Qs")) == ("Ann", Row.MIDDLE)
    assert hand.entry_to_undo().player == "Ann"
    assert hand.undo().cards[0] == parse_card("Qs")
    assert hand.where(parse_card("Qs")) is None and hand.entries == []
    assert hand.turn() == OfcTurn("Ann", Stage.STREET, 1, 5, 5, 0)


def test_the_fantasyland_set_is_entered_whole_at_the_reveal() -> None:
    hand = HandState(1, "Bob", ("Ann", "Bob"), {"Ann": 14}, STACKS, PINEAPPLE, Variant.PINEAPPLE)
    streets = [
        ("As Ad 5c 6d 7s", "back back middle middle front"),
        ("2h 2c ??", "middle middle discard"),
        ("3h 3c ??", "back back discard"),
        ("4h 4c ??", "middle back discard"),
        ("5h 5s ??", "front front discard"),
    ]
    for cards, rows in streets:
        turn = hand.turn()
        assert turn is not None and (turn.player, turn.stage) == ("Bob", Stage.STREET)
        enter(hand, "Bob", cards, rows)
    assert hand.turn() == OfcTurn("Ann", Stage.FANTASYLAND_SET, 0, 14, 13, 1)
    assert refusal(hand, "Ann", "Ks", "back") == "Ann is in Fantasyland: enter the whole set at the reveal"
    assert refusal(hand, "Ann", "Ks", "back", fantasyland=True) == "Fantasyland: place 13 cards and discard 1"
    assert not hand.complete


def test_the_finished_hand_is_a_deal_as_ofc_desk_score_reads_it() -> None:
    """The deal the table scores is the one `ofc-desk score` reads from the same hand, its pair
    units kept to the pairs dealt in."""
    hand = HandState(1, "Bob", ("Ann", "Bob"), {"Ann": 14}, STACKS, PINEAPPLE, Variant.PINEAPPLE)
    for cards, rows in [
        ("As Ad 5c 6d 7s", "back back middle middle front"),
        ("2h 2c ??", "middle middle discard"),
        ("3h 3c ??", "back back discard"),
        ("4h 4c ??", "middle back discard"),
    ]:
        enter(hand, "Bob", cards, rows)
    with pytest.raises(EntryRefused, match=r"^Bob's hand is not entered yet$"):
        hand.deal(["Ann", "Bob"], load_preset(DEFAULT_PRESET), streaks={})
    enter(hand, "Bob", "5h 5s ??", "front front discard")
    ann_set = "Qs Qh Qd Ks Kh Kd Kc 8s 8h 8d 8c 9s Tc Jc"
    enter(
        hand, "Ann", ann_set, "front front front " + "back " * 5 + "middle " * 5 + "discard", fantasyland=True
    )
    pairs = {frozenset({"Ann", "Bob"}): 10, frozenset({"Ann", "Cy"}): 3}
    deal = hand.deal(
        ["Ann", "Bob"], load_preset(DEFAULT_PRESET), streaks={"Ann": 2}, unit=5, pair_units=pairs
    )
    read = deal_from_json({
        "variant": "pineapple", "unit": 5, "pair_units": [{"players": ["Ann", "Bob"], "unit": 10}],
        "dealer": "Bob", "in_fantasyland": ["Ann"], "fantasyland_streaks": {"Ann": 2},
        "players": [
            {"name": "Ann", "stack": 100, "front": "Qs Qh Qd", "middle": "8h 8d 8c 9s Tc",
             "back": "Ks Kh Kd Kc 8s"},
            {"name": "Bob", "stack": 100, "front": "7s 5h 5s", "middle": "5c 6d 2h 2c 4h",
             "back": "As Ad 3h 3c 4c"},
        ],
    })  # fmt: skip
    assert deal == read
