"""Scripted sessions (`ofc-desk replay`): play a script through `TableService`, persisting as it
goes; with `resume`, first check that what is stored matches the script, then carry on.

A step's label is how a refusal is reported: "hand 3, action 7: it is Bob's turn, not Ann's".
Actions and between-hand operations are numbered from 1 within their hand.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from ofc_desk.service.errors import ActionRefused
from ofc_desk.service.events import EventKind
from ofc_desk.service.machine import TableMachine
from ofc_desk.service.persistence import read_hands
from ofc_desk.service.replay_accounts import (
    AccountRefused,
    PinSource,
    ReplayAccounts,
    no_pins,
    prepare_accounts,
)
from ofc_desk.service.setup import SeatSetup, TableRules, TableSetup
from ofc_desk.service.snapshot import Phase
from ofc_desk.service.table_service import TableService
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, TableSession
from ofc_desk.storage.users import SignInError

RULE_KEYS = (
    "rules",
    "house_options",
    "scoring",
    "variant",
    "progressive",
    "unit",
    "pair_units",
    "settlement",
    "settle_from",
    "last_three_face_down",
)


SCRIPT_KEYS = frozenset(("table", "seats", "button", "dealer", "users", "hands", *RULE_KEYS))


class ReplayError(Exception):
    """A refused step; `str()` is the one line for standard error."""


def refuse_unknown_keys(data: Mapping[str, Any], known: Iterable[str], where: str) -> None:
    """A misspelt key ("setlement") must not be ignored and the default played instead."""
    known = tuple(known)
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        close = difflib.get_close_matches(unknown[0], known, n=1)
        hint = f" (did you mean {close[0]}?)" if close else f" (use {', '.join(sorted(known))})"
        raise ReplayError(f"{where}.{unknown[0]}: unknown key{hint}")


@dataclass(frozen=True)
class Step:
    hand: int
    label: str
    kind: EventKind
    raw: dict[str, Any]
    pin: str | None = None

    def where(self) -> str:
        return f"hand {self.hand}, {self.label}"


@dataclass(frozen=True)
class HandOver:
    """`{"op": "dealer", "name": "Yan"}`: another dealer takes over; no event of its own, but
    every event after it is recorded as theirs (a shift change within the script)."""

    dealer: str


def run_replay(
    database: Database, script: Mapping[str, Any], *, resume: bool, pins: PinSource = no_pins
) -> dict[str, Any]:
    """Play `script` into `database`; return the replay output (all hands, read back). `pins` gives
    the PINs of existing accounts the script's own `users` entries do not."""
    if not isinstance(script, Mapping):
        raise ReplayError("script: must be a JSON object")
    refuse_unknown_keys(script, SCRIPT_KEYS, "script")
    table = str(script.get("table") or "").strip()
    if not table:
        raise ReplayError("script: table: a table needs a name")
    dealer = script.get("dealer")
    actor = str(dealer).strip() if dealer else None
    setup_payload = _setup(script)
    session_id = _latest_session(database, table)
    if session_id is not None and not resume and _is_open(database, session_id):
        raise ReplayError(f"table {table} already has an open session here: use --resume")
    steps = list(_steps(script))
    hand_overs = [step.dealer for step in steps if isinstance(step, HandOver)]
    try:
        accounts = prepare_accounts(database, script.get("users") or [], pins, [actor, *hand_overs])
        if resume and session_id is not None:
            service = _resume(database, session_id, setup_payload, steps, actor, accounts)
        else:
            try:
                service = TableService.open(database, _table_setup(setup_payload), accounts.dealer(actor))
            except ActionRefused as error:
                raise ReplayError(f"table: {error}") from None
            service = _carry_on(service, steps, 0, accounts)
    except (AccountRefused, SignInError) as error:
        raise ReplayError(str(error)) from None
    return replay_output(service)


