"""Fantasyland through chains of hands: entry, stay, progressive counts, the cap, the button."""

from __future__ import annotations

import pytest

from ofc_desk.service import ActionRefused, TableService, hand_history
from ofc_desk.service.table.commands import CashOut, CorrectChips, Rebuy, SitOut, StartHand
from ofc_desk.service.table.games.ofc.record import OfcRecord
from ofc_desk.service.table.games.ofc.view_parts import OfcSeatView, OfcTableView, OfcTurn
from ofc_desk.service.terms.snapshot import Phase
from ofc_desk.storage.database import Database
from tests.helpers.table_helpers import (
    SUPERVISOR,
    SUPERVISOR_PIN,
    Plan,
    open_test_table,
    play_hand,
    play_streets,
)

KINGS = Plan("Kh Kd 2c", "Ah Qh 9h 4h 2h", "7s 7d 7c 3s 3d")
QUEENS = Plan("Qh Qd 2c", "Ah Kh 9h 4h 2h", "7s 7d 7c 3s 3d")
ACES = Plan("Ah Ad 2c", "Kh Qh 9h 4h 2h", "7s 7d 7c 3s 3d")
TRIPS = Plan("5h 5d 5c", "9s 9h 9d 4s 4d", "Qs Qh Qd Qc 2s")
FOULED_QUEENS = Plan("Qh Qd 2c", "Ah Kh 9h 4h 3s", "7s 6d 5c 3h 2s")
FOULED_BOB = Plan("Ks Kc 2d", "Jc Jd 9c 4c 3c", "Ts 9s 8d 7h 6c")
SEATS = [("Ann", 200), ("Bob", 200), ("Cy", 200)]


def pineapple(database: Database, **rules: object) -> TableService:
    return open_test_table(database, SEATS, "Cy", variant="pineapple", **rules)


@pytest.mark.parametrize(
    ("plan", "cards"), [(QUEENS, 14), (KINGS, 15), (ACES, 16), (TRIPS, 17), (FOULED_QUEENS, 0)]
)
def test_progressive_entry_cards(database: Database, plan: Plan, cards: int) -> None:
    service = pineapple(database, progressive=True)
    play_hand(service, {"Ann": plan})
    assert OfcSeatView.of(service.snapshot().seat("Ann")).fantasyland_next == cards
    assert OfcTableView.of(service.snapshot()).button_held_for_fantasyland is bool(cards)


@pytest.mark.parametrize(("variant", "cards"), [("regular", 13), ("pineapple", 14)])
def test_plain_entry_cards(database: Database, variant: str, cards: int) -> None:
    service = open_test_table(database, SEATS, "Cy", variant=variant)
    play_hand(service, {"Ann": ACES})
    assert OfcSeatView.of(service.snapshot().seat("Ann")).fantasyland_next == cards


def test_entry_stay_and_exit_chain_holds_then_moves_the_button(database: Database) -> None:
    service = pineapple(database, progressive=True)
    play_hand(service, {"Ann": KINGS})
    play_hand(service, {"Ann": TRIPS})
    play_hand(service, {"Ann": QUEENS})
    play_hand(service, {})
    hands = hand_history(database, service.session_id)
    assert [(h.button, OfcRecord.of(h.part).fantasyland) for h in hands] == [
        ("Cy", {}),
        ("Cy", {"Ann": 15}),
        ("Cy", {"Ann": 14}),
        ("Ann", {}),
    ]
    fantasyland_next = [h.result.seats[0].fantasyland_next for h in hands]
    assert fantasyland_next == [15, 14, 0, 0]


def test_fantasyland_player_enters_the_whole_set_last(database: Database) -> None:
    service = pineapple(database, progressive=True)
    play_hand(service, {"Ann": KINGS})
    service.do(StartHand())
    snapshot = service.snapshot()
    assert OfcSeatView.of(snapshot.seat("Ann")).fantasyland_cards == 15
    assert snapshot.to_act is not None and snapshot.to_act.player == "Bob"
    # Ann's 15 cards were dealt face down when the hand began: they are out of the deck.
    assert snapshot.cards_seen == 0
    assert snapshot.cards_left == 52 - 15


