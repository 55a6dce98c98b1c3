"""Rebuild a stored session as an `ofc-desk replay` script (issue 3's format) from its events.

Undone entries are left out (the undo took them back); between-hand operations go into the next
hand's `between` list. A session with events the script format has no word for (a void, a chip
correction, a rules change) cannot replay to the same results, so no script is built for it and
`unsupported` says which event stopped it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ofc_desk.service.events import EventKind
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
}
NO_SCRIPT_WORD = {
    EventKind.HAND_VOIDED: "a void",
    EventKind.CHIPS_CORRECTED: "a chip correction",
    EventKind.RULES_CHANGED: "a rules change",
}
IGNORED = {EventKind.HAND_STARTED, EventKind.HAND_SETTLED, EventKind.SESSION_CLOSED}


@dataclass
class ScriptBuilder:
    header: dict[str, Any]
    hands: list[dict[str, Any]] = field(default_factory=list)
    pending_between: list[dict[str, Any]] = field(default_factory=list)
    unsupported: str | None = None

    @classmethod
    def from_events(cls, events: list[AuditRecord]) -> ScriptBuilder:
        builder = cls(header=_header(events[0].payload))
        for event in events[1:]:
            builder.add(event)
            if builder.unsupported:
                break
        return builder

    def add(self, event: AuditRecord) -> None:
        kind = EventKind(event.kind)
        if kind in NO_SCRIPT_WORD:
            self.unsupported = (
                f"event {event.seq} is {NO_SCRIPT_WORD[kind]}, which the replay script format cannot express"
            )
        elif kind in BETWEEN_OPS:
            self.pending_between.append(_between_op(BETWEEN_OPS[kind], event.payload))
        elif kind is EventKind.HAND_STARTED or (
            kind in (EventKind.PLACED, EventKind.REVEALED) and not self.hands
        ):
            self._start_hand()
        if kind in (EventKind.PLACED, EventKind.REVEALED):
            self._current_actions().append(_action(event.payload))
        elif kind is EventKind.UNDONE and self.hands and self._current_actions():
            self._current_actions().pop()

    def _start_hand(self) -> None:
        hand: dict[str, Any] = {}
        if self.pending_between:
            hand["between"] = self.pending_between
            self.pending_between = []
        hand["actions"] = []
        self.hands.append(hand)

    def _current_actions(self) -> list[dict[str, Any]]:
        actions: list[dict[str, Any]] = self.hands[-1]["actions"]
        return actions

    def script(self) -> dict[str, Any] | None:
        if self.unsupported:
            return None
        hands = [hand for hand in self.hands if hand["actions"] or hand.get("between")]
        if self.pending_between:
            # Operations after the last hand: a hand with no actions carries them.
            hands.append({"between": self.pending_between, "actions": []})
        return {**self.header, "hands": hands}


def _header(opening: Mapping[str, Any]) -> dict[str, Any]:
    rules = opening.get("rules", {})
    header: dict[str, Any] = {"table": opening.get("table", "")}
    for key in SCRIPT_RULE_KEYS:
        value = rules.get(key)
        if value is not None and value != [] and value is not False:
            header[key] = value
    header["seats"] = [{"name": s["name"], "buy_in": s["buy_in"]} for s in opening["seats"]]
    header["button"] = opening.get("button")
    return header


def _between_op(op: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = {"op": op, "player": payload["player"]}
    if op == "join":
        result["buy_in"] = payload["buy_in"]
        if payload.get("after"):
            result["after"] = payload["after"]
    elif op == "rebuy":
        result["amount"] = payload["amount"]
    return result


def _action(payload: Mapping[str, Any]) -> dict[str, Any]:
    cards = payload.get("cards") or []
    rows = payload.get("rows") or []
    return {
        "player": payload["player"],
        "cards": " ".join("??" if card is None else str(card) for card in cards),
        "rows": " ".join(str(row) for row in rows),
    }
