"""Issue 14: what a dealer stumbled on during a whole shift, each pressed as the dealer presses it."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.desk.conftest import Desk, street_keys
from tests.desk.test_entering_cards import ANN, BOB


def test_a_seat_named_before_its_cards_is_refused_when_not_on_turn(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")  # Ann acts first
    desk.type("bo: " + street_keys(BOB[2], "b"))
    assert desk.refusal() == "it is Ann's turn, not Bob's"  # the README's sentence, the service's
    assert desk.snapshot.seat("Bob").back.cards == () and not desk.session.controller.staged
    assert desk.window.entry.line.text().startswith("bo: ")  # kept, to be corrected
    desk.window.entry.line.clear()
    desk.type("2:")
    assert desk.refusal() == "it is Ann's turn, not Bob's"
    desk.window.entry.line.clear()
    desk.type("7: ks b")
    assert desk.refusal().startswith("there is no seat 7")
    desk.window.entry.line.clear()
    desk.street("an: " + street_keys(ANN[2], "b"))
    assert [str(card) for card in desk.snapshot.seat("Ann").back.cards] == ANN[2].split()
    assert desk.refusal() == "" and desk.window.entry.line.text() == ""
    desk.street(street_keys(BOB[2], "b"))  # no seat named: the player on turn, Bob now
    assert [str(card) for card in desk.snapshot.seat("Bob").back.cards] == BOB[2].split()
    desk.type("a")
    assert desk.refusal() == ""  # perhaps "an:" on its way
    desk.qtbot.keyClick(desk.window.entry.line, Qt.Key.Key_Return)
    assert "a seat's number or name, then a colon" in desk.refusal()
