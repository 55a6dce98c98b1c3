"""`verify`: prove a database's history is whole and right, or name the first thing that is not.

For every session: the hash chain (each event's hash over the previous hash and its content, the
session row's recorded end of the chain), then every event folded through the rules again (a
stored action the rules refuse is a fault), every derived row (hands with their re-scored result,
transfers, the chip ledger) compared with what the events give, and chips conserved.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from ofc_desk.i18n import _, lazy_gettext, ngettext
from ofc_desk.service.actions import SUPERVISED
from ofc_desk.service.errors import ActionRefused
from ofc_desk.service.events import EventKind
from ofc_desk.service.fold import pinned_machine
from ofc_desk.service.machine import TableMachine
from ofc_desk.service.outcome import NO_ROWS, Outcome
from ofc_desk.service.persistence import hand_fields, ledger_fields, transfer_fields
from ofc_desk.service.records import HandFields, LedgerFields, TransferFields
from ofc_desk.service.rescoring import ScoresBeside, StoredResult, breaks_the_rules, rescore, result_differs
from ofc_desk.service.room_chain import broken_link, missing_anchor, read_anchors
from ofc_desk.service.room_pool import PoolStep, RoomPoolCheck, pool_step
from ofc_desk.service.side_check import Faults, can_fork, checked_beside
from ofc_desk.service.signoffs import (
    SignoffFault,
    check_session_signoffs,
    read_accounts,
    read_signatures,
    sign_in_fault,
)
from ofc_desk.service.supervision import approver
from ofc_desk.storage.accounts import AccountsChain
from ofc_desk.storage.audit import GENESIS_HASH, canonical_json, event_hash, read_json
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, HandRow, LedgerRow, TableSession, TransferRow, User
from ofc_desk.storage.schema_revision import revision_fault
from ofc_desk.storage.users import Role


class VerifyFault(Exception):
    """The first fault found; `str()` names it: "event 812 was altered"."""


@dataclass(frozen=True)
class SessionFingerprint:
    """Where one session's verified chain ends: the fingerprint printed on its report."""

    session_id: int
    table: str
    final_hash: str

    def line(self) -> str:
        return _("session {number} ({table}): {hash}").format(
            number=self.session_id, table=self.table, hash=self.final_hash
        )


@dataclass(frozen=True)
class VerifySummary:
    sessions: int
    events: int
    hands: int
    chips_on_tables: int
    fingerprints: tuple[SessionFingerprint, ...] = ()
    anchors: int | None = None
    """How many anchored heads were found in the database; None when no anchor file was given."""
    set_aside: tuple[str, ...] = ()
    """A sentence for each stored row `verify` set aside: a signature that does not hold, a
    derived row no event gives (`VerifiedRows.set_aside`)."""

    def line(self) -> str:
        anchored = ""
        if self.anchors is not None:
            anchors = ngettext("{count} anchor", "{count} anchors", self.anchors).format(count=self.anchors)
            anchored = _("; every anchored head present ({anchors})").format(anchors=anchors)
        aside = ""
        if self.set_aside:
            rows = len(self.set_aside)
            aside = ngettext(
                "; {count} row set aside (below)", "; {count} rows set aside (below)", rows
            ).format(count=rows)
        said = _(
            "verified: {sessions}, {events}, {hands}; hash chains intact, every hand re-scored and"
            " re-settled, chips conserved ({chips} on the tables){anchored}{aside}"
        )
        return said.format(
            sessions=ngettext("{count} session", "{count} sessions", self.sessions).format(
                count=self.sessions
            ),
            events=ngettext("{count} event", "{count} events", self.events).format(count=self.events),
            hands=ngettext("{count} hand", "{count} hands", self.hands).format(count=self.hands),
            chips=self.chips_on_tables,
            anchored=anchored,
            aside=aside,
        )


