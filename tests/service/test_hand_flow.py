"""A whole hand through the service: turns, streets, discards, deck counts, undo, settlement."""

from __future__ import annotations

import pytest

from ofc_desk.core.rows import Row
from ofc_desk.service import ActionRefused, Phase, TableService, audit_log, hand_history
from ofc_desk.service.table.commands import Settle, StartHand, Undo
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.service.table.games.ofc.view_parts import OfcSeatView, OfcTableView
from ofc_desk.storage.database import Database
from tests.helpers.table_helpers import ANN_QQ, BOB_PLAIN, CY_PLAIN, Plan, dealer, open_test_table, play_hand


def test_regular_hand_turn_order_starts_left_of_the_dealer(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Bob")
    service.do(StartHand())
    snapshot = service.snapshot()
    assert snapshot.phase is Phase.LIVE
    assert snapshot.to_act is not None
    assert (snapshot.to_act.player, snapshot.to_act.take, OfcTableView.of(snapshot).street) == ("Cy", 5, 1)
    service.do(Place("Cy", CY_PLAIN.front + " " + "Ac Ad", "front front front middle middle"))
    service.do(Place("Ann", "Qh Qd 2c Ah Kh", "front front front middle middle"))
    service.do(Place("Bob", "Ks 5d 2d Jc Jd", "front front front middle middle"))
    turn = service.snapshot().to_act
    assert turn is not None
    assert (turn.player, turn.take, turn.place, turn.discard) == ("Cy", 1, 1, 0)
    assert OfcTableView.of(service.snapshot()).street == 2
    assert service.snapshot().cards_seen == 15
    assert service.snapshot().cards_left == 37


def test_pineapple_hand_with_unknown_discards_settles_like_the_core(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy", variant="pineapple")
    ann = Plan(ANN_QQ.front, ANN_QQ.middle, ANN_QQ.back, (None, None, None, None))
    play_hand(service, {"Ann": ann, "Bob": BOB_PLAIN, "Cy": CY_PLAIN}, settle=False)
    snapshot = service.snapshot()
    assert snapshot.phase is Phase.AWAITING_SETTLEMENT
    assert snapshot.cards_seen == 51
    assert snapshot.result is not None
    service.do(Settle())
    history = hand_history(database, service.session_id)
    assert [hand.number for hand in history] == [1]
    result = history[0].result
    assert result == snapshot.result  # the hand the desk showed for settling is the one stored
    stacks = {seat.name: seat.stack_after for seat in result.seats}
    assert sum(stacks.values()) == 300
    assert {seat.name: seat.stack for seat in service.snapshot().seats} == stacks
    assert OfcSeatView.of(service.snapshot().seat("Ann")).fantasyland_next == 14


def test_complete_rows_show_hand_name_and_live_royalty(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    service.do(StartHand())
    service.do(Place("Ann", "Qh Qd 2c Ah Kh", "front front front middle middle"))
    ann = service.snapshot().seat("Ann")
    assert (ann.row(Row.FRONT).hand_name, ann.row(Row.FRONT).points) == ("pair of queens", 7)
    assert ann.row(Row.MIDDLE).hand_name is None


def test_foul_is_marked_once_certain(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    service.do(StartHand())
    service.do(Place("Ann", "Qh Qd 2c 3h 4d", "front front front middle middle"))
    assert not service.snapshot().seat("Ann").foul_certain
    service.do(Place("Bob", "Ks 5d 2d Jc Jd", "front front front middle middle"))
    for card in ("5s", "7c", "9d"):
        assert not service.snapshot().seat("Ann").foul_certain
        service.do(Place("Ann", card, "middle"))
        service.do(Place("Bob", {"5s": "As", "7c": "Ac", "9d": "Ad"}[card], "back"))
    assert service.snapshot().seat("Ann").foul_certain


def test_undo_is_recorded_and_takes_back_the_last_entry(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    service.do(StartHand())
    service.do(Place("Ann", "Qh Qd 2c Ah Kh", "front front front middle middle"))
    service.do(Undo())
    snapshot = service.snapshot()
    assert snapshot.to_act is not None and snapshot.to_act.player == "Ann"
    assert snapshot.cards_seen == 0
    kinds = [row.kind for row in audit_log(database, service.session_id)]
    assert kinds == ["table_opened", "hand_started", "placed", "undone"]
    with pytest.raises(ActionRefused, match="nothing to undo in hand 1"):
        service.do(Undo())


def test_undo_after_the_last_card_reopens_the_hand(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN}, settle=False)
    assert service.snapshot().phase is Phase.AWAITING_SETTLEMENT
    service.do(Undo())
    assert service.snapshot().phase is Phase.LIVE
    assert service.snapshot().result is None


@pytest.mark.durable
def test_resume_mid_hand_rebuilds_the_same_table(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob", variant="pineapple")
    service.do(StartHand())
    service.do(Place("Ann", "Qh Qd 2c Ah Kh", "front front front middle middle"))
    service.do(Place("Bob", "Ks 5d 2d Jc Jd", "front front front middle middle"))
    service.do(Place("Ann", "9h 4h ??", "middle middle discard"))
    resumed = TableService.resume(database, service.session_id, dealer(database))
    assert resumed.snapshot() == service.snapshot()


def test_last_three_face_down_are_entered_together(database: Database) -> None:
    seats = [("Ann", 100), ("Bob", 100), ("Cy", 100), ("Dee", 100)]
    service = open_test_table(database, seats, "Dee", last_three_face_down=True)
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN, "Cy": CY_PLAIN}, settle=False)
    turns = [
        (row.payload["player"], len(row.payload["cards"]))
        for row in audit_log(database, service.session_id)
        if row.kind == "placed"
    ]
    assert [take for _, take in turns] == [5] * 4 + [1] * 20 + [3] * 4
    assert [player for player, _ in turns[-4:]] == ["Ann", "Bob", "Cy", "Dee"]
    assert service.snapshot().phase is Phase.AWAITING_SETTLEMENT


def test_a_second_desk_on_the_same_table_is_told_to_reload(database: Database) -> None:
    first = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    second = TableService.resume(database, first.session_id, dealer(database))
    first.do(StartHand())
    with pytest.raises(ActionRefused, match="this table was changed at another desk"):
        second.do(StartHand())
    assert second.snapshot() == first.snapshot()
    second.do(Place("Ann", "Qh Qd 2c Ah Kh", "front front front middle middle"))
    assert len(audit_log(database, first.session_id)) == 3