def test_a_hand_waiting_for_a_fantasyland_set_is_live_and_says_the_wait(database: Database) -> None:
    service = pineapple(database, progressive=True)
    play_hand(service, {"Ann": KINGS})
    service.do(StartHand())
    play_streets(service, {}, until=OfcTurn.FANTASYLAND_SET)
    snapshot = service.snapshot()
    assert snapshot.to_act is not None and snapshot.to_act.kind is OfcTurn.FANTASYLAND_SET
    assert snapshot.phase is Phase.LIVE
    with pytest.raises(
        ActionRefused, match="rebuys only between hands: hand 2 is waiting for Fantasyland sets"
    ):
        service.do(Rebuy("Bob", 40))
    play_streets(service, {}, settle=False)
    with pytest.raises(ActionRefused, match="rebuys only between hands: hand 2 is awaiting settlement"):
        service.do(Rebuy("Bob", 40))


def test_consecutive_cap_ends_the_chain(database: Database) -> None:
    capped = {"fantasyland": {"max_consecutive": 2}}
    service = pineapple(database, progressive=True, house_options=capped)
    play_hand(service, {"Ann": KINGS})
    play_hand(service, {"Ann": TRIPS})
    assert OfcSeatView.of(service.snapshot().seat("Ann")).fantasyland_next == 14
    play_hand(service, {"Ann": TRIPS})
    assert OfcSeatView.of(service.snapshot().seat("Ann")).fantasyland_next == 0
    assert not OfcTableView.of(service.snapshot()).button_held_for_fantasyland


def test_without_cap_the_stay_goes_on(database: Database) -> None:
    service = pineapple(database, progressive=True)
    for plan in (KINGS, TRIPS, TRIPS):
        play_hand(service, {"Ann": plan})
    assert OfcSeatView.of(service.snapshot().seat("Ann")).fantasyland_next == 14


def test_players_of_the_sending_hand_stay_until_fantasyland_is_played(database: Database) -> None:
    service = pineapple(database, progressive=True)
    play_hand(service, {"Ann": KINGS})
    expected = (
        "Bob played the hand that sent Ann to Fantasyland:"
        " Bob cannot sit out before that Fantasyland hand is finished"
    )
    with pytest.raises(ActionRefused, match=expected):
        service.do(SitOut("Bob"))
    with pytest.raises(ActionRefused, match="Cy cannot leave before"):
        service.do(CashOut("Cy"))
    assert service.snapshot().seat("Bob").locked_reason == "must stay until Ann's Fantasyland hand is over"
    service.do(Rebuy("Bob", 10))
    play_hand(service, {"Ann": QUEENS})
    service.do(SitOut("Bob"))
    service.do(CashOut("Cy"))
    assert [seat.name for seat in service.snapshot().seats] == ["Ann", "Bob"]


@pytest.mark.parametrize("leaves", [SitOut, CashOut])
def test_a_fantasyland_forfeited_by_leaving_holds_nobody(
    database: Database, leaves: type[SitOut | CashOut]
) -> None:
    service = open_test_table(database, [("Ann", 200), ("Bob", 200)], "Bob", variant="pineapple")
    play_hand(service, {"Ann": QUEENS})
    assert service.snapshot().seat("Bob").locked_reason is not None
    service.do(leaves("Ann"))  # Ann forfeits her Fantasyland hand
    assert service.snapshot().seat("Bob").locked_reason is None
    service.do(CashOut("Bob"))  # heads-up, Bob would otherwise be held for a hand that cannot be dealt
    assert [seat.name for seat in service.snapshot().seats] == (["Ann"] if leaves is SitOut else [])


def test_a_player_with_no_chips_is_not_held_for_fantasyland(database: Database) -> None:
    service = open_test_table(database, [("Ann", 200), ("Bob", 200), ("Cy", 200)], "Cy", variant="pineapple")
    service.do(CorrectChips("Bob", -195, "test: a short stack", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    play_hand(service, {"Ann": QUEENS, "Bob": FOULED_BOB})
    assert service.snapshot().seat("Bob").stack == 0
    assert service.snapshot().seat("Bob").locked_reason is None
    with pytest.raises(ActionRefused, match="Cy cannot sit out"):
        service.do(SitOut("Cy"))
    service.do(SitOut("Bob"))  # rather than a rebuy he does not want
    play_hand(service, {})
    assert OfcRecord.of(hand_history(database, service.session_id)[-1].part).fantasyland == {"Ann": 14}