TRANSFER_KEYS = ("ordinal", "from_player", "to_player", "owed", "paid", "reason")
LEDGER_KEYS = ("event_id", "hand_number", "player", "kind", "amount", "note")
# Rows are read as plain tuples through the session's connection (SQLAlchemy Core), each table
# in one query per session: building an ORM object for each of a long session's events, or asking
# for each hand's transfers apart, cost more than all of the rules' re-checking, and even a select
# of columns through the ORM session passes every row through its loading.
_EVENT_COLUMNS = tuple(Event.__table__.columns)
_HAND_COLUMNS = tuple(HandRow.__table__.columns)
Stacks = tuple[tuple[str, int], ...]
"""Every seated player's stack, in the order they first had chips in the ledger."""
_KINDS = {kind.value: kind for kind in EventKind}
"""Each stored kind's member, looked up without the enum's call (once per event of a session)."""
FORK_FROM_EVENTS = 2000
"""A session this long is checked in two processes (`side_check`): shorter ones take less time to
check than the fork costs."""
CHAIN_CHECKED_AFTER_THE_FOLD = 3
"""One part in this many of a long session's chain (its end) is checked by the fold's process
after the fold: the share that, on two cores, has both processes end together."""


@dataclass
class _Expected:
    hands: list[HandFields]
    transfers: dict[int, list[TransferFields]]
    ledger: list[LedgerFields]


def verify_database(database: Database, anchors: Path | None = None, *, fork: bool = True) -> VerifySummary:
    """Everything `verify` checks; with `anchors`, also that every head anchored in that file is
    still in the database (`room_chain`). Raises VerifyFault naming the first fault, AnchorFault
    when the anchor file cannot be read. With `fork`, a long session's chain and signatures are
    checked and its hands re-scored in a second process where that is safe (`side_check`,
    `rescoring`); the result is the same."""
    # One snapshot for everything: a table recording meanwhile must not look like tampering.
    with database.snapshot() as session, _collector_paused():
        # The revision decides what the next start runs over this history (`schema_revision`).
        _raise_first((revision_fault(session.connection()),))
        sessions = session.scalars(select(TableSession).order_by(TableSession.id)).all()
        accounts = _accounts(session)
        set_aside: list[str] = []
        _raise_first((sign_in_fault(session, accounts, set_aside),))
        supervisors = set(session.scalars(select(User.name).where(User.role == Role.SUPERVISOR.value)).all())
        counted = (0, 0, 0)
        fingerprints = []
        links, pool = _RoomLinks(), RoomPoolCheck()
        for row in sessions:
            verified = _verify_session(session, row, supervisors, accounts, fork=fork)
            links.check(session, row)
            pool.steps += verified.pool_steps
            counted = (
                counted[0] + len(verified.events),
                counted[1] + len(verified.hands),
                counted[2] + verified.chips,
            )
            fingerprints.append(SessionFingerprint(row.id, row.table_name, verified.events[-1].hash))
            set_aside += verified.set_aside
        _refuse_orphans(session)
        _raise_first((pool.fault(session),))
        anchored = None if anchors is None else _check_anchors(session, anchors)
    return VerifySummary(
        len(sessions),
        *counted,
        fingerprints=tuple(fingerprints),
        anchors=anchored,
        set_aside=tuple(set_aside),
    )


def _check_anchors(session: Any, anchors: Path) -> int:
    fault = missing_anchor(session, anchors)
    if fault is not None:
        raise VerifyFault(fault)
    return len(read_anchors(anchors))


@dataclass
class _RoomLinks:
    """Each session's opening links to the session before it (`room_chain`); a session from
    before the room chain (genesis) may only come before the first linked one."""

    previous: TableSession | None = None
    linked_from: int | None = None

    def check(self, session: Any, row: TableSession) -> None:
        link = session.scalar(select(Event.prev_hash).where(Event.session_id == row.id, Event.seq == 1))
        fault = broken_link(session, row, self.previous, link)
        if fault is None and link == GENESIS_HASH and self.linked_from is not None:
            said = _(
                "session {number}'s opening links to no session, though session {linked} before it is linked:"
                " its chain was rewritten"
            )
            fault = said.format(number=row.id, linked=self.linked_from)
        if fault is not None:
            raise VerifyFault(fault)
        if link != GENESIS_HASH and self.linked_from is None:
            self.linked_from = row.id
        self.previous = row


def _accounts(session: Any) -> AccountsChain:
    try:
        return read_accounts(session)
    except SignoffFault as fault:
        raise VerifyFault(str(fault)) from None


