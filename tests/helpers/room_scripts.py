"""Replay scripts for a room of tables: the published pineapple example under other table names,
with supervised work between hands (a void, a chip correction, a cash-out, a close)."""

from __future__ import annotations

import copy
from typing import Any

from tests.helpers.replay_helpers import load_example

DEALER, DEALER_PIN = "Dana", "1234"
SUPERVISOR, SUPERVISOR_PIN = "Sam", "98769876"
USERS = [
    {"name": DEALER, "role": "dealer", "pin": DEALER_PIN},
    {"name": SUPERVISOR, "role": "supervisor", "pin": SUPERVISOR_PIN},
]


def example_script() -> dict[str, Any]:
    return load_example()


def _supervised(op: str, **fields: Any) -> dict[str, Any]:
    return {"op": op, **fields, "supervisor": SUPERVISOR, "pin": SUPERVISOR_PIN}


RAKES: tuple[dict[str, Any], ...] = (
    {"mode": "percent-of-win", "amount": 0, "percent": 10, "cap": 4, "jackpot_percent": 25},
    {"mode": "per-player", "amount": 1, "percent": 0, "cap": 3, "jackpot_percent": 34},
)


def table_script(
    table: str, hands: int, *, extras: bool, close: bool, rake: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The example's first `hands` hands at `table`; with `extras`, hand 2 is voided and Ann's
    chips corrected before hand 4 and Bob cashes out at the end; with `close`, the supervisor
    closes the table after its last hand; `rake` is the house's rake and jackpot drop."""
    script = example_script()
    if rake is not None:
        script["house_options"] = {"rake": rake}
    script["table"], script["dealer"], script["users"] = table, DEALER, copy.deepcopy(USERS)
    script["hands"] = script["hands"][:hands]
    trailing: list[dict[str, Any]] = []
    if extras:
        assert hands >= 4, "the extras need four hands"
        between = script["hands"][3].setdefault("between", [])
        between[:0] = [
            _supervised("void", hand=2, reason="misdeal"),
            _supervised("correct_chips", player="Ann", amount=3, reason="miscount"),
        ]
        trailing.append({"op": "cash_out", "player": "Bob"})
    if close:
        trailing.append(_supervised("close"))
    if trailing:
        script["hands"].append({"between": trailing, "actions": []})
    return script
