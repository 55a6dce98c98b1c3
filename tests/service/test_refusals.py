"""Every refusal speaks the dealer's language and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ofc_desk.service import ActionRefused, TableService, audit_log
from ofc_desk.service.table.commands import CashOut, CloseSession, Command, Join, Rebuy, SitOut, StartHand
from ofc_desk.service.table.games.ofc.commands import Place, Reveal
from ofc_desk.storage.database import Database
from tests.helpers.table_helpers import ANN_QQ, BOB_PLAIN, CY_PLAIN, SUPERVISOR, open_test_table, play_hand


@pytest.fixture
def pineapple(database: Database) -> TableService:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy", variant="pineapple")
    service.do(StartHand())
    return service


def refused(action: Callable[..., object], *args: object) -> str:
    with pytest.raises(ActionRefused) as caught:
        action(*args)
    return str(caught.value)


def test_out_of_turn(pineapple: TableService) -> None:
    message = refused(pineapple.do, Place("Bob", "As Kd 7h 7c 2s", "back back middle middle front"))
    assert message == "it is Ann's turn, not Bob's"
    assert refused(pineapple.check_typing, Place("Bob", "As", "back")) == "it is Ann's turn, not Bob's"


def test_row_already_full(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    service.do(StartHand())
    service.do(Place("Ann", "Qh Qd 2c Ah Kh", "front front front middle middle"))
    service.do(Place("Bob", "Ks 5d 2d Jc Jd", "front front front middle middle"))
    assert refused(service.do, Place("Ann", "9s", "front")) == "Ann's front already holds 3 cards"


def test_duplicate_card_names_where_it_lies(pineapple: TableService) -> None:
    pineapple.do(Place("Ann", "As Kd 7h Qs 2s", "back back middle middle front"))
    message = refused(pineapple.check_typing, Place("Bob", "Qs", "front"))
    assert message == "Qs is already in Ann's middle"
    assert refused(pineapple.check_typing, Place("Bob", "Jh Jh", "front back")) == "Jh is entered twice"


def test_partial_street_is_checked_as_typed(pineapple: TableService) -> None:
    pineapple.check_typing(Place("Ann", "As Kd", "back back"))
    pineapple.do(Place("Ann", "As Kd 7h 7c 2s", "back back middle middle front"))
    pineapple.do(Place("Bob", "Ac Kc 7d 7s 2d", "back back middle middle front"))
    pineapple.do(Place("Cy", "Ah Kh 8d 8s 3d", "back back middle middle front"))
    pineapple.check_typing(Place("Ann", "??", "discard"))
    assert refused(pineapple.check_typing, Place("Ann", "?? ??", "discard discard")) == (
        "pineapple: place 2 cards and discard 1"
    )


def test_pineapple_street_must_place_two_and_discard_one(pineapple: TableService) -> None:
    pineapple.do(Place("Ann", "As Kd 7h 7c 2s", "back back middle middle front"))
    pineapple.do(Place("Bob", "Ac Kc 7d 7s 2d", "back back middle middle front"))
    pineapple.do(Place("Cy", "Ah Kh 8d 8s 3d", "back back middle middle front"))
    expected = "pineapple: place 2 cards and discard 1"
    assert refused(pineapple.do, Place("Ann", "Qh Qd Jc", "front front front")) == expected
    assert refused(pineapple.do, Place("Ann", "Qh Qd", "front front")) == expected
    message = refused(pineapple.do, Place("Ann", "?? Qd Jc", "front middle discard"))
    assert message == "?? can only be a discard: name each card placed in a row"


def test_first_street_has_no_discard(pineapple: TableService) -> None:
    message = refused(pineapple.do, Place("Ann", "As Kd 7h 7c ??", "back back middle middle discard"))
    assert message == "first street: place all 5 cards, no discard"


def test_a_sixth_card_on_a_first_street_is_named_as_one_too_many(pineapple: TableService) -> None:
    rows = "back back middle middle front front"
    message = refused(pineapple.check_typing, Place("Ann", "As Kd 7h 7c 2d 3d", rows))
    assert message == "5 cards is the most on a first street"


def test_bad_card_and_row_words(pineapple: TableService) -> None:
    assert "'Zz' (card 2)" in refused(pineapple.check_typing, Place("Ann", "As Zz", "back back"))
    assert "'top-left' is not a row" in refused(pineapple.check_typing, Place("Ann", "As", "top-left"))
    message = refused(pineapple.check_typing, Place("Ann", "As Kd", "back"))
    assert message == "2 cards but 1 rows: give one row for each card"


def test_player_without_chips_must_rebuy_or_sit_out(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 6)], "Bob")
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    assert service.snapshot().seat("Bob").stack == 0
    assert refused(service.do, StartHand()) == "Bob has no chips: rebuy or sit out"
    service.do(Rebuy("Bob", 20))
    service.do(StartHand())


def test_chip_operations_only_between_hands(pineapple: TableService) -> None:
    assert refused(pineapple.do, Rebuy("Ann", 50)) == "rebuys only between hands: hand 1 is live"
    assert refused(pineapple.do, CashOut("Bob")).startswith("cash-outs only between hands")
    assert refused(pineapple.do, SitOut("Bob")).startswith("players sit out only between hands")
    assert refused(pineapple.do, Join("Dee", 50)).startswith("players join only between hands")


def test_refusals_store_nothing(pineapple: TableService, database: Database) -> None:
    before = len(audit_log(database, pineapple.session_id))
    commands: list[Command] = [
        Place("Bob", "As", "back"),
        Rebuy("Ann", 5),
        CloseSession(supervisor=SUPERVISOR, pin="0000"),
    ]
    for command in commands:
        with pytest.raises(ActionRefused):
            pineapple.do(command)
    assert len(audit_log(database, pineapple.session_id)) == before


def test_fantasyland_set_waits_for_the_others(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy", variant="pineapple")
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN, "Cy": CY_PLAIN})
    service.do(StartHand())
    turn = service.snapshot().to_act
    assert turn is not None and turn.player == "Bob"
    message = refused(service.check_typing, Reveal("Ann", "As", "back"))
    assert message == (
        "Ann's Fantasyland set is entered after every other player has finished; it is Bob's turn"
    )
    assert refused(service.check_typing, Reveal("Bob", "As", "back")) == (
        "Bob is not in Fantasyland: enter the street"
    )


def test_table_setup_is_checked(database: Database) -> None:
    seats = [("Ann", 100), ("Bob", 100), ("Cy", 100), ("Dee", 100)]
    with pytest.raises(ActionRefused, match="pineapple seats 2 to 3 players, not 4"):
        open_test_table(database, seats, "Dee", variant="pineapple")
    with pytest.raises(ActionRefused, match="Ann is seated twice"):
        open_test_table(database, [("Ann", 100), ("Ann", 100)], "Ann")
    with pytest.raises(ActionRefused, match="unknown preset 'casino-x'"):
        open_test_table(database, [("Ann", 100), ("Bob", 100)], "Ann", rules="casino-x")
    with pytest.raises(ActionRefused, match="the last 3 cards face down is an option of regular"):
        open_test_table(
            database, [("Ann", 9), ("Bob", 9)], "Ann", variant="pineapple", last_three_face_down=True
        )
    with pytest.raises(ActionRefused, match="a buy-in is a whole number of chips from 1 to "):
        open_test_table(database, [("Ann", 0), ("Bob", 100)], "Ann")
    with pytest.raises(ActionRefused, match="from 1 to 1,000,000,000,000, not 1180591620717411303424"):
        open_test_table(database, [("Ann", 2**70), ("Bob", 100)], "Ann")
