"""Scripted sessions (`ofc-desk replay`): play a script through `TableService`, persisting as it
goes; with `resume`, first check that what is stored matches the script, then carry on.

A step's label is how a refusal is reported: "hand 3, action 7: it is Bob's turn, not Ann's".
Actions and between-hand operations are numbered from 1 within their hand.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import select

from ofc_desk.i18n import _
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.replays.replay_accounts import (
    AccountRefused,
    PinSource,
    ReplayAccounts,
    no_pins,
    prepare_accounts,
)
from ofc_desk.service.replays.replay_vocabulary import (
    DEALER_OP,
    FLOOR_OPS,
    OP_FIELDS,
    OP_KINDS,
    PIN_KEY,
    RULE_KEYS,
    SUPERVISOR_KEY,
    UNDO_OP,
)
from ofc_desk.service.room.requests import REQUEST_KEY, REQUESTABLE
from ofc_desk.service.room.room_pool import POOL_KEY
from ofc_desk.service.store.record_reads import read_corrections, read_hands
from ofc_desk.service.table import commands
from ofc_desk.service.table.actions import SUPERVISED
from ofc_desk.service.table.dealers import HAND_OVERS
from ofc_desk.service.table.fold import FoldHooks, fold, pinned_machine
from ofc_desk.service.table.games.choose import game_for, own_entry
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.terms import reading
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import EventPayload, RawPayload
from ofc_desk.service.terms.setup import SeatSetup, TableRules, TableSetup
from ofc_desk.service.terms.snapshot import Phase
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, TableSession
from ofc_desk.storage.users import SignInError

SCRIPT_KEYS = frozenset(("table", "seats", "button", "dealer", "users", "hands", *RULE_KEYS))


class ReplayError(Exception):
    """A refused step; `str()` is the one line for standard error."""


def refuse_unknown_keys(data: Mapping[str, object], known: Iterable[str], where: str) -> None:
    """A misspelt key ("setlement") must not be ignored and the default played instead."""
    known = tuple(known)
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        close = difflib.get_close_matches(unknown[0], known, n=1)
        if close:
            said = _("{where}.{key}: unknown key (did you mean {close}?)")
            raise ReplayError(said.format(where=where, key=unknown[0], close=close[0]))
        said = _("{where}.{key}: unknown key (use {known})")
        raise ReplayError(said.format(where=where, key=unknown[0], known=", ".join(sorted(known))))


@dataclass(frozen=True)
class Step:
    hand: int
    label: str
    kind: EventKind
    raw: RawPayload
    pin: str | None = None

    def where(self) -> str:
        return _hand_step(self.hand, self.label)


@dataclass(frozen=True)
class HandOver:
    """`{"op": "dealer", "name": "Yan"}`: another dealer takes over (a shift change within the
    script): the hand-over is recorded, and every event after it as theirs."""

    dealer: str


def run_replay(
    database: Database, script: Mapping[str, object], *, resume: bool, pins: PinSource = no_pins
) -> dict[str, Any]:
    """Play `script` into `database`; return the replay output (all hands, read back). `pins` gives
    the PINs of existing accounts the script's own `users` entries do not."""
    if not isinstance(script, Mapping):
        raise ReplayError(_("script: must be a JSON object"))
    refuse_unknown_keys(script, SCRIPT_KEYS, "script")
    table = str(script.get("table") or "").strip()
    if not table:
        raise ReplayError(_("script: table: a table needs a name"))
    dealer = script.get("dealer")
    actor = str(dealer).strip() if dealer else None
    setup_payload = _setup(script)
    session_id = _latest_session(database, table)
    if session_id is not None and not resume and _is_open(database, session_id):
        raise ReplayError(
            _("table {table} already has an open session here: use --resume").format(table=table)
        )
    steps = list(_steps(script, _action_keys(setup_payload)))
    hand_overs = [step.dealer for step in steps if isinstance(step, HandOver)]
    opening = None if resume and session_id is not None else _checked_opening(setup_payload)
    try:
        # A new database's accounts are stored here: from now on the replay must store its
        # session too, so everything that could refuse the opening was checked above.
        accounts = prepare_accounts(database, script.get("users") or [], pins, [actor, *hand_overs])
        if opening is None:
            assert session_id is not None
            service = _resume(database, session_id, setup_payload, steps, actor, accounts)
        else:
            try:
                service = TableService.open(database, opening, accounts.dealer(actor))
            except ActionRefused as error:
                raise ReplayError(_table_refused(error)) from None
            service = _carry_on(service, steps, 0, accounts)
    except (AccountRefused, SignInError) as error:
        raise ReplayError(str(error)) from None
    return replay_output(service)