@dataclass(frozen=True)
class VerifiedRows:
    """One session as `verify` proved it: its events, and the derived rows the rules give for
    them (equal to the stored ones, which were compared): what a report may print."""

    events: Sequence[Any]
    hands: list[HandFields]
    ledger: list[LedgerFields]
    chips: int
    set_aside: tuple[str, ...] = ()
    """A sentence for each stored row of the session set aside: a row a database login may add
    (it cannot change or delete one) that proves nothing and that no event gives, a signature that
    does not hold or a derived row beside those the events give. Nothing printed reads it; naming
    it is what a person needs to look for who added it."""
    pool_steps: tuple[PoolStep, ...] = ()
    """The session's part in the room's jackpot pool, checked with every table's (`room_pool`)."""
    stacks_after: Mapping[int, Stacks] = field(default_factory=dict)
    """Each settled hand's number and the seated players' stacks the fold left at its settlement."""
    live_hand: int | None = None
    """The hand dealt and not settled when the events end; None between hands."""


def verify_one_session(session: Any, row: TableSession) -> VerifiedRows:
    """Everything `verify` checks of one session and its link to the session before it, inside
    the caller's snapshot: a report reads its figures from what this returns."""
    previous = session.scalar(
        select(TableSession).where(TableSession.id < row.id).order_by(TableSession.id.desc()).limit(1)
    )
    link = session.scalar(select(Event.prev_hash).where(Event.session_id == row.id, Event.seq == 1))
    if link is not None and (fault := broken_link(session, row, previous, link)):
        raise VerifyFault(fault)
    supervisors = set(session.scalars(select(User.name).where(User.role == Role.SUPERVISOR.value)).all())
    with _collector_paused():
        return _verify_session(session, row, supervisors, _accounts(session))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The fold makes hundreds of thousands of short-lived objects, none in a reference cycle: the
    cyclic collector's passes over them cost about a tenth of a long session's check."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _verify_session(
    session: Any, row: TableSession, supervisors: set[str], accounts: AccountsChain, *, fork: bool = False
) -> VerifiedRows:
    events = (
        session.connection()
        .execute(select(*_EVENT_COLUMNS).where(Event.session_id == row.id).order_by(Event.seq, Event.id))
        .all()
    )
    if not events:
        # The service writes a session row and its opening event in one transaction.
        raise VerifyFault(
            _("session {number} holds no events, not even its opening: it was added by hand").format(
                number=row.id
            )
        )
    signatures = read_signatures(session, row.id)
    hands = (
        session.connection()
        .execute(select(*_HAND_COLUMNS).where(HandRow.session_id == row.id).order_by(HandRow.number))
        .all()
    )
    head = _Head(row.id, row.head_seq, row.head_hash)
    results = {hand.number: hand.result for hand in hands}

    beside = fork and len(events) >= FORK_FROM_EVENTS and can_fork()
    # Beside the fold, the second process checks the signatures, re-scores the hands and checks
    # the chain but for its last part, which this process checks once the fold is done: the fold
    # takes longer than the rest, and so both end together.
    split = len(events) - len(events) // CHAIN_CHECKED_AFTER_THE_FOLD if beside else len(events)
    checks = (
        partial(_chain_fault, head, events, 0, split),
        partial(_signoffs_fault, head.session_id, events, signatures, accounts),
    )
    with checked_beside(checks, partial(rescore, results), fork=beside) as second:
        stored = _Stored(hands, ScoresBeside(results, second) if beside else None)
        try:
            verified, fold_fault = _fold_session(session, row, events, supervisors, stored), None
        except VerifyFault as fault:
            verified, fold_fault = None, fault
        chain_end = _chain_fault(head, events, split, len(events))
        chain_start, signoffs, rescored = second.faults()
    # The chain first, then the signatures, then the hands re-scored beside the fold: a fault
    # there is named before any the fold finds (the fold went on with the stored results).
    _raise_first((chain_start, chain_end, signoffs, rescored))
    if verified is None:
        assert fold_fault is not None  # the fold gives the rows or raises
        raise fold_fault
    signatures_aside = tuple(signoffs) if isinstance(signoffs, list) else ()
    return replace(verified, set_aside=signatures_aside + verified.set_aside)


@dataclass(frozen=True)
class _Stored:
    """A session's stored hand rows, and the fold's scorer when its hands are re-scored beside."""

    hands: Sequence[Any]
    scorer: ScoresBeside | None


