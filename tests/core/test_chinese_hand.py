"""A Chinese hand at showdown (docs/rules.md §10): entries in any order, each refused entry changing
nothing, the script's spellings of an entry, and the finished hand settled as a deal."""

from __future__ import annotations

from typing import Any

import pytest

from ofc_desk.core.chinese.deal import score_chinese_deal
from ofc_desk.core.chinese.hand import ChineseHand, EntryRefused, entry_from_action, placed_rows
from ofc_desk.core.chinese.presets import load_chinese_preset
from ofc_desk.core.chinese.showdown import Entry

TYPICAL = load_chinese_preset("chinese-typical")
ANN = {"cards": "6s 6h 6d 4s 4h 4d 9s 9h Ks Kh Kd 8s 8h", "rows": "f f f m m m m m b b b b b"}
BOB = {"cards": "Qs Qh 7d Js Jh Jd 2s 2h 5s 5h 5d 5c Ad", "rows": "front front front 2 2 2 2 2 3 3 3 3 3"}
CY_SIX_PAIRS = {"declare": "six-pairs", "cards": "2c 2d 3c 3d 7c 7s Tc Td Qc Qd Ac As 9c"}


def entered(*names_and_actions: tuple[str, dict[str, Any]]) -> ChineseHand:
    hand = ChineseHand(TYPICAL, ("Ann", "Bob", "Cy"))
    for name, action in names_and_actions:
        hand = hand.enter(name, entry_from_action(TYPICAL, name, action))
    return hand


def test_entries_come_in_any_order_and_the_finished_hand_settles() -> None:
    hand = entered(("Cy", CY_SIX_PAIRS), ("Ann", ANN))
    assert (hand.complete, hand.next_to_enter()) == (False, "Bob")
    hand = hand.enter("Bob", entry_from_action(TYPICAL, "Bob", BOB))
    assert hand.complete and hand.next_to_enter() is None
    result = score_chinese_deal(hand.deal("Cy", {"Ann": 20, "Bob": 20, "Cy": 20}))
    assert [(t.debtor, t.creditor, t.owed) for t in result.transfers] == [
        ("Ann", "Cy", 3),
        ("Bob", "Cy", 3),
        ("Ann", "Bob", 3),
    ]


def test_a_refused_entry_changes_nothing() -> None:
    hand = entered(("Ann", ANN))
    clash = entry_from_action(TYPICAL, "Bob", {**BOB, "cards": BOB["cards"].replace("Qs", "6s")})
    assert not hand.can_enter("Bob", clash)
    with pytest.raises(EntryRefused, match="6s is already in Ann's front"):
        hand.enter("Bob", clash)
    with pytest.raises(EntryRefused, match="Ann's hand is already entered: undo it first"):
        hand.enter("Ann", Entry.surrender())
    with pytest.raises(EntryRefused, match="Dee is not dealt into this hand"):
        hand.enter("Dee", Entry.surrender())
    assert list(hand.entries) == ["Ann"]
    with pytest.raises(EntryRefused, match="Bob's hand is not entered yet"):
        hand.deal("Cy", {"Ann": 1, "Bob": 1, "Cy": 1})


def test_withdrawing_an_entry_undoes_it() -> None:
    hand = entered(("Ann", ANN), ("Bob", {"surrender": True}))
    assert hand.withdraw("Bob") == entered(("Ann", ANN))
    with pytest.raises(EntryRefused, match="Cy's hand is not entered"):
        hand.withdraw("Cy")


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({**ANN, "rows": "f f m m m m m m b b b b b"}, "the front takes 3 cards, not 2"),
        ({**ANN, "rows": "f f f m m m m m b b b b x"}, "a Chinese hand discards nothing"),
        ({**ANN, "cards": "6s 6h 6d 4s 4h 4d 9s 9h Ks Kh Kd 8s"}, "give 13 cards and a row for each, not 12"),
        ({**ANN, "cards": "6s 6h 6d 4s 4h 4d 9s 9h Ks Kh Kd 8s 1x"}, "'1x'"),
        ({**ANN, "rows": "f f f m m m m m b b b b sideways"}, "'sideways' is not a row"),
        ({"surrender": True, "cards": ANN["cards"]}, "Bob surrendered: give no cards"),
        ({"declare": "six-pairs", "cards": ANN["cards"]}, "Bob's cards are not six pairs"),
        ({"declare": "small", "cards": ANN["cards"]}, "chinese-typical does not pay small"),
        ({"declare": "dragon", "cards": "2s 3s"}, "a declaration needs the 13 cards, not 2"),
        ({"declare": "six-pairs", "cards": "2c 2c 3c 3d 7c 7s Tc Td Qc Qd Ac As 9c"}, "2c is entered twice"),
        ({"cards": ANN["cards"]}, "give the cards with their rows, a surrender or a declaration"),
    ],
)
def test_a_scripts_entry_is_read_or_refused_in_words(action: dict[str, Any], message: str) -> None:
    with pytest.raises(EntryRefused, match=message):
        entry_from_action(TYPICAL, "Bob", action)


def test_a_declaration_may_give_its_rows() -> None:
    action = {**CY_SIX_PAIRS, "rows": "f f f m m m m m b b b b b"}
    entry = entry_from_action(TYPICAL, "Cy", action)
    assert entry.declared is not None and entry.rows == placed_rows(action["cards"], action["rows"])