def _checked_opening(payload: dict[str, Any]) -> TableSetup:
    """The table a new session opens, checked as its opening will be before anything is stored:
    a replay refused for its table stores nothing, not even the accounts of a new database."""
    try:
        setup = _table_setup(payload)
        TableService.verify_open(setup)
    except (ActionRefused, ValueError, TypeError) as error:
        raise ReplayError(_table_refused(error)) from None
    return setup


def _action_keys(payload: dict[str, Any]) -> tuple[str, ...]:
    """The keys an entry of the script's game carries (`TableGame.action_keys`): a table keeps its
    game all session, so the header's rules say it for every hand."""
    try:
        return game_for(TableRules.from_json(payload["rules"])).action_keys
    except (ActionRefused, ValueError, TypeError) as error:
        raise ReplayError(_table_refused(error)) from None


def _table_refused(error: Exception) -> str:
    return _("table: {problem}").format(problem=error)


def _hand_step(hand: int, label: str) -> str:
    """Where in the script: "hand 3, action 2"."""
    return _("hand {number}, {step}").format(number=hand, step=label)


def _resume(
    database: Database,
    session_id: int,
    setup: RawPayload,
    steps: list[Step | HandOver],
    actor: str | None,
    accounts: ReplayAccounts,
) -> TableService:
    with database.session() as session:
        stored = session.execute(
            select(Event.kind, Event.payload, Event.actor, Event.hash)
            .where(Event.session_id == session_id)
            .order_by(Event.seq)
        ).all()
    if not stored:
        said = _("session {number} holds no events: it was not written by the desk")
        raise ReplayError(said.format(number=session_id))
    script = _ScriptMatch(setup, steps, actor)
    fold(pinned_machine(stored), stored, script)
    service = TableService.resume(database, session_id, accounts.dealer(script.actor))
    if service.snapshot().last_event_hash != stored[-1].hash:
        # Recorded by another desk since the script was matched: carrying on would repeat it.
        raise ReplayError(
            _(
                "the stored session changed while it was being resumed (a desk is recording at this"
                " table): run --resume again"
            )
        )
    return _carry_on(service, steps, script.done, accounts)


class _ScriptMatch(FoldHooks[Any]):
    """Each stored event matched, before it is folded, with the script's step that made it: the
    opening with the script's table, then the steps in order (`done` of them so far). A step that
    records nothing here (a settlement not due yet, a hand-over to the dealer on duty in a
    session that stores none) is passed; a stored `rules_pinned` (migration 0007) matches none."""

    def __init__(self, setup: RawPayload, steps: list[Step | HandOver], actor: str | None) -> None:
        self.setup, self.steps, self.actor = setup, steps, actor
        self.done = 0
        self.opened = False

    def before(self, machine: TableMachine, event: Any) -> None:
        if not self.opened:
            self.opened = True
            _match_opening(machine, self.setup, event)
            return
        if event.kind == EventKind.RULES_PINNED:
            return
        while self.done < len(self.steps):
            step = self.steps[self.done]
            self.done += 1
            if isinstance(step, HandOver):
                self.actor = step.dealer
                if event.kind in HAND_OVERS:
                    return _match_hand_over(event, step.dealer)
            elif (resolved := _resolve(step, machine)) is not None:
                return _match_step(machine, step, resolved, event)
        raise ReplayError(_("the stored session goes further than the script"))