def _resume(
    database: Database,
    session_id: int,
    setup: dict[str, Any],
    steps: list[Step | HandOver],
    actor: str | None,
    accounts: ReplayAccounts,
) -> TableService:
    with database.session() as session:
        stored = session.execute(
            select(Event.kind, Event.payload, Event.hash)
            .where(Event.session_id == session_id)
            .order_by(Event.seq)
        ).all()
    if not stored:
        raise ReplayError(f"session {session_id} holds no events: it was not written by the desk")
    machine = TableMachine()
    try:
        opened = machine.check(EventKind.TABLE_OPENED, setup)
    except ActionRefused as error:
        raise ReplayError(f"table: {error}") from None
    first_kind, first_payload, _ = stored[0]
    if first_kind != EventKind.TABLE_OPENED or json.loads(first_payload) != opened:
        raise ReplayError("table: the stored table differs from the script's seats or rules")
    machine.apply(EventKind.TABLE_OPENED, opened)
    position, done = 1, 0
    for step in steps:
        if position >= len(stored):
            break
        if isinstance(step, HandOver):
            actor, done = step.dealer, done + 1
            continue
        resolved = _resolve(step, machine)
        if resolved is None:
            done += 1
            continue
        kind, raw = resolved
        try:
            payload = machine.check(kind, raw)
        except ActionRefused as error:
            raise ReplayError(f"{step.where()}: {error}") from None
        stored_kind, stored_payload, _ = stored[position]
        if stored_kind != kind.value or json.loads(stored_payload) != payload:
            raise ReplayError(
                f"{step.where()}: the stored session differs from the script here"
                f" (stored {stored_kind} {stored_payload})"
            )
        machine.apply_checked(kind, payload)
        position += 1
        done += 1
    if position < len(stored):
        raise ReplayError("the stored session goes further than the script")
    service = TableService.resume(database, session_id, accounts.dealer(actor))
    if service.snapshot().last_event_hash != stored[-1].hash:
        # Recorded by another desk since the script was matched: carrying on would repeat it.
        raise ReplayError(
            "the stored session changed while it was being resumed (a desk is recording at this"
            " table): run --resume again"
        )
    return _carry_on(service, steps, done, accounts)


def _carry_on(
    service: TableService, steps: list[Step | HandOver], done: int, accounts: ReplayAccounts
) -> TableService:
    for step in steps[done:]:
        if isinstance(step, HandOver):
            service.hand_over(accounts.dealer(step.dealer))
            continue
        try:
            _perform(service, step, accounts)
        except (ActionRefused, ValueError) as error:  # ValueError: rules of the wrong shape
            raise ReplayError(f"{step.where()}: {error}") from None
    return service


def _resolve(step: Step, machine: TableMachine) -> tuple[EventKind, dict[str, Any]] | None:
    """The event a step makes in this state (an action is a set for a Fantasyland player);
    None for an automatic settlement when the hand is not complete."""
    if step.kind is EventKind.HAND_SETTLED:
        return (step.kind, {}) if machine.phase is Phase.AWAITING_SETTLEMENT else None
    if step.kind is EventKind.PLACED and machine.hand is not None:
        player = machine.hand.players.get(str(step.raw.get("player")))
        if player is not None and player.fantasyland_cards:
            return EventKind.REVEALED, step.raw
    return step.kind, step.raw


def _perform(service: TableService, step: Step, accounts: ReplayAccounts) -> None:
    resolved = _resolve(step, service.machine)
    if resolved is None:
        return
    kind, raw = resolved
    pin = step.pin if step.pin is not None else accounts.pin(str(raw.get("supervisor") or ""))
    _ACTIONS[kind](service, raw, pin)


def _supervisor(raw: Mapping[str, Any], pin: str | None) -> tuple[str, str]:
    return str(raw.get("supervisor") or ""), pin or ""


