"""Rebuild a stored session as an `ofc-desk replay` script (issue 3's format) from its events.

The script replays event for event: each hand's `between` operations, its actions, an undo as
`{"op": "undo"}` where the dealer took an entry back, `{"op": "dealer", "name": …}` where another
dealer took over the table (so every event keeps its actor), and the supervisor's operations (`void`,
`correct_chips`, `change_rules`, `close`) in the `between` list of the hand that followed them
(or of a last hand with no actions). PINs are never stored, so those operations carry
`"pin": null` here; `ofc_desk.reports.exports.replay_script` fills them in from the PINs the
person exporting gives, or refuses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ofc_desk.service.events import SUPERVISED, EventKind
from ofc_desk.service.records import AuditRecord

SCRIPT_RULE_KEYS = (
    "rules", "house_options", "scoring", "variant", "progressive", "unit", "pair_units",
    "settlement", "settle_from", "last_three_face_down",
)  # fmt: skip
BETWEEN_OPS = {
    EventKind.JOINED: "join",
    EventKind.REBOUGHT: "rebuy",
    EventKind.CASHED_OUT: "cash_out",
    EventKind.SAT_OUT: "sit_out",
    EventKind.SAT_IN: "sit_in",
    EventKind.HAND_VOIDED: "void",
    EventKind.CHIPS_CORRECTED: "correct_chips",
    EventKind.RULES_CHANGED: "change_rules",
    EventKind.SESSION_CLOSED: "close",
}
OP_FIELDS = {
    "join": ("player", "buy_in", "after"),
    "rebuy": ("player", "amount"),
    "cash_out": ("player",),
    "sit_out": ("player",),
    "sit_in": ("player",),
    "void": ("hand", "reason"),
    "correct_chips": ("player", "amount", "reason"),
    "change_rules": (),
    "close": (),
}
SUPERVISED_OPS = frozenset({"void", "correct_chips", "change_rules", "close"})


@dataclass
class ScriptBuilder:
    header: dict[str, Any]
    hands: list[dict[str, Any]] = field(default_factory=list)
    pending_between: list[dict[str, Any]] = field(default_factory=list)
    dealer: str = ""

    @classmethod
    def from_events(cls, events: list[AuditRecord]) -> ScriptBuilder:
        builder = cls(header=_header(events[0]), dealer=events[0].actor)
        for event in events[1:]:
            builder.add(event)
        return builder

    def add(self, event: AuditRecord) -> None:
        kind = EventKind(event.kind)
        # A supervisor's event is recorded as the supervisor's: it says nothing of the dealer.
        if kind not in SUPERVISED and event.actor != self.dealer:
            self._hand_over(kind, event.actor)
        if kind in BETWEEN_OPS:
            self.pending_between.append(_between_op(BETWEEN_OPS[kind], event.payload))
        elif kind is EventKind.HAND_STARTED:
            self._start_hand()
        elif kind in (EventKind.PLACED, EventKind.REVEALED):
            self._actions().append(_action(event.payload))
        elif kind is EventKind.UNDONE:
            self._actions().append({"op": "undo"})

    def _hand_over(self, kind: EventKind, dealer: str) -> None:
        """Another dealer from this event on, said where the replay meets it: before the next
        hand is dealt, or among the actions of the hand being played."""
        op = {"op": "dealer", "name": dealer}
        if kind in BETWEEN_OPS or kind is EventKind.HAND_STARTED:
            self.pending_between.append(op)
        else:
            self._actions().append(op)
        self.dealer = dealer

    def _start_hand(self) -> None:
        hand: dict[str, Any] = {}
        if self.pending_between:
            hand["between"] = self.pending_between
            self.pending_between = []
        hand["actions"] = []
        self.hands.append(hand)

    def _actions(self) -> list[dict[str, Any]]:
        if not self.hands:  # an entry before any hand started cannot be stored; stay safe
            self._start_hand()
        actions: list[dict[str, Any]] = self.hands[-1]["actions"]
        return actions

    def script(self) -> dict[str, Any]:
        """The script, supervisor operations still without their PINs."""
        hands = list(self.hands)
        if self.pending_between:
            # Operations after the last hand: a hand with no actions carries them.
            hands.append({"between": self.pending_between, "actions": []})
        return {**self.header, "hands": hands}


def supervisors_needing_pins(script: Mapping[str, Any]) -> list[str]:
    """The supervisors whose PINs the script's supervised operations need, in order."""
    names: list[str] = []
    for hand in script.get("hands", ()):
        for op in hand.get("between", ()):
            name = op.get("supervisor")
            if op.get("op") in SUPERVISED_OPS and name and name not in names:
                names.append(name)
    return names


def _header(opening: AuditRecord) -> dict[str, Any]:
    payload = opening.payload
    rules = payload.get("rules", {})
    header: dict[str, Any] = {"table": payload.get("table", ""), "dealer": opening.actor}
    for key in SCRIPT_RULE_KEYS:
        value = rules.get(key)
        if value is not None and value != [] and value is not False:
            header[key] = value
    header["seats"] = [{"name": s["name"], "buy_in": s["buy_in"]} for s in payload["seats"]]
    header["button"] = payload.get("button")
    return header


def _between_op(op: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = {"op": op}
    for key in OP_FIELDS[op]:
        if payload.get(key) is not None:
            result[key] = payload[key]
    if op == "change_rules":
        rules = payload.get("rules", {})
        result.update({key: rules[key] for key in SCRIPT_RULE_KEYS if key in rules})
    if op in SUPERVISED_OPS:
        result["supervisor"] = payload.get("supervisor")
        result["pin"] = None
    return result


def _action(payload: Mapping[str, Any]) -> dict[str, Any]:
    cards = payload.get("cards") or []
    rows = payload.get("rows") or []
    return {
        "player": payload["player"],
        "cards": " ".join("??" if card is None else str(card) for card in cards),
        "rows": " ".join(str(row) for row in rows),
    }