def _match_opening(machine: TableMachine, setup: RawPayload, event: Any) -> None:
    try:
        opened = machine.check(EventKind.TABLE_OPENED, setup)
    except ActionRefused as error:
        raise ReplayError(_table_refused(error)) from None
    if event.kind != EventKind.TABLE_OPENED or not _as_scripted(json.loads(event.payload), opened):
        raise ReplayError(_("table: the stored table differs from the script's seats or rules"))


def _match_step(
    machine: TableMachine, step: Step, resolved: tuple[EventKind, RawPayload], event: Any
) -> None:
    kind, raw = resolved
    try:
        if kind is EventKind.RULES_CHANGED:
            rules = reading.rules(raw.get("rules")).pinned(machine.rules)
            raw = {**raw, "rules": rules.to_json()}
        if kind is EventKind.HAND_SETTLED:  # the room's pool it found is the store's, not the script's
            raw = {**raw, **_pool_found(event.payload)}
        payload = machine.check(kind, raw)
    except ActionRefused as error:
        raise ReplayError(_step_refused(step, error)) from None
    if event.kind != kind.value or not _as_scripted(json.loads(event.payload), payload):
        said = _("{where}: the stored session differs from the script here (stored {kind} {payload})")
        raise ReplayError(said.format(where=step.where(), kind=event.kind, payload=event.payload))


def _pool_found(stored_payload: str) -> dict[str, object]:
    found = json.loads(stored_payload)
    return {POOL_KEY: found[POOL_KEY]} if isinstance(found, dict) and POOL_KEY in found else {}


def _match_hand_over(event: Any, dealer: str) -> None:
    """The stored hand-over a `dealer` step made (a takeover the script says as a hand-over too)."""
    read = json.loads(event.payload)
    if read.get("dealer") != dealer or (event.kind == EventKind.HANDED_OVER and read != {"dealer": dealer}):
        said = _("the stored session differs from the script here (stored {kind} {payload})")
        raise ReplayError(said.format(kind=event.kind, payload=event.payload))


def _as_scripted(stored: object, checked: EventPayload) -> bool:
    """Whether a stored event is the script's step: rules pinned from a preset file match the
    script's name for that file, whatever the file holds today (the stored numbers are used)."""
    if not isinstance(stored, dict) or not isinstance(stored.get("rules"), Mapping):
        return stored == checked
    try:
        pinned = TableRules.from_json(stored["rules"])
    except ValueError:
        return False
    unpinned = {**stored, "rules": pinned.unpinned().to_json()}
    return unpinned == checked or stored == checked


def _carry_on(
    service: TableService, steps: list[Step | HandOver], done: int, accounts: ReplayAccounts
) -> TableService:
    for step in steps[done:]:
        if isinstance(step, HandOver):
            service.do(commands.HandOver(accounts.dealer(step.dealer)))
            continue
        try:
            _perform(service, step, accounts)
        except (ActionRefused, ValueError) as error:  # ValueError: rules of the wrong shape
            raise ReplayError(_step_refused(step, error)) from None
    return service


def _step_refused(step: Step, error: Exception) -> str:
    return _("{where}: {problem}").format(where=step.where(), problem=error)


def _resolve(step: Step, machine: TableMachine) -> tuple[EventKind, RawPayload] | None:
    """The event a step makes in this state (an action is a set for a Fantasyland player);
    None for an automatic settlement when the hand is not complete."""
    if step.kind is EventKind.HAND_SETTLED:
        return (step.kind, {}) if machine.phase is Phase.AWAITING_SETTLEMENT else None
    if step.kind is EventKind.PLACED:
        return machine.entry_kind(step.raw), step.raw
    return step.kind, step.raw


