"""`can_x`: what the desk offers from its menus and buttons, answered by the service's own checks."""

from __future__ import annotations

from ofc_desk.service import TableService
from ofc_desk.service.events import EventKind
from ofc_desk.storage.database import Database
from tests.helpers.table_helpers import (
    ANN_QQ,
    BOB_PLAIN,
    CY_PLAIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    open_test_table,
    play_hand,
)


def offers(service: TableService, player: str = "Ann") -> dict[str, bool]:
    return {
        "start": service.can_start_next_hand(),
        "settle": service.can_confirm_settlement(),
        "undo": service.can_undo(),
        "join": service.can_join(),
        "rebuy": service.can_rebuy(player),
        "cash_out": service.can_cash_out(player),
        "sit_out": service.can_sit_out(player),
        "sit_in": service.can_sit_in(player),
        "void 1": service.can_void_hand(1),
        "correct": service.can_correct_chips(player),
        "rules": service.can_change_rules(),
        "close": service.can_close_session(),
    }


def test_between_hands_the_chip_and_supervisor_actions_are_offered(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    assert offers(service) == {
        "start": True, "settle": False, "undo": False, "join": True, "rebuy": True,
        "cash_out": True, "sit_out": True, "sit_in": False, "void 1": False, "correct": True,
        "rules": True, "close": True,
    }  # fmt: skip
    assert not service.can_rebuy("Zed") and not service.can_cash_out("Zed")


def test_during_a_hand_only_the_hand_is_offered(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    service.start_next_hand()
    assert {action for action, offered in offers(service).items() if offered} == set()
    service.place("Ann", "Qh Qd 2c Ah Kh", "front front front middle middle")
    assert service.can_undo() and not service.can_confirm_settlement()


def test_a_complete_hand_offers_its_settlement_then_its_void(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN, "Cy": CY_PLAIN}, settle=False)
    assert service.can_confirm_settlement() and not service.can_start_next_hand()
    service.confirm_settlement()
    assert service.can_void_hand(1) and not service.can_void_hand(2)
    # Ann goes to Fantasyland: the players of that hand may not leave before it is played.
    assert not service.can_cash_out("Bob") and not service.can_sit_out("Bob")
    service.void_hand(1, SUPERVISOR, SUPERVISOR_PIN, "misdeal")
    assert not service.can_void_hand(1)


def test_sitting_in_is_offered_to_a_player_sitting_out(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    service.sit_out("Ann")
    assert service.can_sit_in("Ann") and not service.can_sit_out("Ann")


def test_a_full_table_offers_no_seat(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy", variant="pineapple")
    assert not service.can_join()


def test_a_closed_session_offers_nothing(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    service.close_session(SUPERVISOR, SUPERVISOR_PIN)
    assert not any(offers(service).values())


def test_can_act_answers_as_the_action_of_its_own_name(database: Database) -> None:
    """A new chip operation's desk row asks `can_act` and needs no `can_x` in the service."""
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    assert service.can_act(EventKind.REBOUGHT, {"player": "Ann", "amount": 1})
    assert not service.can_act(EventKind.REBOUGHT, {"player": "Zed", "amount": 1})
    assert service.can_act(EventKind.CASHED_OUT, {"player": "Ann"})
    service.start_next_hand()
    assert not service.can_act(EventKind.REBOUGHT, {"player": "Ann", "amount": 1})
    assert not service.can_act(EventKind.CASHED_OUT, {"player": "Ann"})
