"""Rebuild a stored session as an `ofc-desk replay` script (issue 3's format) from its events.

The script replays event for event: each hand's `between` operations, its actions, an undo as
`{"op": "undo"}` where the dealer took an entry back, `{"op": "dealer", "name": …}` where another
dealer took over the table (its `handed_over` event, or where the actor changes in a session recorded
before hand-overs were events: so every event keeps its actor), and the supervisor's operations (`void`,
`correct_chips`, `change_rules`, `close`) in the `between` list of the hand that followed them
(or of a last hand with no actions). PINs are never stored, so those operations carry
`"pin": null` here; `ofc_desk.reports.exports.replay_script` lists their supervisors under `users`
by name and role, and whoever replays the script gives their PINs as for any replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ofc_desk.reports.games import report_game
from ofc_desk.reports.games.base import ReportGame
from ofc_desk.service.replays.replay_vocabulary import (
    DEALER_OP,
    OP_FIELDS,
    OP_NAMES,
    RULE_KEYS,
    SUPERVISED_OPS,
    SUPERVISOR_KEY,
    UNDO_OP,
)
from ofc_desk.service.room.requests import REQUEST_KEY
from ofc_desk.service.store.records import AuditRecord
from ofc_desk.service.table.actions import SUPERVISED
from ofc_desk.service.table.dealers import HAND_OVERS
from ofc_desk.service.terms.events import EventKind

FLOOR_KINDS = (EventKind.REQUEST_MADE, EventKind.REQUEST_DECIDED)
DECIDE = OP_NAMES[EventKind.REQUEST_DECIDED]


@dataclass
class ScriptBuilder:
    header: dict[str, Any]
    game: ReportGame
    """The game the table played (all session long): it spells its players' entries."""
    hands: list[dict[str, Any]] = field(default_factory=list)
    pending_between: list[dict[str, Any]] = field(default_factory=list)
    dealer: str = ""
    live: bool = False
    """A hand is being played: a request to the floor or its decision goes among its actions."""

    pins: Mapping[str, Any] = field(default_factory=dict)
    """Presets migration 0007 pinned for a session that named them: the script carries their
    numbers, so it replays as the session was played whatever the files hold now."""

    @classmethod
    def from_events(cls, events: list[AuditRecord]) -> ScriptBuilder:
        pinned = next((e.payload for e in events if e.kind == EventKind.RULES_PINNED), {})
        pins = pinned.get("presets", {})
        game = report_game(events[0].payload.get("rules", {}))
        builder = cls(header=_header(events[0], pins), game=game, dealer=events[0].actor, pins=pins)
        for event in events[1:]:
            builder.add(event)
        return builder

    def add(self, event: AuditRecord) -> None:
        kind = EventKind(event.kind)
        if kind is EventKind.RULES_PINNED:
            return  # no step of a script: the pinned numbers are in its rules already
        # A supervisor's event is recorded as the supervisor's: it says nothing of the dealer.
        if kind not in SUPERVISED and event.actor != self.dealer:
            self._hand_over(kind, event.actor)
        if kind in HAND_OVERS:
            self._hand_over(kind, str(event.payload["dealer"]))
        elif kind in FLOOR_KINDS and self.live:
            self._actions().append(_between_op(kind, event.payload, self.pins))
        elif kind in OP_NAMES:
            self.pending_between.append(_between_op(kind, event.payload, self.pins))
        elif kind is EventKind.HAND_STARTED:
            self._start_hand()
            self.live = True
        elif kind is EventKind.HAND_SETTLED:
            self.live = False
        elif kind in self.game.entry_kinds:
            self._actions().append(self.game.script_entry(event.payload))
        elif kind is EventKind.UNDONE:
            self._actions().append({"op": UNDO_OP})

    def _hand_over(self, kind: EventKind, dealer: str) -> None:
        """Another dealer from this event on, said where the replay meets it: before the next
        hand is dealt, or among the actions of the hand being played."""
        op = {"op": DEALER_OP, "name": dealer}
        between = kind in OP_NAMES or kind is EventKind.HAND_STARTED
        if between or (kind in HAND_OVERS and not self.live):
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
    """The supervisors whose PINs the script's supervised operations need, in order (an action
    carried out on the floor's approval needs none)."""
    names: list[str] = []
    for hand in script.get("hands", ()):
        for op in (*hand.get("between", ()), *hand.get("actions", ())):
            name = op.get(SUPERVISOR_KEY)
            carried_out = op.get(REQUEST_KEY) is not None and op.get("op") != DECIDE
            needs_pin = op.get("op") in SUPERVISED_OPS and not carried_out
            if needs_pin and name and name not in names:
                names.append(name)
    return names


def _with_pin(rules: Mapping[str, Any], pins: Mapping[str, Any]) -> Mapping[str, Any]:
    chosen = rules.get("rules")
    return {**rules, "rules": pins[chosen]} if isinstance(chosen, str) and chosen in pins else rules


def _header(opening: AuditRecord, pins: Mapping[str, Any]) -> dict[str, Any]:
    payload = opening.payload
    rules = _with_pin(payload.get("rules", {}), pins)
    header: dict[str, Any] = {"table": payload.get("table", ""), "dealer": opening.actor}
    for key in RULE_KEYS:
        value = rules.get(key)
        if value is not None and value != [] and value is not False:
            header[key] = value
    header["seats"] = [{"name": s["name"], "buy_in": s["buy_in"]} for s in payload["seats"]]
    header["button"] = payload.get("button")
    return header


def _between_op(kind: EventKind, payload: Mapping[str, Any], pins: Mapping[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = {"op": OP_NAMES[kind]}
    for key in OP_FIELDS[kind]:
        if payload.get(key) is not None:
            result[key] = payload[key]
    if kind is EventKind.RULES_CHANGED:
        rules = _with_pin(payload.get("rules", {}), pins)
        result.update({key: rules[key] for key in RULE_KEYS if key in rules})
    if kind in SUPERVISED:
        result[SUPERVISOR_KEY] = payload.get(SUPERVISOR_KEY)  # never a PIN: the replay asks for it
    return result