def _perform(service: TableService, step: Step, accounts: ReplayAccounts) -> None:
    resolved = _resolve(step, service.machine)
    if resolved is None:
        return
    kind, raw = resolved
    if kind is EventKind.RULES_CHANGED:
        # Read here, so rules of the wrong shape are named as the script wrote them.
        rules = TableRules.from_json(_mapping(raw.get("rules")))
        raw = {**raw, "rules": rules.pinned(service.rules).to_json()}
    if raw.get(REQUEST_KEY) is not None and kind in REQUESTABLE:
        # Carried out on the floor's approval, which the table holds it to: no PIN.
        service.carry_out_request(reading.whole_number(raw[REQUEST_KEY]) or 0)
    else:
        service.do(_command(kind, raw, step, accounts))


def _command(kind: EventKind, raw: RawPayload, step: Step, accounts: ReplayAccounts) -> commands.Scripted:
    """The one place a script's step becomes a command: as the script states it, approved by the
    supervisor it names with the step's PIN (or the one the script's accounts give them)."""
    if kind not in SUPERVISED:
        return commands.Scripted(event=kind, payload=raw)
    supervisor = str(raw.get(SUPERVISOR_KEY) or "")
    pin = step.pin if step.pin is not None else accounts.pin(supervisor)
    return commands.Scripted(event=kind, payload=raw, approved=(supervisor, pin or ""))


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _steps(script: Mapping[str, object], action_keys: tuple[str, ...]) -> Iterator[Step | HandOver]:
    hands = script.get("hands") or []
    if not isinstance(hands, list):
        raise ReplayError(_("script: hands: must be a list"))
    for number, hand in enumerate(hands, start=1):
        if not isinstance(hand, Mapping):
            raise ReplayError(
                _("hand {number}: must be an object with between and actions").format(number=number)
            )
        refuse_unknown_keys(hand, ("between", "actions"), _("hand {number}").format(number=number))
        for index, op in enumerate(hand.get("between") or [], start=1):
            yield _op_step(number, _("between {number}").format(number=index), op)
        actions = hand.get("actions") or []
        if not actions:
            continue
        yield Step(number, _action_label(1), EventKind.HAND_STARTED, {})
        for index, action in enumerate(actions, start=1):
            yield _action_step(number, index, action, action_keys)
        yield Step(number, _action_label(len(actions)), EventKind.HAND_SETTLED, {})


def _action_label(index: int) -> str:
    return _("action {number}").format(number=index)


def _op_step(number: int, label: str, op: object) -> Step | HandOver:
    if isinstance(op, Mapping) and op.get("op") == DEALER_OP:
        return _hand_over(number, label, op)
    if not isinstance(op, Mapping) or op.get("op") not in OP_KINDS:
        known = ", ".join(sorted(OP_KINDS))
        raise ReplayError(
            _("{where}: unknown operation (use {known})").format(where=_hand_step(number, label), known=known)
        )
    kind = OP_KINDS[str(op["op"])]
    rules = RULE_KEYS if kind is EventKind.RULES_CHANGED else ()
    approval = (SUPERVISOR_KEY,) if kind in SUPERVISED else ()
    keys = ("op", PIN_KEY, *approval, *OP_FIELDS[kind], *rules)
    refuse_unknown_keys(op, keys, _hand_step(number, label))
    raw: dict[str, object] = {key: op.get(key) for key in OP_FIELDS[kind]}
    if kind is EventKind.RULES_CHANGED:
        raw["rules"] = {key: op[key] for key in RULE_KEYS if key in op}
    if kind in SUPERVISED:
        raw[SUPERVISOR_KEY] = op.get(SUPERVISOR_KEY)
    pin = op.get(PIN_KEY)
    return Step(number, label, kind, raw, None if pin is None else str(pin))