@dataclass(frozen=True)
class _Head:
    """Where a session row says its chain ends."""

    session_id: int
    seq: int
    hash: str


def _raise_first(faults: Faults) -> None:
    """The first fault of `faults`; a list there names rows set aside, no fault."""
    fault = next((fault for fault in faults if isinstance(fault, str)), None)
    if fault is not None:
        raise VerifyFault(fault)


def _signoffs_fault(
    session_id: int, events: Sequence[Any], signatures: Sequence[Any], accounts: AccountsChain
) -> str | list[str] | None:
    """The sign-offs' fault, or the sentences of the signatures set aside (None: none)."""
    try:
        return check_session_signoffs(session_id, events, signatures, accounts) or None
    except SignoffFault as fault:
        return str(fault)


def _fold_session(
    session: Any, row: TableSession, events: Sequence[Any], supervisors: set[str], stored: _Stored
) -> VerifiedRows:
    """Every event folded through the rules again, every derived row compared, chips conserved."""
    pinning = EventKind.RULES_PINNED.value
    machine = pinned_machine([event for event in events if event.kind == pinning])
    expected, scorer = _Expected([], {}, []), stored.scorer
    pool_steps, stacks_after = [], {}
    ledger_order: dict[str, None] = {}  # each player once, in the order they first had chips
    if scorer is not None:
        machine.scorer = scorer
    for event in events:
        if scorer is not None:
            scorer.event_id = event.id
        outcome = _fold(machine, event, supervisors)
        if outcome is NO_ROWS:
            continue
        if step := pool_step(event.id, row.id, outcome):
            pool_steps.append(step)
        for entry in outcome.ledger:
            ledger_order.setdefault(entry.player, None)
        if outcome.hand is not None:
            # A stored result the fold went on with is its own text (the second process compares it).
            text = machine.result.text if isinstance(machine.result, StoredResult) else None
            expected.hands.append(hand_fields(outcome, event.id, event.at, text))
            expected.transfers[outcome.hand.number] = transfer_fields(outcome)
            stacks_after[outcome.hand.number] = _stacks(machine, ledger_order)
        expected.ledger.extend(ledger_fields(outcome, event.id))
        if outcome.closes_session and row.closed_at != event.at:
            raise VerifyFault(_("session {number}: its closing time was altered").format(number=row.id))
    if row.closed_at is not None and not machine.closed:
        raise VerifyFault(_("session {number}: marked closed, but no event closed it").format(number=row.id))
    if row.table_name != machine.table or row.opened_at != events[0].at:
        raise VerifyFault(
            _("session {number}: its table name or opening time was altered").format(number=row.id)
        )
    set_aside = _check_hands(session, row.id, stored.hands, expected)
    set_aside += _check_ledger(session, row.id, expected.ledger)
    chips = sum(seat.stack for seat in machine.seats)
    if chips != sum(entry["amount"] for entry in expected.ledger):
        raise VerifyFault(_("session {number}: chips are not conserved").format(number=row.id))
    live_hand = machine.hands_started if machine.hands_started and not machine.hand_settled else None
    derived = (expected.hands, expected.ledger, chips, tuple(set_aside), tuple(pool_steps), stacks_after)
    return VerifiedRows(events, *derived, live_hand)


def _stacks(machine: TableMachine, ledger_order: Mapping[str, None]) -> Stacks:
    """The seated players' stacks, in the order they first had chips in the ledger (a report's)."""
    seated = {seat.name: seat.stack for seat in machine.seats}
    return tuple((name, seated[name]) for name in ledger_order if name in seated)


def _chain_fault(head: _Head, events: Sequence[Any], start: int, stop: int) -> str | None:
    """The first fault in the links of `events[start:stop]`, with where the chain ends when that
    part is its last."""
    try:
        _check_chain(head, events, start, stop)
    except VerifyFault as fault:
        return str(fault)
    return None