_ACTIONS: dict[EventKind, Callable[[TableService, dict[str, Any], str | None], object]] = {
    EventKind.PLACED: lambda s, r, _: s.place(str(r.get("player")), r["cards"], r["rows"]),
    EventKind.REVEALED: lambda s, r, _: s.reveal(str(r.get("player")), r["cards"], r["rows"]),
    EventKind.UNDONE: lambda s, r, _: s.undo(),
    EventKind.HAND_STARTED: lambda s, r, _: s.start_next_hand(),
    EventKind.HAND_SETTLED: lambda s, r, _: s.confirm_settlement(),
    EventKind.JOINED: lambda s, r, _: s.join(str(r.get("player")), r["buy_in"], r.get("after")),
    EventKind.REBOUGHT: lambda s, r, _: s.rebuy(str(r.get("player")), r["amount"]),
    EventKind.CASHED_OUT: lambda s, r, _: s.cash_out(str(r.get("player"))),
    EventKind.SAT_OUT: lambda s, r, _: s.sit_out(str(r.get("player"))),
    EventKind.SAT_IN: lambda s, r, _: s.sit_in(str(r.get("player"))),
    EventKind.HAND_VOIDED: lambda s, r, p: s.void_hand(
        r["hand"], *_supervisor(r, p), str(r.get("reason") or "")
    ),
    EventKind.CHIPS_CORRECTED: lambda s, r, p: s.correct_chips(
        str(r.get("player")), r["amount"], str(r.get("reason") or ""), *_supervisor(r, p)
    ),
    EventKind.RULES_CHANGED: lambda s, r, p: s.change_rules(
        TableRules.from_json(r.get("rules") or {}), *_supervisor(r, p)
    ),
    EventKind.SESSION_CLOSED: lambda s, r, p: s.close_session(*_supervisor(r, p)),
}

_OPS: dict[str, EventKind] = {
    "join": EventKind.JOINED,
    "buy_in": EventKind.JOINED,
    "rebuy": EventKind.REBOUGHT,
    "top_up": EventKind.REBOUGHT,
    "cash_out": EventKind.CASHED_OUT,
    "sit_out": EventKind.SAT_OUT,
    "sit_in": EventKind.SAT_IN,
    "void": EventKind.HAND_VOIDED,
    "correct_chips": EventKind.CHIPS_CORRECTED,
    "change_rules": EventKind.RULES_CHANGED,
    "close": EventKind.SESSION_CLOSED,
    "undo": EventKind.UNDONE,
}
_OP_FIELDS: dict[EventKind, tuple[str, ...]] = {
    EventKind.JOINED: ("player", "buy_in", "after"),
    EventKind.REBOUGHT: ("player", "amount"),
    EventKind.CASHED_OUT: ("player",),
    EventKind.SAT_OUT: ("player",),
    EventKind.SAT_IN: ("player",),
    EventKind.HAND_VOIDED: ("hand", "reason", "supervisor"),
    EventKind.CHIPS_CORRECTED: ("player", "amount", "reason", "supervisor"),
    EventKind.RULES_CHANGED: ("rules", "supervisor"),
    EventKind.SESSION_CLOSED: ("supervisor",),
    EventKind.UNDONE: (),
}


def _steps(script: Mapping[str, Any]) -> Iterator[Step | HandOver]:
    hands = script.get("hands") or []
    if not isinstance(hands, list):
        raise ReplayError("script: hands: must be a list")
    for number, hand in enumerate(hands, start=1):
        if not isinstance(hand, Mapping):
            raise ReplayError(f"hand {number}: must be an object with between and actions")
        refuse_unknown_keys(hand, ("between", "actions"), f"hand {number}")
        for index, op in enumerate(hand.get("between") or [], start=1):
            yield _op_step(number, f"between {index}", op)
        actions = hand.get("actions") or []
        if not actions:
            continue
        yield Step(number, "action 1", EventKind.HAND_STARTED, {})
        for index, action in enumerate(actions, start=1):
            yield _action_step(number, index, action)
        yield Step(number, f"action {len(actions)}", EventKind.HAND_SETTLED, {})


