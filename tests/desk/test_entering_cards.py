"""A dealer at the keyboard: whole hands, refusals inline, undo, settlement."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from typing import Any

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from ofc_desk.core.cards import FULL_DECK
from ofc_desk.core.rows import Row
from ofc_desk.service import TableSetup
from ofc_desk.service.table.games.choose import entry_for
from ofc_desk.service.table.games.ofc.view_parts import OfcTurn
from ofc_desk.service.terms.setup import SeatSetup, TableRules
from ofc_desk.service.terms.snapshot import Phase
from tests.desk.conftest import Desk, street_keys

# Two regular hands that end clean (Ann sets queens in front: Fantasyland).
ANN = ("Qh Qd 4c", "9s 9d 5h 5c 2s", "Ks Kd Kc 7h 7d")
BOB = ("8s 6d 3h", "As Ac Jd Th 2d", "2h 3c 4s 5d 6c")
Hand = tuple[str, str, str]
"""A player's front, middle and back."""


ROW_KEYS = (
    {Row.BACK: "b", Row.MIDDLE: "m", Row.FRONT: "f"},
    {Row.BACK: "3", Row.MIDDLE: "2", Row.FRONT: "1"},
)
"""The first player's rows keyed by letter, the second's by number: both ways are typed."""


def regular_streets(first: Hand, second: Hand) -> Iterator[tuple[int, str, Row]]:
    """Both players' streets in turn order, as (0 for the first player's or 1, cards, row): the
    backs first (5 cards), then a card at a time, the middles then the fronts."""
    yield 0, first[2], Row.BACK
    yield 1, second[2], Row.BACK
    for card_a, card_b in zip(_one_at_a_time(first), _one_at_a_time(second), strict=True):
        yield 0, *card_a
        yield 1, *card_b


def _one_at_a_time(hand: Hand) -> list[tuple[str, Row]]:
    return [(card, Row.MIDDLE) for card in hand[1].split()] + [(card, Row.FRONT) for card in hand[0].split()]


def play_regular_streets(desk: Desk, first: Hand, second: Hand) -> None:
    """Both players' streets typed at the desk's keyboard, each confirmed with Enter."""
    for whose, cards, row in regular_streets(first, second):
        key = ROW_KEYS[whose][row]
        desk.street(street_keys(cards, key) if row is Row.BACK else f"{cards}{key}")


def enter_regular_streets(desk: Desk, first: Hand, second: Hand) -> None:
    """The same streets in the same order, handed to the service the desk drives (the command its
    Enter would send), then shown: for tests of what follows a hand, not of typing it (typing a
    hand is a quarter of a second of CPU, five times its entries; the tests above type them)."""
    service = desk.session.controller.service
    assert service is not None
    for _whose, cards, row in regular_streets(first, second):
        turn = service.snapshot().to_act
        assert turn is not None and turn.kind is OfcTurn.STREET, turn
        placed = cards.split()
        service.do(entry_for(turn.kind, turn.player, placed, [str(row)] * len(placed)))
    desk.session.controller.refresh()