def _check_chain(head: _Head, events: Sequence[Any], start: int, stop: int) -> None:
    if start >= stop:
        return
    # The opening's previous hash is the room's link, checked by `_RoomLinks`.
    previous, previous_id = (
        (events[0].prev_hash, 0) if start == 0 else (events[start - 1].hash, events[start - 1].id)
    )
    for position, event in enumerate(events[start:stop], start=start + 1):
        if event.seq != position:
            said = _("session {number}: an event is missing before event {event} (sequence jumps to {seq})")
            raise VerifyFault(said.format(number=head.session_id, event=event.id, seq=event.seq))
        if event.id <= previous_id:
            # Event numbers are handed out in order; the desk and reports show them to people.
            said = _("event {event} is numbered out of order (after event {previous})")
            raise VerifyFault(said.format(event=event.id, previous=previous_id))
        if event.prev_hash != previous:
            raise VerifyFault(_("event {event} does not follow the event before it").format(event=event.id))
        if _digest(event) != event.hash:
            raise VerifyFault(_altered(event.id))
        previous, previous_id = event.hash, event.id
    if stop == len(events) and (head.seq, head.hash) != (len(events), previous):
        said = _(
            "session {number}: its chain should end at event number {seq}, but the stored events end at"
            " {stored}: events were removed or the session row altered"
        )
        raise VerifyFault(said.format(number=head.session_id, seq=head.seq, stored=len(events)))


def _digest(event: Any) -> str:
    fields = (event.prev_hash, event.session_id, event.seq, event.kind, event.actor, event.at, event.payload)
    try:
        return event_hash(*fields)
    except (TypeError, ValueError):  # a value stored with another type, e.g. bytes, by hand
        return ""


def _fold(machine: TableMachine, event: Any, supervisors: set[str]) -> Outcome:
    try:
        kind = _KINDS.get(event.kind)
        if kind is None:
            said = _("event {event} cannot be read: {kind} is not a kind of event")
            raise VerifyFault(said.format(event=event.id, kind=repr(event.kind)))
        canonical = machine.check(kind, read_json(event.payload))
        if canonical_json(canonical) != event.payload:
            raise VerifyFault(_altered(event.id))
        if kind in SUPERVISED and (supervisor := approver(canonical)) not in supervisors:
            said = _("event {event}: {supervisor} is not a supervisor")
            raise VerifyFault(said.format(event=event.id, supervisor=supervisor))
        return machine.apply_checked(kind, canonical)
    except ActionRefused as error:
        raise VerifyFault(breaks_the_rules(event.id, error)) from None
    except (ValueError, KeyError, TypeError) as error:
        raise VerifyFault(
            _("event {event} cannot be read: {problem}").format(event=event.id, problem=error)
        ) from None


def _altered(event_id: int) -> str:
    return _("event {event} was altered").format(event=event_id)


def _check_hands(session: Any, session_id: int, stored: Sequence[Any], expected: _Expected) -> list[str]:
    """Faults for a hand row missing or altered; a sentence for each row set aside: a hand row
    for a hand never settled, a transfer beside a hand's own."""
    by_number = {row.number: row for row in stored}
    transfers = _transfers_by_hand(session, session_id)
    set_aside = []
    for fields in expected.hands:
        number = fields["number"]
        row = by_number.pop(number, None)
        if row is None:
            said = _("hand {number} of session {session} is missing")
            raise VerifyFault(said.format(number=number, session=session_id))
        changed = [key for key, value in fields.items() if getattr(row, key) != value]
        if "result" in changed:
            raise VerifyFault(result_differs(number))
        if changed:
            said = _("hand {number}: stored {column} differs from the events")
            raise VerifyFault(said.format(number=number, column=changed[0]))
        extra = _beside(transfers.get(row.id, ([], [])), expected.transfers[number])
        if extra is None:
            raise VerifyFault(
                _("hand {number}: stored transfers differ from the rules").format(number=number)
            )
        said = _("session {session}: transfer row {row} of hand {number} is none the rules give")
        set_aside += [said.format(session=session_id, row=row_id, number=number) for row_id, _fields in extra]
    said = _("session {session}: hand row {row} (hand {number}) is of a hand never settled")
    set_aside += [
        said.format(session=session_id, row=row.id, number=number)
        for number, row in sorted(by_number.items())
    ]
    return set_aside


Rows = tuple[list[int], list[dict[str, object]]]
"""Stored rows: their ids, and their fields as the events would give them, in the same order."""


