"""What the supervisor's actions (void a hand, correct chips, change the rules, close the session)
share beside their specs in `actions.supervised`: the table they read and change
(`SupervisedTable`) and the supervisor an action names (`approver`, read by the decision on a
request to the floor and by `verify` too).

`TableMachine.check` refuses an action a supervisor signs that names none before its check runs;
the service has checked the supervisor's PIN before that.
"""

from __future__ import annotations

from typing import Protocol

from ofc_desk.service.room.requests import RequestTable
from ofc_desk.service.room.room_pool import PoolTable
from ofc_desk.service.table.carry import CarryOver
from ofc_desk.service.table.rule_pins import PinnedPresets
from ofc_desk.service.table.seats import Seat
from ofc_desk.service.terms import reading
from ofc_desk.service.terms.payloads import RawPayload
from ofc_desk.service.terms.setup import TableRules


class SupervisedTable(RequestTable, PoolTable, Protocol):
    """What the supervisor's actions read and change of a table (the machine; taken, not
    imported back)."""

    seats: list[Seat]
    voided: set[int]
    jackpot_pool: int
    rules: TableRules
    pinned_presets: PinnedPresets
    closed: bool
    carried: CarryOver

    def seat(self, name: str) -> Seat: ...

    def set_rules(self, rules: TableRules) -> None: ...


def approver(raw: RawPayload) -> str:
    """The supervisor the action names, as given."""
    return reading.text(raw, "supervisor")