def _action_step(number: int, index: int, action: object, action_keys: tuple[str, ...]) -> Step | HandOver:
    label = _action_label(index)
    if isinstance(action, Mapping) and action.get("op") == UNDO_OP:
        refuse_unknown_keys(action, ("op",), _hand_step(number, label))
        return Step(number, label, EventKind.UNDONE, {})
    if isinstance(action, Mapping) and action.get("op") == DEALER_OP:
        return _hand_over(number, label, action)
    if isinstance(action, Mapping) and action.get("op") in FLOOR_OPS:
        return _op_step(number, label, action)  # asked or decided while the hand was live
    if isinstance(action, Mapping) and "player" in action and (own := own_entry(action)) is not None:
        # An entry only one game has (a Chinese surrender or declared special); any other is told
        # apart by the table's game when the hand is played (`TableMachine.entry_kind`).
        kind, keys = own
        raw = {key: action[key] for key in ("player", *keys, "cards", "rows") if key in action}
        return Step(number, label, kind, raw)
    if not isinstance(action, Mapping) or not set(action_keys) <= set(action):
        said = _("{where}: an action needs {keys}")
        raise ReplayError(said.format(where=_hand_step(number, label), keys=", ".join(action_keys)))
    refuse_unknown_keys(action, action_keys, _hand_step(number, label))
    raw = {key: action[key] for key in action_keys}
    return Step(number, label, EventKind.PLACED, raw)


def _hand_over(number: int, label: str, op: Mapping[str, object]) -> HandOver:
    refuse_unknown_keys(op, ("op", "name"), _hand_step(number, label))
    name = op.get("name")
    if not isinstance(name, str) or not name.strip():
        said = _("{where}: a dealer hand-over needs the dealer's name")
        raise ReplayError(said.format(where=_hand_step(number, label)))
    return HandOver(name.strip())


def _setup(script: Mapping[str, Any]) -> dict[str, Any]:
    try:
        rules = TableRules.from_json({key: script[key] for key in RULE_KEYS if key in script})
    except (ValueError, TypeError, KeyError, IndexError) as error:
        raise ReplayError(_("script: {problem}").format(problem=error)) from None
    seats = script.get("seats")
    if not isinstance(seats, list) or not all(isinstance(seat, Mapping) for seat in seats):
        raise ReplayError(_("script: seats: must be a list of {name, buy_in}"))
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
        # A name left out is none, not "None" (the opening refuses it as the desk does).
        tuple(SeatSetup(str(seat["name"] or ""), seat["buy_in"]) for seat in payload["seats"]),
        str(payload["button"] or ""),
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


CORRECTION_OUTPUT: Final = ("hand", "difference", "paid", "not_covered", "stacks_after")
"""What `replay`'s answer lists of each corrected hand (docs/rules.md §12)."""


def _correction_output(correction: Mapping[str, Any]) -> dict[str, Any]:
    said = {key: correction[key] for key in CORRECTION_OUTPUT}
    return {**said, "result": correction["result"], "entries": correction["entries"]}


def replay_output(service: TableService) -> dict[str, Any]:
    """All settled hands (read back from storage), the stacks now, and what comes next."""
    snapshot = service.snapshot()
    owed = service.machine.carried.owed
    hands = []
    for record in read_hands(service.database, service.session_id):
        hand: dict[str, Any] = {
            "number": record.number,
            "button": record.button,
            "fantasyland": {} if record.part is None else record.part.column(),
            "result": json.loads(record.result_text),
        }
        if record.voided:
            hand["voided"] = True
        hands.append(hand)
    return {
        "table": snapshot.table,
        "hands": hands,
        "corrections": [
            _correction_output(correction)
            for correction in read_corrections(service.database, service.session_id)
        ],
        "stacks": {seat.name: seat.stack for seat in snapshot.seats},
        "next": {
            "button": service.machine.next_dealer(),
            # What the next hand owes each seated player (OFC's Fantasyland cards), under the key
            # the replay output has always had.
            "fantasyland": {s.name: owed[s.name] for s in snapshot.seats if owed.get(s.name)},
        },
    }
