"""The service's bridge to storage: append an accepted event with its derived rows in ONE
transaction, committed before the action is acknowledged; fold stored events back into a machine.
The faces' reads of the history rows are `record_reads`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, CursorResult, Row, Update, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError, ProgrammingError
from sqlalchemy.orm import Session

from ofc_desk.i18n import _, lazy_gettext
from ofc_desk.service.room import desk_holds, room_pool
from ofc_desk.service.room.room_chain import link_new_session, lock_openings
from ofc_desk.service.store.entry_marks import EntryStamp, stamp_row
from ofc_desk.service.store.pool_ledger import held_pool, pool_reading
from ofc_desk.service.store.records import (
    HandFields,
    LedgerFields,
    TransferFields,
)
from ofc_desk.service.store.signoffs import marks_entries
from ofc_desk.service.table.actions.spec import CheckedAction
from ofc_desk.service.table.fold import StoredEvent, fold, folded
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.outcome import Outcome
from ofc_desk.service.terms.payloads import EventPayload, TableOpened
from ofc_desk.storage.accounts import BUILTIN_REPLAY
from ofc_desk.storage.append_locks import ACCOUNTS_LOCK, share_append_lock
from ofc_desk.storage.audit import GENESIS_HASH, canonical_json, event_hash, utc_now
from ofc_desk.storage.database import Database
from ofc_desk.storage.keys import head_message, sign
from ofc_desk.storage.models import (
    AccountEvent,
    EntryMark,
    Event,
    HandRow,
    LedgerRow,
    Signature,
    TableSession,
    TransferRow,
)
from ofc_desk.storage.table_notices import table_changed_notice
from ofc_desk.storage.users import Account, Role, SignInError, sign_in

CHANGED_ELSEWHERE = lazy_gettext(
    "this table was changed at another desk: it now shows what is stored — check it, then do it"
    " again if it still applies"
)
"""The refusal a desk meets when another wrote first, said once it holds the table as stored
(`TableRecorder.record`); compared as said (`str`), in the same thread."""


class _HeadNotMoved(ActionRefused):
    """`CHANGED_ELSEWHERE` as the head's conditional UPDATE says it (`_move_head`): the append then
    reads who wrote (`EventStore._refusal`)."""

    def __init__(self) -> None:
        super().__init__(str(CHANGED_ELSEWHERE))


# Every append runs these: built once, executed with parameters, on the session's connection. An
# ORM object a row and a flush of the unit of work cost the desk's process more CPU than the
# statements themselves (benchmarks/action_cost_bench.py).
_HEAD_SEQ = select(TableSession.head_seq).where(TableSession.id == bindparam("session"))
_MOVE_HEAD = update(TableSession).where(
    TableSession.id == bindparam("session"), TableSession.head_seq == bindparam("expected")
)
"""Moves the head only from where this store left it: SET from the columns given (`head_seq`,
`head_hash`, and `opened_at` or `closed_at` with the opening or closing event)."""


def _head_move(held: bool, notified: bool) -> Update:
    """`_MOVE_HEAD` for an event of a desk that must still hold its table (`desk_holds.HELD_HERE`),
    and on PostgreSQL with the floor told of the event by the row the head moved on."""
    statement = _MOVE_HEAD.where(desk_holds.HELD_HERE) if held else _MOVE_HEAD
    return statement.returning(table_changed_notice(TableSession.id)) if notified else statement


_MOVES = {
    (held, notified): _head_move(held, notified) for held in (False, True) for notified in (False, True)
}
_INSERT_EVENT = insert(Event)
_INSERT_HAND = insert(HandRow)
_INSERT_TRANSFER = insert(TransferRow)
_INSERT_LEDGER = insert(LedgerRow)
_INSERT_SIGNATURE = insert(Signature)
_INSERT_MARK = insert(EntryMark)


@dataclass(frozen=True)
class WrittenEvent:
    """An event an append wrote (its row's id once inserted): what the store keeps of it."""

    id: int
    seq: int
    kind: str
    actor: str
    at: str
    payload: str
    hash: str


@dataclass(frozen=True)
class StoredStep:
    """What folding needs of one committed event, kept in memory by the desk that holds the table."""

    kind: str
    payload: str
    actor: str


FOLDED_COLUMNS = (Event.seq, Event.hash, Event.kind, Event.payload, Event.actor)
"""What every reader that folds a session's stored events reads of each (a desk, its checkpoint,
the floor), as rows: loading each as an ORM object cost a quarter of folding it (0.48 s against
0.12 s for a table's day of 35,000 events, each then folded in 1.2 s)."""
FoldedRow = Row[int, str, str, str, str]
"""A row of `FOLDED_COLUMNS`."""


class EventStore:
    """Appends one session's events; remembers the head of its chain and what is stored up to it
    (`history`), so the table as stored can be rebuilt while the database does not answer."""

    def __init__(
        self,
        database: Database,
        session_id: int,
        head_seq: int,
        head_hash: str,
        history: Sequence[StoredEvent] = (),
    ) -> None:
        self.database = database
        self.session_id = session_id
        self.head_seq = head_seq
        self.head_hash = head_hash
        self.history = [StoredStep(event.kind, event.payload, event.actor) for event in history]
        """Every event of the session up to the head, as committed: nothing that failed to commit."""
        self.desk: desk_holds.ThisDesk | None = None
        """The desk this store appends for: each append checks it still holds the table."""
        self._keeps_marks: bool | None = None
        """Whether the schema keeps entries' marks (migration 0013), read once."""

    @classmethod
    def create_session(
        cls,
        database: Database,
        table: str,
        actor: str,
        payload: TableOpened,
        machine: TableMachine,
        signers: Sequence[Account] = (),
        entries_key: str = "",
        desk: desk_holds.ThisDesk | None = None,
    ) -> EventStore:
        """A new session's store, its opening committed (and held by `desk`, if given, from the
        same transaction); `entries_key`, signed by the first signer, is the key that marks the
        opening desk's entries (`entry_marks`)."""
        with database.session() as session:
            lock_openings(session)
            _refuse_if_open(session, table)
            row = TableSession(
                table_name=table,
                opened_at=utc_now(),
                closed_at=None,
                head_seq=0,
                head_hash=GENESIS_HASH,
            )
            session.add(row)
            try:
                session.flush()
            except IntegrityError:  # another desk opened it since the look above
                session.rollback()
                _refuse_if_open(session, table)
                raise
            store = cls(database, row.id, 0, link_new_session(session, row.id))
            if desk is not None:
                desk_holds.hold_new(session, row.id, desk, actor)
                store.desk = desk
            outcome = machine.apply(EventKind.TABLE_OPENED, payload, actor)
            event = store._write(
                session, EventKind.TABLE_OPENED, payload, actor, outcome, signers, entries_key=entries_key
            )
            session.commit()
        store._stored(event)
        return store

    @classmethod
    def load(cls, database: Database, session_id: int) -> tuple[EventStore, TableMachine]:
        """Rebuild a session's machine from its stored events."""
        with database.session() as session:
            row = session.get(TableSession, session_id)
            if row is None:
                raise ActionRefused(_("there is no table session {number}").format(number=session_id))
            events = session.execute(
                select(*FOLDED_COLUMNS).where(Event.session_id == session_id).order_by(Event.seq)
            ).all()
        machine = folded(events)
        head_seq, head_hash = (events[-1].seq, events[-1].hash) if events else (0, GENESIS_HASH)
        return cls(database, session_id, head_seq, head_hash, events), machine

    def stored_since(self, count: int, kind: EventKind, payload: EventPayload, actor: str) -> bool:
        """Whether this very action (kind, payload and actor) is among the events stored after the
        first `count` of `history`: a commit whose answer was lost, found stored once the database
        is back. The room's pool a settlement found is the store's reading, not the action's."""
        wanted = _without_pool(dict(payload))
        return any(
            step.kind == kind.value
            and step.actor == actor
            and _without_pool(json.loads(step.payload)) == wanted
            for step in self.history[count:]
        )

    def stored_machine(self) -> TableMachine:
        """The table as stored up to this store's head, folded from `history` without asking the
        database: what a desk holds again after an action that was not recorded."""
        return folded(self.history)

    def catch_up(self, machine: TableMachine) -> list[EventKind]:
        """Fold in the events recorded into this session elsewhere since this store's head (the
        floor's decisions on requests); their kinds, oldest first, none when nothing is new."""
        with self.database.session() as session:
            events = session.execute(
                select(*FOLDED_COLUMNS)
                .where(Event.session_id == self.session_id, Event.seq > self.head_seq)
                .order_by(Event.seq)
            ).all()
        for event in events:  # one at a time: the head moves past each event folded
            fold(machine, (event,))
            self._stored(event)
        return [EventKind(event.kind) for event in events]

    def kinds_after(self, seq: int) -> list[EventKind]:
        """The kinds of this session's events after number `seq`, oldest first."""
        with self.database.session() as session:
            kinds = session.scalars(
                select(Event.kind)
                .where(Event.session_id == self.session_id, Event.seq > seq)
                .order_by(Event.seq)
            ).all()
        return [EventKind(kind) for kind in kinds]

    def check_supervisor(self, name: str, pin: str) -> Account:
        """The supervisor's account, its key unsealed for this one approval, once name and PIN are
        checked."""
        try:
            return sign_in(self.database, name, pin, Role.SUPERVISOR)
        except SignInError as error:
            raise ActionRefused(
                _("a floor supervisor must approve this: {problem}").format(problem=error)
            ) from None

    def append(
        self,
        machine: TableMachine,
        checked: CheckedAction,
        actor: str,
        signers: Sequence[Account] = (),
        stamp: EntryStamp | None = None,
    ) -> None:
        """Fold the event (an action `machine.checked` accepted) into `machine` and commit it with its
        derived rows, the signatures of `signers` over the new head and its desk's `stamp` (an
        entry's: `entry_marks`). On any failure this store is left at the head stored before, and
        `machine` may hold the event that was not stored: the caller puts `stored_machine()` in its
        place."""
        kind, payload = checked.kind, checked.payload
        changes_pool = machine.may_change_pool(kind)
        if changes_pool:
            pool_reading(self.database)  # the room walked before the lock: under it, only what is new
        try:
            with self.database.session() as session:
                # The room's pool is read and changed by one table at a time (`room_pool`).
                pool = held_pool(session, self.database) if changes_pool else None
                # One table, one desk: refused here if another desk took the table (issue 34).
                desk_holds.check_in_append(session, self.session_id, self.desk, kind, payload)
                if kind is EventKind.HAND_SETTLED and machine.jackpot_award() is not None:
                    found = pool.payable() if pool is not None else 0
                    checked = machine.checked(kind, {**payload, room_pool.POOL_KEY: found})  # the pool found
                    payload = checked.payload
                outcome = machine.apply_checked(checked, actor)
                # Nothing is read first: a head moved since this store's is refused by the event's
                # unique number (at a card room's desk login, its row policy first), and it and a
                # table another desk holds by the head's conditional UPDATE (`_move_head`).
                event = self._write(session, kind, payload, actor, outcome, signers, stamp)
                if pool is not None:
                    if any(move.chips < 0 for move in outcome.pool_moves):
                        pool.payable()  # nothing is taken out of a pool that does not verify
                    room_pool.record_moves(session, self.session_id, event.id, pool.pool, outcome.pool_moves)
                session.commit()
        except IntegrityError:
            raise self._refusal(kind) from None
        except ProgrammingError:
            # At a card room's desk login the events' row policy refuses an event that no longer
            # follows the head, before the key would: another writer's commit since this store's.
            if self._head_moved():
                raise self._refusal(kind) from None
            raise
        except _HeadNotMoved:
            raise self._refusal(kind) from None
        self._stored(event)

    def _refusal(self, kind: EventKind) -> ActionRefused:
        """Why the database refused this store's event: another desk took the table (before
        anything else, as a desk that lost its table is told), or wrote first."""
        taken = desk_holds.taken_from(self.database, self.session_id, self.desk, kind)
        return taken if taken is not None else ActionRefused(str(CHANGED_ELSEWHERE))

    def _stored(self, event: FoldedRow | WrittenEvent) -> None:
        """Move the head to `event`, which is committed."""
        self.head_seq, self.head_hash = event.seq, event.hash
        self.history.append(StoredStep(event.kind, event.payload, event.actor))

    def _head_moved(self) -> bool:
        """Whether the stored head is not this store's, read in a transaction of its own."""
        with self.database.session() as session:
            stored = session.connection().execute(_HEAD_SEQ, {"session": self.session_id}).scalar()
        return bool(stored != self.head_seq)

    def _write(
        self,
        session: Session,
        kind: EventKind,
        payload: EventPayload,
        actor: str,
        outcome: Outcome,
        signers: Sequence[Account] = (),
        stamp: EntryStamp | None = None,
        entries_key: str = "",
    ) -> WrittenEvent:
        seq, at, text = self.head_seq + 1, utc_now(), canonical_json(payload)
        digest = event_hash(self.head_hash, self.session_id, seq, kind.value, actor, at, text)
        row = {"seq": seq, "kind": kind.value, "actor": actor, "at": at, "payload": text, "hash": digest}
        connection = session.connection()
        inserted = connection.execute(
            _INSERT_EVENT, {**row, "session_id": self.session_id, "prev_hash": self.head_hash}
        )
        event = WrittenEvent(_new_id(inserted), seq, kind.value, actor, at, text, digest)
        write_derived(session, self.session_id, event.id, at, outcome)
        if not self._marks_kept(session):
            stamp, entries_key = None, ""  # a test recording as a desk from before migration 0013
        for signer in signers:
            _add_signature(session, self.session_id, seq, digest, signer, entries_key)
            entries_key = ""  # the first signer's: the opening dealer's
        if stamp is not None:
            connection.execute(_INSERT_MARK, stamp_row(self.session_id, event.id, seq, stamp))
            if stamp.key:
                _add_signature(session, self.session_id, seq, digest, stamp.signer, stamp.key)
        self._move_head(connection, kind, event, outcome.closes_session)
        return event

    def _move_head(self, connection: Connection, kind: EventKind, event: WrittenEvent, closes: bool) -> None:
        """The session row's head onto `event`, in one conditional UPDATE that also tells the floor
        on PostgreSQL: none when the stored head is not this store's (the event's INSERT meets a head
        moved by another writer first; this holds whatever wrote meanwhile), or when another desk
        holds this store's table, the same refusal, its rows going with this transaction."""
        moved: dict[str, object] = {"head_seq": event.seq, "head_hash": event.hash}
        if kind is EventKind.TABLE_OPENED:
            moved["opened_at"] = event.at
        if closes:
            moved["closed_at"] = event.at
        held = {"desk_token": self.desk.token} if self.desk and desk_holds.checked_at_the_head(kind) else {}
        statement = _MOVES[bool(held), connection.dialect.name == "postgresql"]
        result = connection.execute(
            statement, {**moved, **held, "session": self.session_id, "expected": self.head_seq}
        )
        result.close()
        if result.rowcount != 1:
            raise _HeadNotMoved

    def _marks_kept(self, session: Session) -> bool:
        if self._keeps_marks is None:
            self._keeps_marks = marks_entries(session)
        return self._keeps_marks


def _without_pool(payload: dict[str, Any]) -> str:
    """A payload's canonical text, less the room's pool a settlement found."""
    return canonical_json({key: value for key, value in payload.items() if key != room_pool.POOL_KEY})


def _add_signature(
    session: Session, session_id: int, seq: int, head_hash: str, signer: Account, entries_key: str = ""
) -> None:
    if signer.key is None:
        return  # an account from before sign-offs, or a name without an account: nothing to sign with
    accounts_seq, accounts_hash = accounts_head(session)
    message = head_message(session_id, seq, head_hash, accounts_seq, accounts_hash, entries_key)
    # A dealer without an account of their own in a replayed session signs with the built-in key.
    name = BUILTIN_REPLAY if signer.builtin else signer.name
    signature = {
        "session_id": session_id,
        "seq": seq,
        "hash": head_hash,
        "signer": name,
        "signature": sign(signer.key, message),
        "accounts_seq": accounts_seq,
        "accounts_hash": accounts_hash,
        "entries_key": entries_key,
    }
    session.connection().execute(_INSERT_SIGNATURE, signature)


def accounts_head(session: Session) -> tuple[int, str]:
    """The accounts chain's head, signed with a table's head: cutting or rewriting the accounts
    below it breaks the signature. Read under the accounts chain's lock, shared: an account event
    written meanwhile records the room's position after this event, or this reads it."""
    share_append_lock(session, ACCOUNTS_LOCK)
    head = session.execute(
        select(AccountEvent.seq, AccountEvent.hash).order_by(AccountEvent.seq.desc()).limit(1)
    ).first()
    return (head.seq, head.hash) if head is not None else (0, "")


def write_derived(session: Session, session_id: int, event_id: int, at: str, outcome: Outcome) -> None:
    """Store the rows an event leaves beside itself: a settled hand, its transfers, ledger."""
    connection = session.connection()
    if outcome.hand is not None:
        hand = connection.execute(
            _INSERT_HAND, {"session_id": session_id, **hand_fields(outcome, event_id, at)}
        )
        transfers = [{"hand_id": _new_id(hand), **transfer} for transfer in transfer_fields(outcome)]
        if transfers:
            connection.execute(_INSERT_TRANSFER, transfers)
    ledger = [{"session_id": session_id, **entry} for entry in ledger_fields(outcome, event_id)]
    if ledger:
        connection.execute(_INSERT_LEDGER, ledger)


def _new_id(inserted: CursorResult[Any]) -> int:
    """The id the database gave the row one INSERT wrote."""
    key = inserted.inserted_primary_key
    assert key is not None
    return int(key[0])


def hand_fields(outcome: Outcome, event_id: int, at: str, result_text: str | None = None) -> HandFields:
    """The hand row an outcome derives; `result_text`, when given, is the canonical JSON of its
    result, already at hand."""
    settled = outcome.hand
    assert settled is not None
    return {
        "event_id": event_id,
        "number": settled.number,
        "button": settled.button,
        "fantasyland": canonical_json(settled.fantasyland),
        "result": settled.result_text if result_text is None else result_text,
        "rake": canonical_json(settled.rake),
        "jackpot": settled.jackpot,
        "settled_at": at,
    }


def transfer_fields(outcome: Outcome) -> list[TransferFields]:
    assert outcome.hand is not None
    return [
        {
            "ordinal": ordinal,
            "from_player": t.payer,
            "to_player": t.payee,
            "owed": t.owed,
            "paid": t.paid,
            "reason": t.reason,
        }
        for ordinal, t in enumerate(outcome.hand.transfers, start=1)
    ]


def ledger_fields(outcome: Outcome, event_id: int) -> list[LedgerFields]:
    return [
        {
            "event_id": event_id,
            "hand_number": entry.hand_number,
            "player": entry.player,
            "kind": entry.kind,
            "amount": entry.amount,
            "note": entry.note,
        }
        for entry in outcome.ledger
    ]


def _refuse_if_open(session: Session, table: str) -> None:
    open_id = session.scalar(
        select(TableSession.id).where(TableSession.table_name == table, TableSession.closed_at.is_(None))
    )
    if open_id is not None:
        said = _("{table} already has an open session ({number}): resume it, or close it first")
        raise ActionRefused(said.format(table=table, number=open_id))