def test_a_whole_regular_hand_by_keyboard_then_settlement(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    desk.screenshot("01-new-table")
    assert desk.snapshot.to_act is not None and desk.snapshot.to_act.player == "Ann"
    assert desk.session.controller.turn_entry() is None  # an OFC street is the desk's own entry's
    desk.street(street_keys(ANN[2], "b"))
    desk.street(street_keys(BOB[2], "b"))
    desk.screenshot("02-mid-hand")
    assert desk.face("Ann").rows[2].cards == ("Ks", "Kd", "Kc", "7h", "7d")
    later_ann = [(c, "m") for c in ANN[1].split()] + [(c, "f") for c in ANN[0].split()]
    later_bob = [(c, "m") for c in BOB[1].split()] + [(c, "f") for c in BOB[0].split()]
    for (card_a, key_a), (card_b, key_b) in zip(later_ann, later_bob, strict=True):
        desk.street(f"{card_a} {key_a}")
        desk.street(f"{card_b} {key_b}")
    assert desk.snapshot.phase is Phase.AWAITING_SETTLEMENT
    assert desk.window.bottom.currentIndex() == desk.window.SETTLEMENT_PAGE
    settlement = desk.window.settlement
    assert "Ann – Bob" in settlement.details.toPlainText()
    result = desk.snapshot.result
    assert result is not None
    transfer = result.transfers[0]
    paid = " ".join(settlement.transfers.toPlainText().split())  # one line a transfer
    assert f"1 {transfer.payer} → {transfer.payee} {transfer.paid}" in paid
    desk.screenshot("03-settlement")
    stacks_after = {seat.name: seat.stack_after for seat in result.seats}
    assert stacks_after["Ann"] != 100
    desk.press_enter_on(desk.window.settlement.confirm_button)
    assert desk.snapshot.hand_number == 2
    for name, stack in stacks_after.items():
        assert desk.face(name).stack == stack


def test_a_whole_pineapple_hand_with_discards(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob", variant="pineapple")
    desk.street(street_keys("9c 9d 9h 4s 4d", "b"))
    desk.street(street_keys("Qc Tc 8c 6c 2c", "b"))
    ann_streets = ["kh m kd m ?", "7s m 7c m jd x", "2h m ah f ?", "ad f 3c f 5h x"]
    bob_streets = ["js m jc m td x", "8h m 8d m ?", "3h m ks f 6s x", "kc f 5s f ?"]
    for ann, bob in zip(ann_streets, bob_streets, strict=True):
        desk.street(ann)
        assert desk.refusal() == ""
        desk.street(bob)
        assert desk.refusal() == ""
    snapshot = desk.snapshot
    assert snapshot.phase is Phase.AWAITING_SETTLEMENT
    ann_seat = snapshot.seat("Ann")
    assert len(ann_seat.discards) == 4
    assert sum(card is None for card in ann_seat.discards) == 2
    assert [str(card) for card in ann_seat.row(Row.FRONT).cards] == ["Ah", "Ad", "3c"]


def test_a_duplicate_card_is_refused_inline_and_the_entry_keeps_it(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    desk.type("qh f qh")
    desk.type(" m")
    assert "Qh" in desk.refusal()
    assert desk.window.entry.line.text() == "qh m"
    assert [p.label for p in desk.session.controller.staged] == ["Qh"]
    desk.window.entry.line.clear()
    desk.street("qd f 2c m 3c m")
    assert desk.refusal() != ""  # four cards on a five-card street: the service says why
    desk.street("4c b")
    assert desk.refusal() == ""
    assert desk.snapshot.to_act is not None and desk.snapshot.to_act.player == "Bob"
    desk.type("qh f")
    assert "Qh" in desk.refusal()


def test_enter_on_a_refused_card_says_its_own_refusal_again(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    desk.street(street_keys(ANN[2], "b"))
    desk.street(street_keys(BOB[2], "b"))
    desk.type("9s b")
    assert desk.refusal() == "Ann's back already holds 5 cards"
    desk.qtbot.keyClick(desk.window.entry.line, Qt.Key.Key_Return)
    assert desk.refusal() == "Ann's back already holds 5 cards"  # not "place 1 card"
    assert desk.window.entry.line.text() == "9s b" and desk.snapshot.to_act.player == "Ann"  # type: ignore[union-attr]


def test_a_long_pasted_mistake_does_not_widen_the_window(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    screen = desk.window.screen().availableGeometry().width()
    for character in "z" * 400:  # as pasted: one key event a character
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(
                desk.window.entry.line, QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, character)
            )
    for _ in range(3):
        QApplication.processEvents()
    desk.window.grab()  # lays the window out as a paint would
    assert desk.refusal().startswith("'zzzz") and desk.window.width() <= max(screen, 1200)


def test_ctrl_z_takes_back_a_staged_card_then_the_last_street_through_the_service(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    desk.street(street_keys(ANN[2], "b"))
    assert desk.snapshot.to_act is not None and desk.snapshot.to_act.player == "Bob"
    desk.type("as m")
    assert len(desk.session.controller.staged) == 1
    desk.qtbot.keyClick(desk.window.entry.line, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert desk.session.controller.staged == []
    desk.qtbot.keyClick(desk.window.entry.line, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    snapshot = desk.snapshot
    assert snapshot.to_act is not None and snapshot.to_act.player == "Ann"
    assert snapshot.seat("Ann").row(Row.BACK).cards == ()
    assert desk.face("Ann").rows[2].cards == ()
    desk.qtbot.keyClick(
        desk.window.entry.line,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert [str(card) for card in desk.snapshot.seat("Ann").row(Row.BACK).cards] == ANN[2].split()  # redone
    assert desk.snapshot.to_act is not None and desk.snapshot.to_act.player == "Bob"


def test_row_buttons_and_the_picker_enter_cards_too(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    desk.window.picker.button("Qh").click()
    desk.window.entry.row_buttons["f"].click()
    assert [p.label for p in desk.session.controller.staged] == ["Qh"]
    assert not desk.window.picker.button("Qh").isEnabled()


def test_the_last_three_face_down_are_entered_when_revealed(desk: Desk) -> None:
    setup = TableSetup(
        "Face down",
        tuple(SeatSetup(name, 100) for name in ("Ann", "Bob", "Cy", "Dee")),
        "Dee",
        TableRules(last_three_face_down=True),
    )
    assert desk.session.open_new_table(setup) is None
    desk.press_enter_on(desk.window.between_hands.deal_button)
    deck = [str(card) for card in FULL_DECK]
    cards = {name: deck[13 * seat : 13 * seat + 13] for seat, name in enumerate(("Ann", "Bob", "Cy", "Dee"))}
    keys = ["b"] * 5 + ["m"] * 5 + ["f"] * 3
    taken = dict.fromkeys(cards, 0)
    while (turn := desk.snapshot.to_act) is not None and turn.kind is OfcTurn.STREET:
        start = taken[turn.player]
        desk.street(
            " ".join(
                f"{c} {k}"
                for c, k in zip(cards[turn.player][start : start + turn.take], keys[start:], strict=False)
            )
        )
        taken[turn.player] += turn.take
    assert turn is not None and turn.kind is OfcTurn.FACE_DOWN_REVEAL and turn.take == 3
    assert "face-down" in desk.window.entry.prompt.text()
    for name in ("Ann", "Bob", "Cy", "Dee"):
        assert desk.snapshot.to_act is not None and desk.snapshot.to_act.player == name
        desk.street(" ".join(f"{c} f" for c in cards[name][10:]))
        assert desk.refusal() == ""
    assert desk.snapshot.phase is Phase.AWAITING_SETTLEMENT


def test_a_database_failure_is_said_plainly_and_the_staged_cards_stay(
    desk: Desk, monkeypatch: pytest.MonkeyPatch
) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    service = desk.session.controller.service
    assert service is not None

    def database_gone(*_args: object) -> None:
        raise OperationalError("INSERT INTO events", {}, Exception("server closed the connection"))

    monkeypatch.setattr(service, "do", database_gone)
    desk.street(street_keys(ANN[2], "b"))
    assert "nothing was recorded" in desk.refusal()
    assert len(desk.session.controller.staged) == 5
    monkeypatch.undo()
    desk.street("")
    assert desk.refusal() == ""
    assert [str(card) for card in desk.snapshot.seat("Ann").row(Row.BACK).cards] == ANN[2].split()


def test_a_street_refused_for_a_write_lock_held_elsewhere_goes_in_once_it_is_let_go(desk: Desk) -> None:
    """Another program holds the file's write lock past the desk's busy timeout (lowered here from
    30 s): the street is refused in words, the table is drawn as stored, the cards stay staged, and
    Enter again once the lock is let go records it."""
    desk.open_table(("Ann", "Bob"), button="Bob")
    service = desk.session.controller.service
    assert service is not None
    event.listen(service.database.engine, "connect", _busy_timeout_of_50_milliseconds)
    service.database.engine.dispose()
    with closing(sqlite3.connect(str(service.database.engine.url.database), isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        desk.street(street_keys(ANN[2], "b"))
        assert desk.refusal() == (
            "the database was kept busy by another program (database is locked): nothing was"
            " recorded — do it again in a moment"
        )
        assert desk.snapshot.seat("Ann").row(Row.BACK).cards == ()
        assert len(desk.session.controller.staged) == 5
        other.execute("ROLLBACK")
    desk.street("")
    assert desk.refusal() == ""
    assert [str(card) for card in desk.snapshot.seat("Ann").row(Row.BACK).cards] == ANN[2].split()


def _busy_timeout_of_50_milliseconds(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.execute("PRAGMA busy_timeout = 50")


def test_the_desk_says_when_the_database_answers_again(desk: Desk, monkeypatch: pytest.MonkeyPatch) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    service = desk.session.controller.service
    assert service is not None

    def database_gone() -> bool:
        raise OperationalError("SELECT", {}, ConnectionRefusedError("connection refused"))

    monkeypatch.setattr(service, "catch_up", database_gone)
    watch = desk.session.controller.floor_requests
    watch.on_tick()
    assert desk.refusal().startswith("the database did not answer (connection refused): nothing was recorded")
    monkeypatch.undo()
    watch.on_tick()
    assert desk.refusal() == ""
    assert desk.window.entry.notice.text() == (
        "the database answers again: the table shows what is stored — do again what was not recorded"
    )