def _beside(
    stored: Rows, expected: Sequence[TransferFields] | Sequence[LedgerFields]
) -> list[tuple[int, dict[str, object]]] | None:
    """The stored rows (id and fields) beside the expected ones, when every expected row is stored,
    unaltered and in order among them; None when one is missing or altered."""
    ids, rows = stored
    if rows == expected:
        return []  # as it always is, unless someone added a row
    extra, position = [], 0
    for row_id, fields in zip(ids, rows, strict=True):
        if position < len(expected) and fields == expected[position]:
            position += 1
        else:
            extra.append((row_id, fields))
    return extra if position == len(expected) else None


def _transfers_by_hand(session: Any, session_id: int) -> dict[int, Rows]:
    """Every transfer of the session's hands, in order, keyed by the hand row's id."""
    columns = [getattr(TransferRow, key) for key in TRANSFER_KEYS]
    rows = (
        session.connection()
        .execute(
            select(TransferRow.hand_id, TransferRow.id, *columns)
            .join(HandRow, HandRow.id == TransferRow.hand_id)
            .where(HandRow.session_id == session_id)
            .order_by(TransferRow.hand_id, TransferRow.ordinal)
        )
        .all()
    )
    transfers: dict[int, Rows] = {}
    for hand_id, row_id, *values in rows:
        ids, fields = transfers.setdefault(hand_id, ([], []))
        ids.append(row_id)
        fields.append(dict(zip(TRANSFER_KEYS, values, strict=True)))
    return transfers


def _check_ledger(session: Any, session_id: int, expected: list[LedgerFields]) -> list[str]:
    """Faults for a ledger row missing or altered; a sentence for each row set aside: one beside
    those the events give, all of which are there, unaltered and in order."""
    columns = [getattr(LedgerRow, key) for key in LEDGER_KEYS]
    stored = (
        session.connection()
        .execute(
            select(LedgerRow.id, *columns).where(LedgerRow.session_id == session_id).order_by(LedgerRow.id)
        )
        .all()
    )
    ids = [row_id for row_id, *_ in stored]
    rows = [dict(zip(LEDGER_KEYS, values, strict=True)) for _, *values in stored]
    extra = _beside((ids, rows), expected)
    if extra is not None:
        said = _(
            "session {session}: chip ledger row {row} ({player} {amount}, {kind}) is none the events give"
        )
        return [
            said.format(
                session=session_id,
                row=row_id,
                player=row["player"],
                amount=f"{row['amount']:+}",
                kind=row["kind"],
            )
            for row_id, row in extra
        ]
    for position, (row_id, fields) in enumerate(zip(ids, rows, strict=True)):
        if position < len(expected) and fields == expected[position]:
            continue
        if fields in expected[position + 1 : position + 2]:
            # This row belongs one further on: the one expected here is gone, not this one altered.
            raise VerifyFault(_missing_ledger_entry(session_id, expected[position]))
        raise VerifyFault(_("chip ledger row {row} differs from the events").format(row=row_id))
    raise VerifyFault(_missing_ledger_entry(session_id, expected[len(rows)]))


def _missing_ledger_entry(session_id: int, missing: LedgerFields) -> str:
    said = _("session {session}: the chip ledger is missing {player}'s {kind} of event {event}")
    return said.format(
        session=session_id, player=missing["player"], kind=missing["kind"], event=missing["event_id"]
    )


def _refuse_orphans(session: Any) -> None:
    """Rows that no table session accounts for (added by hand, outside the service). The database
    looks for them: reading every row's owner cost as much as checking a session's chain."""
    owned = (
        (Event, lazy_gettext("event {row} belongs to no table session")),
        (HandRow, lazy_gettext("hand row {row} belongs to no table session")),
        (LedgerRow, lazy_gettext("chip ledger row {row} belongs to no table session")),
    )
    for model, fault in owned:
        orphan = session.scalar(
            select(func.min(model.id)).where(model.session_id.not_in(select(TableSession.id)))
        )
        if orphan is not None:
            raise VerifyFault(str(fault).format(row=orphan))
    orphan = session.scalar(
        select(func.min(TransferRow.id)).where(TransferRow.hand_id.not_in(select(HandRow.id)))
    )
    if orphan is not None:
        raise VerifyFault(_("transfer {row} belongs to no hand").format(row=orphan))
