"""Seats are physical: a seat keeps its number for the whole session, a player who leaves leaves it
empty, and a newcomer takes an empty seat by its number (docs/decisions.md, "Seats keep their
numbers"). Joins recorded before seats kept their numbers read as they did. The machine alone: no
database."""

from __future__ import annotations

import pytest

from ofc_desk.service.table.games.ofc.live import OfcHand
from ofc_desk.service.table.seats import free_seats
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.snapshot import TableSnapshot
from tests.helpers.chinese_hands import ROWS, SEED_A, SEED_B
from tests.service.test_machine import Recorder, heads_up_hand, opened


def seat_numbers(snapshot: TableSnapshot) -> list[tuple[str, int]]:
    return [(seat.name, seat.number) for seat in snapshot.seats]


def four_players() -> Recorder:
    return opened({"Ann": 100, "Bob": 100, "Cy": 100, "Dee": 100}, "Dee")


def test_a_seat_keeps_its_number_when_a_player_cashes_out() -> None:
    table = four_players()
    table.do(EventKind.CASHED_OUT, {"player": "Bob"})
    snapshot = table.machine.snapshot(1, "h")
    assert seat_numbers(snapshot) == [("Ann", 1), ("Cy", 3), ("Dee", 4)]
    assert snapshot.empty_seats == (2,)
    table.do(EventKind.HAND_STARTED)
    hand = table.machine.live
    assert isinstance(hand, OfcHand) and hand.order == ("Ann", "Cy", "Dee")


def test_a_newcomer_takes_an_empty_seat_by_its_number() -> None:
    table = opened({"Ann": 100, "Bob": 100, "Cy": 100}, "Cy")
    table.do(EventKind.CASHED_OUT, {"player": "Bob"})
    assert free_seats(table.machine) == [2, 4]
    with pytest.raises(ActionRefused, match="seat 3 is taken: Cy sits there"):
        table.do(EventKind.JOINED, {"player": "Eve", "buy_in": 50, "seat": 3})
    with pytest.raises(ActionRefused, match="no empty seat 7 at this table: the empty seats are 2, 4"):
        table.do(EventKind.JOINED, {"player": "Eve", "buy_in": 50, "seat": 7})
    with pytest.raises(ActionRefused, match="seat 2 is not after Cy: it comes after Ann"):
        table.do(EventKind.JOINED, {"player": "Eve", "buy_in": 50, "seat": 2, "after": "Cy"})
    table.do(EventKind.JOINED, {"player": "Eve", "buy_in": 50, "seat": 2})
    assert table.log[-1][1] == {"player": "Eve", "buy_in": 50, "after": "Ann", "seat": 2}
    table.do(EventKind.JOINED, {"player": "Fay", "buy_in": 50, "seat": 4})
    snapshot = table.machine.snapshot(1, "h")
    assert seat_numbers(snapshot) == [("Ann", 1), ("Eve", 2), ("Cy", 3), ("Fay", 4)]
    assert snapshot.empty_seats == ()
    table.do(EventKind.HAND_STARTED)
    hand = table.machine.live
    assert isinstance(hand, OfcHand) and hand.order == ("Fay", "Ann", "Eve", "Cy")  # Cy deals


def test_the_first_seat_comes_first_when_it_is_taken_again() -> None:
    table = opened({"Ann": 100, "Bob": 100}, "Bob")
    table.do(EventKind.CASHED_OUT, {"player": "Ann"})
    table.do(EventKind.JOINED, {"player": "Cy", "buy_in": 50, "seat": 1})
    assert dict(table.log[-1][1])["after"] is None
    assert seat_numbers(table.machine.snapshot(1, "h")) == [("Cy", 1), ("Bob", 2)]


def test_a_join_that_names_no_seat_plays_where_it_always_did() -> None:
    """Events recorded before seats kept their numbers name only the player the newcomer sits
    after: the clockwise order (and with it every result) is the one the desk played then, and the
    newcomer takes the lowest empty seat, between those neighbours where one is free."""
    table = four_players()
    table.do(EventKind.CASHED_OUT, {"player": "Bob"})
    table.do(EventKind.JOINED, {"player": "Eve", "buy_in": 50})  # after the last seat, as then
    assert table.log[-1][1] == {"player": "Eve", "buy_in": 50, "after": "Dee"}
    assert seat_numbers(table.machine.snapshot(1, "h")) == [("Ann", 1), ("Cy", 3), ("Dee", 4), ("Eve", 2)]
    table.do(EventKind.CASHED_OUT, {"player": "Cy"})
    table.do(EventKind.JOINED, {"player": "Fay", "buy_in": 50, "after": "Ann"})
    assert seat_numbers(table.machine.snapshot(1, "h")) == [("Ann", 1), ("Fay", 3), ("Dee", 4), ("Eve", 2)]
    table.do(EventKind.HAND_STARTED)
    hand = table.machine.live
    assert isinstance(hand, OfcHand) and hand.order == ("Eve", "Ann", "Fay", "Dee")  # Dee deals


def test_a_seat_number_is_kept_through_a_fold_of_the_log() -> None:
    table = opened({"Ann": 100, "Bob": 100, "Cy": 100}, "Bob")
    table.do(EventKind.CASHED_OUT, {"player": "Cy"})
    heads_up_hand(table)
    table.do(EventKind.CASHED_OUT, {"player": "Ann"})
    table.do(EventKind.JOINED, {"player": "Dee", "buy_in": 80, "seat": 3})
    table.do(EventKind.HANDED_OVER, {"dealer": "Rita"})
    rebuilt = Recorder()
    for kind, payload in table.log:
        rebuilt.do(kind, payload)
    snapshot = rebuilt.machine.snapshot(1, "h")
    assert snapshot == table.machine.snapshot(1, "h")
    assert seat_numbers(snapshot) == [("Bob", 2), ("Dee", 3)]
    assert (snapshot.empty_seats, snapshot.dealer) == ((1,), "Rita")


def test_a_hand_over_is_refused_without_a_dealer_and_at_a_closed_table() -> None:
    table = opened({"Ann": 100, "Bob": 100}, "Bob")
    with pytest.raises(ActionRefused, match="a dealer"):
        table.do(EventKind.HANDED_OVER, {"dealer": " "})
    table.do(EventKind.SESSION_CLOSED, {"supervisor": "Sue"})
    with pytest.raises(ActionRefused, match="closed"):
        table.do(EventKind.HANDED_OVER, {"dealer": "Rita"})


def test_a_voided_chinese_hand_shows_void() -> None:
    table = opened({"Ann": 20, "Bob": 20}, "Bob", variant="chinese", rules="chinese-typical")
    table.do(EventKind.HAND_STARTED)
    table.do(EventKind.SHOWN, {"player": "Ann", "cards": SEED_A, "rows": ROWS})
    table.do(EventKind.SHOWN, {"player": "Bob", "cards": SEED_B, "rows": ROWS})
    table.do(EventKind.HAND_SETTLED)
    assert not table.machine.snapshot(1, "h").hand_voided
    table.do(EventKind.HAND_VOIDED, {"hand": 1, "reason": "misdeal", "supervisor": "Sue"})
    snapshot = table.machine.snapshot(1, "h")
    assert snapshot.hand_voided and snapshot.variant == "chinese"
    assert {seat.name: seat.stack for seat in snapshot.seats} == {"Ann": 20, "Bob": 20}
