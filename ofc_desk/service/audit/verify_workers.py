"""`verify`'s sessions checked side by side: a room's day is many sessions, each checked alone
(`verify_session.check_session`), so on a machine of several cores a pool of processes checks
them at once, and the room's walk (`verify`) takes their findings in the sessions' order, so that
the first fault it names is the one a walk of one session after another names.

The workers are forks started before this process starts a thread; each opens the database anew
(an inherited connection is never touched) and checks a session in a snapshot of its own. A
worker's snapshot may be later than the walk's, while tables go on recording: each worker also
reads what it checked of the session (its head, how many rows of each kind), and a session whose
rows differ from the walk's snapshot is checked again in the walk's own, so every session is
checked as the walk sees the room. Where forking is unsafe or unavailable (`side_check.can_fork`),
on one core, or when a pool process dies, the sessions are checked here, one after another: the
same code with one worker.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, NamedTuple

from sqlalchemy import bindparam, func, select

from ofc_desk.service.audit import side_check
from ofc_desk.service.audit.verify_session import FORK_FROM_EVENTS, VerifiedRows, check_session
from ofc_desk.service.room.room_pool import PoolStep
from ofc_desk.service.terms.errors import VerifyFault
from ofc_desk.storage.accounts import AccountsChain
from ofc_desk.storage.connections import SESSION_ID
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, HandRow, LedgerRow, Signature, TableSession, TransferRow


class SessionTally(NamedTuple):
    """What the room's walk keeps of a session checked: its counts, where its chain ends, the rows
    set aside and its part in the jackpot pool."""

    events: int
    hands: int
    chips: int
    final_hash: str
    set_aside: tuple[str, ...]
    pool_steps: tuple[PoolStep, ...]


def tally(verified: VerifiedRows) -> SessionTally:
    return SessionTally(
        len(verified.events),
        len(verified.hands),
        verified.chips,
        verified.events[-1].hash,
        verified.set_aside,
        verified.pool_steps,
    )


@dataclass(frozen=True)
class Room:
    """What every session's check reads of the room, read once in the walk's snapshot."""

    supervisors: set[str]
    accounts: AccountsChain


Sizes = tuple[Any, ...]
"""A session's head, closing time and how many rows of each kind it holds: rows are only ever
added, so two snapshots that agree on these hold the same rows of the session."""


def checked_sessions(
    database: Database,
    snapshot: Any,
    rows: Sequence[TableSession],
    room: Room,
    sizes: Mapping[int, Sizes],
    *,
    fork: bool,
    workers: int | None = None,
) -> Iterator[SessionTally]:
    """Each of `rows` checked, in their order: a session's fault is raised when its turn comes.
    `sizes`: each session's in the walk's snapshot (`room_sizes`). With `fork`, sessions are spread
    over `workers` processes (by default one a core, when the room is long enough to pay for them
    and no session is most of it); a long session checked here checks its chain, signatures and
    scores in a second process instead (`side_check`)."""
    count = _pool_size(rows, sizes, workers) if fork and side_check.can_fork() else 1
    if count < 2:
        for row in rows:
            yield tally(check_session(snapshot, row, room.supervisors, room.accounts, fork=fork))
        return
    yield from _spread(database, snapshot, rows, room, sizes, count)


def _pool_size(rows: Sequence[TableSession], sizes: Mapping[int, Sizes], workers: int | None) -> int:
    if workers is not None or len(rows) < 2:
        return min(workers or 1, len(rows))
    events = [sizes[row.id][_EVENTS] for row in rows]
    # A session that is most of the room is checked faster with its own second process.
    if sum(events) < FORK_FROM_EVENTS or max(events) * 2 > sum(events):
        return 1
    return min(_cores(), len(rows))


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _spread(
    database: Database,
    snapshot: Any,
    rows: Sequence[TableSession],
    room: Room,
    sizes: Mapping[int, Sizes],
    count: int,
) -> Iterator[SessionTally]:
    global _WORKER_ROOM
    _WORKER_ROOM = (database.url, database.read_only, room)  # the forks start with it
    pool = ProcessPoolExecutor(count, mp_context=get_context("fork"), initializer=_start_worker)
    try:
        # The longest first, so that no worker is left with a long one at the end.
        by_length = sorted(rows, key=lambda row: -sizes[row.id][_EVENTS])
        futures = {row.id: pool.submit(_check_in_worker, row.id) for row in by_length}
        for row in rows:
            yield _taken(futures[row.id], snapshot, row, room, sizes[row.id])
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        _WORKER_ROOM = None


Checked = tuple[Sizes, "SessionTally | str"]
"""What a worker read of a session, and its tally or its fault in words."""


def _taken(
    future: Future[Checked], snapshot: Any, row: TableSession, room: Room, sizes: Sizes
) -> SessionTally:
    try:
        seen, found = future.result()
    except Exception:  # a worker failed (killed, out of memory, its own error): checked here alike
        seen, found = None, ""
    if seen != sizes:  # recorded meanwhile, or not checked: checked in the walk's snapshot
        return tally(check_session(snapshot, row, room.supervisors, room.accounts))
    if isinstance(found, str):
        raise VerifyFault(found)
    return found


_WORKER_ROOM: tuple[str, bool, Room] | None = None
_worker_database: Database | None = None


def _start_worker() -> None:
    global _worker_database
    assert _WORKER_ROOM is not None  # set before the pool forks
    url, read_only, _room = _WORKER_ROOM
    # The fold makes many short-lived objects, none in a reference cycle (as `verify`'s walk).
    gc.disable()
    _worker_database = Database(url, migrate=False, read_only=read_only)


def _check_in_worker(session_id: int) -> Checked:
    assert _WORKER_ROOM is not None and _worker_database is not None
    room = _WORKER_ROOM[2]
    with _worker_database.snapshot() as snapshot:
        row = snapshot.get(TableSession, session_id)
        if row is None:  # cannot be: the walk saw it, and sessions are never deleted
            return (), ""
        sizes = room_sizes(snapshot, session_id).sessions[session_id]
        try:
            return sizes, tally(check_session(snapshot, row, room.supervisors, room.accounts))
        except VerifyFault as fault:
            return sizes, str(fault)


_EVENTS = 3
"""Where a session's event count stands in its `Sizes`."""


