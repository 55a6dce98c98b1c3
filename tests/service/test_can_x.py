"""`can_x`: what the desk offers from its menus and buttons, answered by the service's own checks."""

from __future__ import annotations

from ofc_desk.service import TableService
from ofc_desk.service.table.commands import (
    CashOut,
    ChangeRules,
    CloseSession,
    CorrectChips,
    Rebuy,
    Scripted,
    Settle,
    SitIn,
    SitOut,
    StartHand,
    Undo,
    VoidHand,
    newcomer,
)
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.service.terms.events import EventKind
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
        "start": service.can(StartHand()),
        "settle": service.can(Settle()),
        "undo": service.can(Undo()),
        "join": service.can(newcomer([seat.name for seat in service.machine.seats])),
        "rebuy": service.can(Rebuy(player, 1)),
        "cash_out": service.can(CashOut(player)),
        "sit_out": service.can(SitOut(player)),
        "sit_in": service.can(SitIn(player)),
        "void 1": service.can(VoidHand(1)),
        "correct": service.can(CorrectChips(player, 1, "a reason")),
        "rules": service.can(ChangeRules(service.rules)),
        "close": service.can(CloseSession()),
    }


def test_between_hands_the_chip_and_supervisor_actions_are_offered(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    assert offers(service) == {
        "start": True, "settle": False, "undo": False, "join": True, "rebuy": True,
        "cash_out": True, "sit_out": True, "sit_in": False, "void 1": False, "correct": True,
        "rules": True, "close": True,
    }  # fmt: skip
    assert not service.can(Rebuy("Zed", 1)) and not service.can(CashOut("Zed"))


def test_during_a_hand_only_the_hand_is_offered(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    service.do(StartHand())
    assert {action for action, offered in offers(service).items() if offered} == set()
    service.do(Place("Ann", "Qh Qd 2c Ah Kh", "front front front middle middle"))
    assert service.can(Undo()) and not service.can(Settle())


def test_a_complete_hand_offers_its_settlement_then_its_void(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    play_hand(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN, "Cy": CY_PLAIN}, settle=False)
    assert service.can(Settle()) and not service.can(StartHand())
    service.do(Settle())
    assert service.can(VoidHand(1)) and not service.can(VoidHand(2))
    # Ann goes to Fantasyland: the players of that hand may not leave before it is played.
    assert not service.can(CashOut("Bob")) and not service.can(SitOut("Bob"))
    service.do(VoidHand(1, "misdeal", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    assert not service.can(VoidHand(1))


def test_sitting_in_is_offered_to_a_player_sitting_out(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    service.do(SitOut("Ann"))
    assert service.can(SitIn("Ann")) and not service.can(SitOut("Ann"))


def test_a_full_table_offers_no_seat(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy", variant="pineapple")
    assert not service.can(newcomer([seat.name for seat in service.machine.seats]))


def test_a_closed_session_offers_nothing(database: Database) -> None:
    service = open_test_table(database, [("Ann", 100), ("Bob", 100)], "Bob")
    service.do(CloseSession(supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    assert not any(offers(service).values())


def test_can_act_answers_as_the_action_of_its_own_name(database: Database) -> None:
    """A new chip operation's desk row asks `can_act` and needs no `can_x` in the service."""
    service = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    assert service.can(Scripted(event=EventKind.REBOUGHT, payload={"player": "Ann", "amount": 1}))
    assert not service.can(Scripted(event=EventKind.REBOUGHT, payload={"player": "Zed", "amount": 1}))
    assert service.can(Scripted(event=EventKind.CASHED_OUT, payload={"player": "Ann"}))
    service.do(StartHand())
    assert not service.can(Scripted(event=EventKind.REBOUGHT, payload={"player": "Ann", "amount": 1}))
    assert not service.can(Scripted(event=EventKind.CASHED_OUT, payload={"player": "Ann"}))
