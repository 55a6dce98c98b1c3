"""Sessions played through the real session service, for the reports' database tests."""

from __future__ import annotations

from typing import Any

from ofc_desk.service import SeatSetup, TableRules, TableService, TableSetup, open_table
from ofc_desk.service.table.commands import CashOut, Join, Rebuy, Settle, SitIn, SitOut, StartHand
from ofc_desk.service.table.games.ofc.commands import Place, Reveal
from ofc_desk.service.table.games.ofc.view_parts import OfcTurn
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, sign_in
from tests.helpers.replay_helpers import EXPECTED, load_example, read_object

DEALER, DEALER_PIN = "Dana", "1234"
SUPERVISOR, SUPERVISOR_PIN = "Sam", "98769876"


def example_script() -> dict[str, Any]:
    """The shared twelve-hand progressive pineapple session (the worked example)."""
    return load_example()


def expected_example() -> dict[str, Any]:
    return read_object(EXPECTED)


def new_database(url: str) -> Database:
    database = Database(url)
    create_accounts(
        database, [(SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN), (DEALER, Role.DEALER, DEALER_PIN)]
    )
    return database


def play_script(database: Database, script: dict[str, Any]) -> TableService:
    """Drive the session service through a replay script, as the dealer at the desk would."""
    setup = TableSetup(
        script["table"],
        tuple(SeatSetup(s["name"], s["buy_in"]) for s in script["seats"]),
        script["button"],
        TableRules.from_json(script),
    )
    service = open_table(database, setup, sign_in(database, DEALER, DEALER_PIN))
    play_hands(service, script["hands"])
    return service


def play_hands(service: TableService, hands: list[dict[str, Any]]) -> None:
    """Go on with a script's hands at an open table."""
    operations = {
        "rebuy": lambda op: service.do(Rebuy(op["player"], op["amount"])),
        "join": lambda op: service.do(Join(op["player"], op["buy_in"], op.get("after"))),
        "cash_out": lambda op: service.do(CashOut(op["player"])),
        "sit_out": lambda op: service.do(SitOut(op["player"])),
        "sit_in": lambda op: service.do(SitIn(op["player"])),
    }
    for hand in hands:
        for op in hand.get("between", ()):
            operations[op["op"]](op)
        if not hand["actions"]:
            continue
        service.do(StartHand())
        enter_actions(service, hand["actions"])
        service.do(Settle())


def enter_actions(service: TableService, actions: list[dict[str, Any]]) -> None:
    """A script's actions in the live hand: streets placed, Fantasyland sets revealed."""
    for action in actions:
        turn = service.snapshot().to_act
        if turn is not None and turn.kind is OfcTurn.STREET:
            service.do(Place(action["player"], action["cards"], action["rows"]))
        else:
            service.do(Reveal(action["player"], action["cards"], action["rows"]))
