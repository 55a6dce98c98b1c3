"""`verify`'s check of one session: its hash chain and signatures (beside the fold, in a second
process for a long session: `side_check`), every event folded through the rules again (a stored
action the rules refuse is a fault), every derived row compared with what the events give
(`verify_rows`), and chips conserved."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import bindparam, select

from ofc_desk.i18n import _
from ofc_desk.service.audit import side_check
from ofc_desk.service.audit.rescoring import ScoresBeside, StoredResult, breaks_the_rules, rescore
from ofc_desk.service.audit.side_check import Faults, checked_beside
from ofc_desk.service.audit.verify_chain import ChainHead, altered, chain_fault
from ofc_desk.service.audit.verify_rows import ExpectedRows, check_hands, check_ledger
from ofc_desk.service.room.room_pool import PoolStep, pool_step
from ofc_desk.service.store.entry_marks import EntryFault, check_entries, marks_query
from ofc_desk.service.store.persistence import hand_fields, ledger_fields, transfer_fields
from ofc_desk.service.store.records import HandFields, LedgerFields
from ofc_desk.service.store.signoffs import (
    HeldSignatures,
    SignoffFault,
    check_session_signoffs,
    signatures_query,
)
from ofc_desk.service.table.actions import SUPERVISED
from ofc_desk.service.table.fold import FoldHooks, fold, pinned_machine
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.table.supervision import approver
from ofc_desk.service.terms.errors import ActionRefused, VerifyFault
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.outcome import NO_ROWS, Outcome
from ofc_desk.service.terms.payloads import EventPayload
from ofc_desk.storage.accounts import AccountsChain
from ofc_desk.storage.audit import plain_canonical_json, spelt_canonically
from ofc_desk.storage.connections import SESSION_ID, driver_rows
from ofc_desk.storage.models import Event, HandRow, TableSession


class EventRow(NamedTuple):
    """A stored event's columns as `verify` reads them: every check reads a long session's events
    by name many times, and a name read from a SQLAlchemy `Row` cost a tenth of the whole check
    (a tuple's field, a tenth of that)."""

    id: int
    session_id: int
    seq: int
    kind: str
    actor: str
    at: str
    payload: str
    prev_hash: str
    hash: str


class HandStored(NamedTuple):
    """A stored hand row's columns as `verify` reads them (compared with the events'), as `EventRow`."""

    id: int
    session_id: int
    event_id: int
    number: int
    button: str
    fantasyland: str
    result: str
    rake: str
    jackpot: int
    settled_at: str


class MarkRow(NamedTuple):
    """An entry's mark as `verify` reads it (`entry_marks.marks_query`), as `EventRow`."""

    id: int
    seq: int
    mark: str


class SignatureRow(NamedTuple):
    """A signature as `verify` reads it (`signoffs.signatures_query`), as `EventRow`."""

    id: int
    seq: int
    hash: str
    signer: str
    signature: str
    accounts_seq: int
    accounts_hash: str
    entries_key: str


Named = TypeVar("Named", EventRow, HandStored, MarkRow, SignatureRow)


def named(kind: type[Named], rows: Iterable[Any]) -> list[Named]:
    """Rows of the columns `kind` names, in its order, as `kind`: each row's tuple made in C, not
    by `_make` (a Python call a row, and a check of the length a select of those columns has)."""
    return list(map(partial(tuple.__new__, kind), rows))


# Rows are read as plain tuples through the session's connection (SQLAlchemy Core), each table
# in one query per session (`verify_rows` reads the transfers and the ledger so too): building an
# ORM object for each of a long session's events, or asking for each hand's transfers apart, cost
# more than all of the rules' re-checking, and even a select of columns through the ORM session
# passes every row through its loading.
_EVENT_COLUMNS = tuple(getattr(Event, name) for name in EventRow._fields)
_HAND_COLUMNS = tuple(getattr(HandRow, name) for name in HandStored._fields)
# Each built once, the session's id bound at each read (`connections.SESSION_ID`).
_EVENTS_READ = (
    select(*_EVENT_COLUMNS).where(Event.session_id == bindparam(SESSION_ID)).order_by(Event.seq, Event.id)
)
_HANDS_READ = (
    select(*_HAND_COLUMNS).where(HandRow.session_id == bindparam(SESSION_ID)).order_by(HandRow.number)
)
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


def check_session(
    session: Any, row: TableSession, supervisors: set[str], accounts: AccountsChain, *, fork: bool = False
) -> VerifiedRows:
    """Everything `verify` checks of one session but its link to the session before it; with
    `fork`, a long one's chain and signatures are checked and its hands re-scored in a second
    process where that is safe. Raises VerifyFault naming the first fault."""
    connection, this_session = session.connection(), {SESSION_ID: row.id}
    events = named(EventRow, driver_rows(connection, _EVENTS_READ, this_session))
    if not events:
        # The service writes a session row and its opening event in one transaction.
        raise VerifyFault(
            _("session {number} holds no events, not even its opening: it was added by hand").format(
                number=row.id
            )
        )
    signatures = named(SignatureRow, driver_rows(connection, signatures_query(session), this_session))
    marks_read = marks_query(session)
    marks = [] if marks_read is None else named(MarkRow, driver_rows(connection, marks_read, this_session))
    hands = named(HandStored, driver_rows(connection, _HANDS_READ, this_session))
    head = ChainHead(row.id, row.head_seq, row.head_hash)
    results = {hand.number: hand.result for hand in hands}

    # Asked through its module, as every caller does, so whatever says forking is safe says it once.
    beside = fork and len(events) >= FORK_FROM_EVENTS and side_check.can_fork()
    # Beside the fold, the second process checks the signatures, re-scores the hands and checks
    # the chain but for its last part, which this process checks once the fold is done: the fold
    # takes longer than the rest, and so both end together.
    split = len(events) - len(events) // CHAIN_CHECKED_AFTER_THE_FOLD if beside else len(events)
    checks = (
        partial(chain_fault, head, events, 0, split),
        partial(_signoffs_fault, head.session_id, events, signatures, marks, accounts),
    )
    with checked_beside(checks, partial(rescore, results), fork=beside) as second:
        stored = _Stored(hands, ScoresBeside(results, second) if beside else None)
        try:
            verified, fold_fault = _fold_session(session, row, events, supervisors, stored), None
        except VerifyFault as fault:
            verified, fold_fault = None, fault
        chain_end = chain_fault(head, events, split, len(events))
        chain_start, signoffs, rescored = second.faults()
    # The chain first, then the signatures, then the hands re-scored beside the fold: a fault
    # there is named before any the fold finds (the fold went on with the stored results).
    raise_first((chain_start, chain_end, signoffs, rescored))
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


def raise_first(faults: Faults) -> None:
    """The first fault of `faults`; a list there names rows set aside, no fault."""
    fault = next((fault for fault in faults if isinstance(fault, str)), None)
    if fault is not None:
        raise VerifyFault(fault)


def _signoffs_fault(
    session_id: int,
    events: Sequence[Any],
    signatures: Sequence[Any],
    marks: Sequence[Any],
    accounts: AccountsChain,
) -> str | list[str] | None:
    """The sign-offs' fault (the entries' marks among them: `entry_marks`), or the sentences of
    the signatures and marks set aside (None: none)."""
    held = HeldSignatures(accounts, session_id)  # a signature publishing a key: checked once for both
    try:
        aside = check_session_signoffs(session_id, events, signatures, held)
        return aside + check_entries(session_id, events, signatures, marks, held) or None
    except (SignoffFault, EntryFault) as fault:
        return str(fault)


def _fold_session(
    session: Any, row: TableSession, events: Sequence[Any], supervisors: set[str], stored: _Stored
) -> VerifiedRows:
    """Every event folded through the rules again, every derived row compared, chips conserved."""
    pinning = EventKind.RULES_PINNED.value
    machine = pinned_machine([event for event in events if event.kind == pinning])
    if stored.scorer is not None:
        machine.scorer = stored.scorer
    checks = _Checks(machine, row, supervisors, stored.scorer)
    fold(machine, events, checks)
    expected = checks.expected
    if row.closed_at is not None and not machine.closed:
        raise VerifyFault(_("session {number}: marked closed, but no event closed it").format(number=row.id))
    if row.table_name != machine.table or row.opened_at != events[0].at:
        raise VerifyFault(
            _("session {number}: its table name or opening time was altered").format(number=row.id)
        )
    set_aside = check_hands(session, row.id, stored.hands, expected)
    set_aside += check_ledger(session, row.id, expected.ledger)
    chips = sum(seat.stack for seat in machine.seats)
    if chips != sum(entry["amount"] for entry in expected.ledger):
        raise VerifyFault(_("session {number}: chips are not conserved").format(number=row.id))
    live_hand = machine.hands_started if machine.hands_started and not machine.hand_settled else None
    derived = (expected.hands, expected.ledger, chips, tuple(set_aside), tuple(checks.pool_steps))
    return VerifiedRows(events, *derived, checks.stacks_after, live_hand)


class _Checks(FoldHooks[Any]):
    """`verify`'s checks of each event the fold reads, and the rows the events give."""

    def __init__(
        self, machine: TableMachine, row: TableSession, supervisors: set[str], scorer: ScoresBeside | None
    ) -> None:
        self.machine, self.row, self.supervisors, self.scorer = machine, row, supervisors, scorer
        self.expected = ExpectedRows([], {}, [])
        self.pool_steps: list[PoolStep] = []
        self.stacks_after: dict[int, Stacks] = {}
        self.ledger_order: dict[str, None] = {}  # each player once, in the order they first had chips

    def before(self, machine: TableMachine, event: Any) -> None:
        if event.kind not in _KINDS:
            said = _("event {event} cannot be read: {kind} is not a kind of event")
            raise VerifyFault(said.format(event=event.id, kind=repr(event.kind)))
        if self.scorer is not None:
            self.scorer.event_id = event.id

    def checked(self, event: Any, kind: EventKind, canonical: EventPayload) -> None:
        if not spelt_canonically(canonical, event.payload):
            raise VerifyFault(altered(event.id))
        if kind in SUPERVISED and (supervisor := approver(canonical)) not in self.supervisors:
            said = _("event {event}: {supervisor} is not a supervisor")
            raise VerifyFault(said.format(event=event.id, supervisor=supervisor))

    def folded(self, event: Any, outcome: Outcome) -> None:
        if outcome is NO_ROWS:
            return
        if step := pool_step(event.id, self.row.id, outcome):
            self.pool_steps.append(step)
        for entry in outcome.ledger:
            self.ledger_order.setdefault(entry.player, None)
        machine, expected = self.machine, self.expected
        if outcome.hand is not None:
            # A stored result the fold went on with is its own text (the second process compares it);
            # the core's is spelt as `SettledHand.result_text` spells it, through orjson.
            result = machine.result
            if isinstance(result, StoredResult):
                text = result.text
            else:
                text = plain_canonical_json(outcome.hand.scored.to_json())
            expected.hands.append(hand_fields(outcome, event.id, event.at, text))
            expected.transfers[outcome.hand.number] = transfer_fields(outcome)
            self.stacks_after[outcome.hand.number] = _stacks(machine, self.ledger_order)
        expected.ledger.extend(ledger_fields(outcome, event.id))
        if outcome.closes_session and self.row.closed_at != event.at:
            raise VerifyFault(_("session {number}: its closing time was altered").format(number=self.row.id))

    def refused(self, event: Any, error: Exception) -> None:
        if isinstance(error, ActionRefused):
            raise VerifyFault(breaks_the_rules(event.id, error)) from None
        said = _("event {event} cannot be read: {problem}")
        raise VerifyFault(said.format(event=event.id, problem=error)) from None


def _stacks(machine: TableMachine, ledger_order: Mapping[str, None]) -> Stacks:
    """The seated players' stacks, in the order they first had chips in the ledger (a report's)."""
    seated = {seat.name: seat.stack for seat in machine.seats}
    return tuple((name, seated[name]) for name in ledger_order if name in seated)