class RoomSizes(NamedTuple):
    """Each session's `Sizes`, and the kinds of row some of which no session owns."""

    sessions: dict[int, Sizes]
    unowned: frozenset[type[Any]]
    """Of `Event`, `HandRow` and `LedgerRow`, those with a row whose session is none stored; and
    `TransferRow` if a transfer's hand is none stored (`verify` names the first such row)."""


_OWNED = (Event, Signature, HandRow, LedgerRow)
"""The rows counted by their session, in the order of a `Sizes`; all but the signatures are named
when their session is none stored."""


def room_sizes(snapshot: Any, session_id: int | None = None) -> RoomSizes:
    """Every session's `Sizes`, and which rows no session owns: the counts read every row's
    session, so they tell that without a scan of each table of its own (a third of a second, after
    the sessions, at a room's day of 850,000 events). With `session_id`, only that session's
    `Sizes` (a worker's), and nothing said unowned."""
    connection = snapshot.connection()
    heads, counted = _ROOM_READS if session_id is None else _SESSION_READS
    parameters = None if session_id is None else {SESSION_ID: session_id}
    counts = [dict(connection.execute(query, parameters).all()) for query in counted]
    sessions = {
        head[0]: (*head[1:], *(count.get(head[0], 0) for count in counts))
        for head in connection.execute(heads, parameters).all()
    }
    if session_id is not None:
        return RoomSizes(sessions, frozenset())
    by_session, transfers_by_session = counts[:-1], counts[-1]
    # A session id of none stored; NULL is none (nor is it named: `NOT IN` passes it, as before).
    unowned = {
        model
        for model, count in zip(_OWNED, by_session, strict=True)
        if model is not Signature and any(owner is not None and owner not in sessions for owner in count)
    }
    # Every transfer whose hand is stored is counted above, under that hand's session.
    naming_a_hand = connection.execute(select(func.count(TransferRow.hand_id))).scalar_one()
    if naming_a_hand != sum(transfers_by_session.values()):
        unowned.add(TransferRow)
    return RoomSizes(sessions, frozenset(unowned))


def _reads(one_session: bool) -> tuple[Any, tuple[Any, ...]]:
    """The sessions' heads and each of `_OWNED`'s counts by session, then the transfers' (by their
    hand's session): of every session, or of the one bound as `SESSION_ID` (a worker reads its
    session's before each check: built once, `connections.SESSION_ID`)."""

    def only(query: Any, column: Any) -> Any:
        return query.where(column == bindparam(SESSION_ID)) if one_session else query

    heads = select(TableSession.id, TableSession.head_seq, TableSession.head_hash, TableSession.closed_at)
    counts = [only(select(model.session_id, func.count()), model.session_id) for model in _OWNED]
    transfers = select(HandRow.session_id, func.count()).join(TransferRow, TransferRow.hand_id == HandRow.id)
    counts.append(only(transfers, HandRow.session_id))
    column_of = [*(model.session_id for model in _OWNED), HandRow.session_id]
    grouped = tuple(query.group_by(column) for query, column in zip(counts, column_of, strict=True))
    return only(heads, TableSession.id), grouped


_ROOM_READS = _reads(one_session=False)
_SESSION_READS = _reads(one_session=True)