def _op_step(number: int, label: str, op: Any) -> Step | HandOver:
    if isinstance(op, Mapping) and op.get("op") == "dealer":
        return _hand_over(number, label, op)
    if not isinstance(op, Mapping) or op.get("op") not in _OPS:
        known = ", ".join(sorted(_OPS))
        raise ReplayError(f"hand {number}, {label}: unknown operation (use {known})")
    kind = _OPS[str(op["op"])]
    extra = RULE_KEYS if kind is EventKind.RULES_CHANGED else ()
    refuse_unknown_keys(op, ("op", "pin", *_OP_FIELDS[kind], *extra), f"hand {number}, {label}")
    if kind is EventKind.RULES_CHANGED:
        raw: dict[str, Any] = {"rules": {key: op[key] for key in RULE_KEYS if key in op}}
        raw["supervisor"] = op.get("supervisor")
    else:
        raw = {key: op.get(key) for key in _OP_FIELDS[kind]}
    pin = op.get("pin")
    return Step(number, label, kind, raw, None if pin is None else str(pin))


def _action_step(number: int, index: int, action: Any) -> Step | HandOver:
    label = f"action {index}"
    if isinstance(action, Mapping) and action.get("op") == "undo":
        refuse_unknown_keys(action, ("op",), f"hand {number}, {label}")
        return Step(number, label, EventKind.UNDONE, {})
    if isinstance(action, Mapping) and action.get("op") == "dealer":
        return _hand_over(number, label, action)
    if not isinstance(action, Mapping) or not {"player", "cards", "rows"} <= set(action):
        raise ReplayError(f"hand {number}, {label}: an action needs player, cards and rows")
    refuse_unknown_keys(action, ("player", "cards", "rows"), f"hand {number}, {label}")
    raw = {key: action[key] for key in ("player", "cards", "rows")}
    return Step(number, label, EventKind.PLACED, raw)


def _hand_over(number: int, label: str, op: Mapping[str, Any]) -> HandOver:
    refuse_unknown_keys(op, ("op", "name"), f"hand {number}, {label}")
    name = op.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ReplayError(f"hand {number}, {label}: a dealer hand-over needs the dealer's name")
    return HandOver(name.strip())


def _setup(script: Mapping[str, Any]) -> dict[str, Any]:
    try:
        rules = TableRules.from_json({key: script[key] for key in RULE_KEYS if key in script})
    except (ValueError, TypeError, KeyError, IndexError) as error:
        raise ReplayError(f"script: {error}") from None
    seats = script.get("seats")
    if not isinstance(seats, list) or not all(isinstance(seat, Mapping) for seat in seats):
        raise ReplayError("script: seats: must be a list of {name, buy_in}")
    for position, seat in enumerate(seats):
        refuse_unknown_keys(seat, ("name", "buy_in"), f"script.seats[{position}]")
    return {
        "table": str(script.get("table")),
        "seats": [{"name": seat.get("name"), "buy_in": seat.get("buy_in")} for seat in seats],
        "button": script.get("button") or (seats[-1].get("name") if seats else None),
        "rules": rules.to_json(),
    }


def _table_setup(payload: dict[str, Any]) -> TableSetup:
    return TableSetup(
        payload["table"],
        tuple(SeatSetup(str(seat["name"]), seat["buy_in"]) for seat in payload["seats"]),
        str(payload["button"]),
        TableRules.from_json(payload["rules"]),
    )


def _latest_session(database: Database, table: str) -> int | None:
    with database.session() as session:
        return session.scalar(
            select(TableSession.id)
            .where(TableSession.table_name == table)
            .order_by(TableSession.id.desc())
            .limit(1)
        )


def _is_open(database: Database, session_id: int) -> bool:
    with database.session() as session:
        row = session.get(TableSession, session_id)
        return row is not None and row.closed_at is None


def replay_output(service: TableService) -> dict[str, Any]:
    """All settled hands (read back from storage), the stacks now, and what comes next."""
    snapshot = service.snapshot()
    hands = []
    for record in read_hands(service.database, service.session_id):
        hand: dict[str, Any] = {
            "number": record.number,
            "button": record.button,
            "fantasyland": record.fantasyland,
            "result": record.result,
        }
        if record.voided:
            hand["voided"] = True
        hands.append(hand)
    return {
        "table": snapshot.table,
        "hands": hands,
        "stacks": {seat.name: seat.stack for seat in snapshot.seats},
        "next": {
            "button": service.machine.next_dealer(),
            "fantasyland": {s.name: s.fantasyland_next for s in snapshot.seats if s.fantasyland_next},
        },
    }
