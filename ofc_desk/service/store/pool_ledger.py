"""The room's jackpot pool as a desk reads it: the sum of the changes the room's events give, each
tied to the signed event that made it, never a stored total (issue 35).

A `jackpot_moves` row says a change and the pool after it, but any login that records may add one
(beside a rebuy, say) and the file's owner may edit one. So the pool a desk pays from is walked
from the events (`room_pool.PoolWalk`, the same walk as `verify`'s): every table that has a row of
the pool is folded through the rules again, its hash chain checked as it goes; each change is
counted only when its event carries the signature it needs (a settlement its dealer's, a seed or
a void its supervisor's: `signoffs.check_signed`, against the accounts chain); and the stored rows
are held to the changes. A row no event gives is set aside and named; a row missing or altered, or
a settlement that found another pool, is a fault, and nothing is paid from the pool until the
floor has looked (`PoolReading.payable`).

Folding a room costs what `verify` does, so each process keeps what it has walked (one `PoolLedger`
per database): the next reading folds only the events recorded since, and reads only the rows
added since. What a process walked once it does not walk again; a row altered after that is
`verify`'s to name. A table closed and walked to its close is not asked again (a room lives for
years: issue 39), but for the events numbered after the last reading's, which name any table an
event was added to since; so a reading's statements grow with what changed, not with the room's
history.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import and_, func, literal, or_, select
from sqlalchemy.orm import Session

from ofc_desk.i18n import _
from ofc_desk.service.room.room_pool import (
    PoolRow,
    PoolStep,
    PoolWalk,
    has_pool,
    hold_pool,
    pool_step,
    read_moves,
    rows_newest_first,
)
from ofc_desk.service.store.signoffs import (
    SignoffFault,
    check_signed,
    marks_entries,
    read_accounts,
    signature_verifies,
)
from ofc_desk.service.table.fold import FoldHooks, fold, pinned_machine
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.outcome import Outcome
from ofc_desk.service.terms.payloads import EventPayload
from ofc_desk.storage.accounts import AccountsChain
from ofc_desk.storage.audit import canonical_json, event_hash, read_json
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import AccountEvent, Event, Signature, TableSession

_EVENT_COLUMNS = (
    Event.id,
    Event.session_id,
    Event.seq,
    Event.kind,
    Event.actor,
    Event.at,
    Event.payload,
    Event.prev_hash,
    Event.hash,
)
_BATCH = 400
"""Tables read in one statement (two parameters each: SQLite's oldest limit is 999)."""
_ROWS_BACK = 500
"""Stored rows of the pool read in one statement, newest first (`last_verified_rows`)."""


class PoolFault(ActionRefused):
    """The room's pool does not verify: nothing is paid from it."""


@dataclass(frozen=True)
class PoolReading:
    """The room's pool as its events give it, whether the stored record agrees, and the rows and
    changes set aside (each in a sentence)."""

    pool: int
    fault: str | None = None
    set_aside: tuple[str, ...] = ()

    def payable(self) -> int:
        """The pool, when it verifies; `PoolFault` telling the dealer what is wrong otherwise."""
        if self.fault is not None:
            said = _(
                "the room's jackpot pool does not verify ({fault}): nothing is paid from it; call the floor"
            )
            raise PoolFault(said.format(fault=self.fault))
        return self.pool


@dataclass
class _Followed:
    """A table whose events give changes of the pool, folded as far as `seq`."""

    machine: TableMachine | None = None
    seq: int = 0
    last_event: int = 0
    hash: str = ""
    stopped: bool = False
    """Its events stopped folding (one the rules refuse, a broken chain): nothing after counts."""
    approvals: dict[int, int] = field(default_factory=dict)
    """Each approved request to the floor: the number of the event that approved it."""
    closed: bool = False
    """Closed, and folded to its last event: read again only when an event is added to it."""

    def live(self) -> bool:
        """Whether its events are read at the next reading."""
        return not self.stopped and not self.closed


class PoolLedger:
    """One process's walk of one database's pool (`pool_ledger`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._forget()

    def _forget(self) -> None:
        """Nothing walked yet."""
        self._followed: dict[int, _Followed] = {}
        self._walk: PoolWalk | None = None
        self._last_row = 0
        self._last_event = 0
        self._accounts: tuple[tuple[int, str], AccountsChain | str] | None = None
        self._not_counted: list[str] = []

    def read(self, session: Session) -> PoolReading:
        """The pool now, read inside the caller's snapshot or under the pool's lock (`hold_pool`),
        so that a change and its event are read together."""
        with self._lock:
            try:
                return self._read(session)
            except BaseException:
                self._forget()  # half a walk is no walk: the next reading starts afresh
                raise

    def _read(self, session: Session) -> PoolReading:
        if self._walk is None:
            self._walk = PoolWalk(rows_kept=has_pool(session))
        walk = self._walk
        if not walk.rows_kept:
            return PoolReading(0)  # a schema from before the room's pool: its drops paid nothing
        rows = read_moves(session, self._last_row)
        self._last_row = rows[-1].id if rows else self._last_row
        walk.take(rows)
        for row in rows:
            self._followed.setdefault(row.session_id, _Followed())
        chain = self._chain(session)
        steps = self._fold_new(session, chain)
        for step in sorted(steps, key=lambda step: step.event_id):
            walk.walk(step)
        walk.set_aside_rows(self._walked)
        fault = chain if isinstance(chain, str) else walk.fault
        return PoolReading(walk.pool, fault, (*self._not_counted, *walk.set_aside))

    def given(self, row_ids: Iterable[int]) -> set[int]:
        """Which of these stored rows the events give, as far as this process has walked: as many
        looked up as asked about, not a set of the pool's whole history."""
        with self._lock:
            matched = self._walk.matched if self._walk is not None else set()
            return {row_id for row_id in row_ids if row_id in matched}

    def _walked(self, row: Any) -> bool:
        """Whether the row's event was folded (so it gave no such change) or never will be."""
        followed = self._followed.get(row.session_id)
        return followed is not None and (followed.stopped or row.event_id <= followed.last_event)

    def _chain(self, session: Session) -> AccountsChain | str:
        """The accounts chain (read again only when its head moved), or why it does not verify."""
        head = session.execute(
            select(AccountEvent.seq, AccountEvent.hash).order_by(AccountEvent.seq.desc()).limit(1)
        ).first()
        key = (head.seq, head.hash) if head is not None else (0, "")
        if self._accounts is None or self._accounts[0] != key:
            try:
                self._accounts = (key, read_accounts(session))
            except SignoffFault as fault:
                self._accounts = (key, _("the room's accounts do not verify: {fault}").format(fault=fault))
        return self._accounts[1]

    def _fold_new(self, session: Session, chain: AccountsChain | str) -> list[PoolStep]:
        """Each followed table's events recorded since its last reading, in a bounded number of
        statements: the tables still open (or not yet walked to their close), and any closed one
        an event was added to since (only its file's owner can add one)."""
        self._wake_closed(session)
        live = {session_id: followed for session_id, followed in self._followed.items() if followed.live()}
        if not live:
            return []
        heads = self._heads(session, live)  # before the events: a table closed here has them all
        steps: list[PoolStep] = []
        for session_id, events in _new_events(session, live).items():
            followed = live[session_id]
            made = self._fold(followed, events)
            if isinstance(chain, str):
                steps += [step for _event, step in made]  # the fault says the accounts do not verify
            else:
                steps += self._tied(session, followed, made, chain)
        for session_id, followed in live.items():
            followed.closed = heads.get(session_id) == followed.seq
        return steps

    def _wake_closed(self, session: Session) -> None:
        """Follow again a closed table an event was added to since the last reading, and move the
        mark of the events seen on."""
        added = session.connection().execute(
            select(Event.session_id, func.max(Event.id))
            .where(Event.id > self._last_event)
            .group_by(Event.session_id)
        )
        for session_id, last in added:
            self._last_event = max(self._last_event, last)
            followed = self._followed.get(session_id)
            if followed is not None:
                followed.closed = False

    @staticmethod
    def _heads(session: Session, live: dict[int, _Followed]) -> dict[int, int]:
        """The last event of each of these tables that is closed (in this snapshot, so every event
        of it is here): a table walked to it has nothing more to give."""
        heads: dict[int, int] = {}
        for batch in _batches(list(live)):
            closed = session.connection().execute(
                select(TableSession.id, TableSession.head_seq).where(
                    TableSession.id.in_(batch), TableSession.closed_at.is_not(None)
                )
            )
            heads.update((session_id, head_seq) for session_id, head_seq in closed)
        return heads

    def _fold(self, followed: _Followed, events: Sequence[Any]) -> list[tuple[Any, PoolStep]]:
        """The events folded as `verify` folds them, their links and hashes checked; each with
        the change of the pool it gives."""
        if followed.machine is None:
            followed.machine = pinned_machine(events)
        walked = _Walked(followed)
        if not fold(followed.machine, events, walked):
            followed.stopped = True
            said = _(
                "session {session} does not verify from event {event} on: its later changes of the"
                " room's jackpot pool are not counted"
            )
            self._not_counted.append(said.format(session=walked.at.session_id, event=walked.at.id))
        return walked.made

    def _tied(
        self, session: Session, followed: _Followed, made: list[tuple[Any, PoolStep]], chain: AccountsChain
    ) -> list[PoolStep]:
        """The changes whose events carry the signatures they need; a sentence for each other."""
        if not made or made[0][0].session_id <= chain.sessions_before:
            return [step for _event, step in made]  # opened before sign-offs: none to check
        wanted = {_signed_at(followed, event) for event, _step in made}
        signers = _signers(session, made[0][0].session_id, wanted, chain)
        counted = []
        for event, step in made:
            try:
                check_signed(event, signers.get(_signed_at(followed, event), {}), chain)
            except SignoffFault as fault:
                said = _("event {event}'s change of the room's jackpot pool is not counted: {fault}")
                self._not_counted.append(said.format(event=event.id, fault=fault))
                continue
            counted.append(step)
        return counted


class _Walked(FoldHooks[Any]):
    """A table's new events checked as they are folded: each links to the one before and hashes
    as stored, and is stored as the rules write it. Keeps each change of the pool with its event,
    and the event the fold stopped at, if it did."""

    def __init__(self, followed: _Followed) -> None:
        self.followed = followed
        self.made: list[tuple[Any, PoolStep]] = []
        self.at: Any = None

    def before(self, machine: TableMachine, event: Any) -> None:
        followed = self.followed
        previous = event.prev_hash if followed.seq == 0 else followed.hash
        content = (
            event.prev_hash,
            event.session_id,
            event.seq,
            event.kind,
            event.actor,
            event.at,
            event.payload,
        )
        if event.seq != followed.seq + 1 or event.prev_hash != previous or event_hash(*content) != event.hash:
            raise ValueError("the chain is broken here")

    def checked(self, event: Any, kind: EventKind, canonical: EventPayload) -> None:
        if canonical_json(canonical) != event.payload:
            raise ValueError("the payload is not as the rules write it")

    def folded(self, event: Any, outcome: Outcome) -> None:
        followed = self.followed
        if event.kind == EventKind.REQUEST_DECIDED:
            decided = read_json(event.payload)
            if decided.get("approved") is True:
                followed.approvals[decided["request"]] = event.seq
        followed.seq, followed.hash, followed.last_event = event.seq, event.hash, event.id
        if (step := pool_step(event.id, event.session_id, outcome)) is not None:
            self.made.append((event, step))

    def refused(self, event: Any, error: Exception) -> None:
        self.at = event


def _new_events(session: Session, live: dict[int, _Followed]) -> dict[int, list[Any]]:
    """The events of these tables after the last each was folded to, by table, in order: a
    statement per `_BATCH` tables (one, but at a first reading), not one per table."""
    events: dict[int, list[Any]] = {}
    for batch in _batches(sorted(live)):
        after = or_(*(and_(Event.session_id == table, Event.seq > live[table].seq) for table in batch))
        query = select(*_EVENT_COLUMNS).where(after).order_by(Event.session_id, Event.seq)
        for event in session.connection().execute(query):
            events.setdefault(event.session_id, []).append(event)
    return events


def _batches(session_ids: list[int]) -> list[list[int]]:
    """The tables in batches of `_BATCH`, within every driver's limit of bound parameters."""
    return [session_ids[start : start + _BATCH] for start in range(0, len(session_ids), _BATCH)]


def _signed_at(followed: _Followed, event: Any) -> int:
    """The event whose signatures count for `event`: a void carried out on the floor's approval is
    signed on that approval (`signoffs`)."""
    if event.kind == EventKind.HAND_VOIDED:
        request = read_json(event.payload).get("request")
        if request is not None:
            return followed.approvals.get(request, 0)
    return int(event.seq)


def _signers(
    session: Session, session_id: int, seqs: set[int], chain: AccountsChain
) -> dict[int, dict[str, int]]:
    """Who signed each of these events of the session with a signature that holds, under the key
    its signer held under the accounts head it names, over the event as stored and over accounts
    the chain still holds, and is not backdated (`signoffs.check_session_signoffs`); each with the
    accounts head their signature names."""
    found = session.connection().execute(
        select(Event.seq, Event.hash).where(Event.session_id == session_id, Event.seq.in_(seqs))
    )
    hashes = {seq: digest for seq, digest in found}
    keyed = Signature.entries_key if marks_entries(session) else literal("").label("entries_key")
    rows = session.connection().execute(
        select(
            Signature.seq,
            Signature.hash,
            Signature.signer,
            Signature.signature,
            Signature.accounts_seq,
            Signature.accounts_hash,
            keyed,
        ).where(Signature.session_id == session_id, Signature.seq.in_(seqs))
    )
    signed: dict[int, dict[str, int]] = {}
    for row in rows:
        if (
            hashes.get(row.seq) == row.hash
            and (not row.accounts_seq or chain.holds(row.accounts_seq, row.accounts_hash))
            and row.accounts_seq >= chain.floor(session_id, row.seq)
            and signature_verifies(chain, session_id, row)
        ):
            signed.setdefault(row.seq, {})[row.signer] = row.accounts_seq
    return signed


_LEDGERS: WeakKeyDictionary[Database, PoolLedger] = WeakKeyDictionary()
_LEDGERS_LOCK = threading.Lock()


def ledger_of(database: Database) -> PoolLedger:
    """This process's walk of the database's pool."""
    with _LEDGERS_LOCK:
        found = _LEDGERS.get(database)
        if found is None:
            found = _LEDGERS[database] = PoolLedger()
        return found


def pool_reading(database: Database) -> PoolReading:
    """The room's pool now, read in a snapshot (`PoolLedger.read`)."""
    with database.snapshot() as session:
        return ledger_of(database).read(session)


def room_pool(database: Database) -> int:
    """The room's jackpot pool as its events give it (0 for a database from before the room's
    pool): what the desk shows; paying takes `PoolReading.payable`."""
    return pool_reading(database).pool


def pool_in(session: Session, database: Database) -> int:
    """`room_pool` read in a snapshot already open (the floor's reading of the room)."""
    return ledger_of(database).read(session).pool


def last_verified_rows(
    database: Database, wanted: Sequence[Callable[[PoolRow], bool]], given: Collection[int] | None = None
) -> tuple[PoolRow | None, ...]:
    """For each test in `wanted`, the newest of the room's stored pool changes that its events give
    (a row set aside is never one) that passes it, None where none does: the pool after it is the
    events' own. Read newest first, `_ROWS_BACK` at a time, until each test has its row: a shift
    report reads the rows since its shift began, not the room's history (issue 39). `given`: the
    ids of the rows the events give as `verify`'s walk just found them (a row stored since is none
    of them), so that the pool is not walked again; None: this process's walk (`PoolLedger`)."""
    found: list[PoolRow | None] = [None] * len(wanted)
    with database.snapshot() as session:
        if given is None:
            ledger = ledger_of(database)
            ledger.read(session)
            among = ledger.given
        else:
            among = partial(_among, given)
        if not has_pool(session):
            return tuple(found)
        below: int | None = None
        while None in found and (rows := rows_newest_first(session, below, _ROWS_BACK)):
            kept = among(number for number, _row in rows)
            for number, row in rows:
                if number in kept:
                    found = [
                        row if was is None and test(row) else was
                        for was, test in zip(found, wanted, strict=True)
                    ]
            below = rows[-1][0]
    return tuple(found)


def _among(given: Collection[int], row_ids: Iterable[int]) -> set[int]:
    return {row_id for row_id in row_ids if row_id in given}


def held_pool(session: Session, database: Database) -> PoolReading | None:
    """Take the pool's lock for this transaction (`room_pool.hold_pool`) and read the pool under
    it; None in a schema from before the room's pool (a test recording as an older desk did)."""
    hold_pool(session)
    return ledger_of(database).read(session) if has_pool(session) else None
