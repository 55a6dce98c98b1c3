"""The floor supervisor's reading of a room: every open table and its state, rebuilt from the
event log exactly as a desk rebuilds its table on resume, kept up to date by folding in only the
events recorded since the last reading. It reads; it never writes to the room.

As a desk does (`service.store.checkpoint`), the floor keeps in its machine's cache a checkpoint of
each long table it follows (the folded table and its last settlement, at one event), and of each
that moved on since as it closes (`FloorReader.keep_at_close`); the next floor started there
starts each table from it when the stored chain still holds that event as it was, and folds only
what follows. Anything else about a checkpoint (another code's, a session
pinned after it, a fold of what follows refused) and the table is folded from its opening. With
the folded table the checkpoint keeps the table as that floor showed it (`KeptTable`): a table
that has not moved since is shown as kept, its folded table thawed only once it moves.

`FloorReader.read()` is cheap when nothing changed (one query of each open session's chain head),
so a face may call it often. `ChangeWatch` says when to call it: on PostgreSQL it LISTENs to the
channel every stored event notifies (`storage.table_notices.table_changed_notice`); on SQLite, which
has no such channel, every wait is a short poll. `ReadingPace` holds the readings a change asks
for to one every `READ_EVERY_SECONDS`: a busy room notifies at every event.
"""

from __future__ import annotations

import contextlib
import select as selector
import socket
import threading
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from sqlalchemy import Connection, Row, and_, or_, select, text
from sqlalchemy.orm import Session

from ofc_desk.core.jackpot import AwardPaid
from ofc_desk.core.results import ResultTransfer
from ofc_desk.i18n import _, active_language
from ofc_desk.service.oversight.floor_kept import KEPT_FOLDER as KEPT_FOLDER
from ofc_desk.service.oversight.floor_kept import PACE_AFTER_MINUTES as PACE_AFTER_MINUTES
from ofc_desk.service.oversight.floor_kept import FloorRoom as FloorRoom
from ofc_desk.service.oversight.floor_kept import FloorTable as FloorTable
from ofc_desk.service.oversight.floor_kept import KeptTable as KeptTable
from ofc_desk.service.oversight.floor_kept import LastSettlement as LastSettlement
from ofc_desk.service.oversight.floor_kept import hands_per_hour as hands_per_hour
from ofc_desk.service.oversight.floor_kept import natural_key as natural_key
from ofc_desk.service.room.room_pool import WithJackpot
from ofc_desk.service.store import checkpoint
from ofc_desk.service.store.persistence import FOLDED_COLUMNS
from ofc_desk.service.store.pool_ledger import pool_in
from ofc_desk.service.table.fold import FoldHooks, fold, pinned_machine
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.terms.outcome import Outcome
from ofc_desk.storage.audit import GENESIS_HASH
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, TableSession
from ofc_desk.storage.room_schema import schema_sentence
from ofc_desk.storage.table_notices import EVENTS_CHANNEL

KEPT_TABLES = 256
"""Checkpoints the floor keeps, the newest (one a table)."""
KEPT_AT_CLOSE_EVENTS = 200
"""Events folded past a table's checkpoint for a closing floor to keep another (a pickle of a long
table costs about a tenth of a second: not for a few events)."""
SQLITE_POLL_SECONDS = 0.25
READ_EVERY_SECONDS = 0.25
FOLDING_SECONDS = 0.5
"""A reading stops folding tables once it has folded for this long, the tables it did not reach
counted as still being read (`FloorRoom.still_reading`) and folded by the readings that follow: a
floor started without checkpoints of a room's day (about 1.6 s a table of 2,000 hands) lists its
tables a few at a time, the first of them within a second or two, not all of them after 40 s."""
"""The floor reads the room at most this often for its tables' changes (`ReadingPace`)."""


RowWords = Callable[[FloorTable], tuple[str, ...]]
"""The face's words of a table's row (its texts and tooltips), kept with the table."""
FollowedEvent = checkpoint.ChainedEvent
"""What the floor reads of a stored event (an `Event` row, or a selected row of its columns)."""


Settled = tuple[int, tuple[ResultTransfer, ...], AwardPaid | None]
"""A settled hand as the floor shows it: its number, its transfers and the jackpot award it paid."""


@dataclass(frozen=True)
class FloorCheckpoint:
    """The fold of a table at one event, as the floor keeps it: the machine and its last settlement."""

    machine: TableMachine
    last_settled: Settled | None


class _FollowedTable(FoldHooks[FollowedEvent]):
    """One open session's machine, folded up to `head_seq` (the fold's hooks move the head), and
    the table as last shown, kept until the table or its hands per hour change: a room's reading
    builds again only the tables that moved, not every open table at every table's event."""

    def __init__(self, session_id: int, opened_at: str) -> None:
        self.session_id = session_id
        self.opened_at = opened_at
        self._from_the_opening()

    def _from_the_opening(self) -> None:
        """Nothing folded yet."""
        self.machine = TableMachine()
        self._frozen: bytes | None = None
        """The fold at the head as kept, still compressed (`KeptTable.folded`): `machine` and
        `last_settled` are not read yet, and `_kept_shown` is the table (`thawed` makes them)."""
        self._kept_shown: FloorTable | None = None
        self.head_seq = 0
        self.head_hash = GENESIS_HASH
        self.last_settled: Settled | None = None
        self.fault: str | None = None
        self.kept_seq = 0
        """The event of the last checkpoint read or kept (0: none)."""
        self._shown: tuple[tuple[int, str | None, int | None], FloorTable] | None = None
        """What the last `floor_table` gave, under the head, fault and pace it was built at."""

    def start_from(self, kept: checkpoint.Checkpoint, rows: Sequence[FollowedEvent]) -> None:
        """Start from the floor's checkpoint of this table and the events after it (`rows`: the
        session's events from the checkpoint's on), when they hold it (`checkpoint.holds`) and
        fold onto it; else as if there were none. A table with no event after it, kept as shown
        in this floor's language, is shown as kept until it moves."""
        if not checkpoint.holds(kept, rows):
            return
        try:
            start = kept.thawed_as(KeptTable)
            self.head_seq, self.head_hash, self.kept_seq = kept.seq, kept.hash, kept.seq
            self._frozen = start.folded
            if len(rows) == 1 and (shown := start.shown_here()) is not None:
                self._kept_shown = shown
                return
            self._thaw()
            fold(self.machine, rows[1:], _Strictly(self))
        except Exception:  # whatever the checkpoint gives wrong, the whole fold decides
            self._from_the_opening()

    def thawed(self) -> None:
        """The fold ready for the events after the head: thawed if it is still as kept; if it
        does not thaw, nothing folded (the events are then read from the opening)."""
        if self._frozen is None:
            return
        try:
            self._thaw()
        except Exception:  # whatever the checkpoint gives wrong, the whole fold decides
            self._from_the_opening()

    def _thaw(self) -> None:
        assert self._frozen is not None
        frozen = checkpoint.Checkpoint(self.head_seq, self.head_hash, zlib.decompress(self._frozen))
        start = frozen.thawed_as(FloorCheckpoint)
        self.machine, self.last_settled = start.machine, start.last_settled
        self._frozen = self._kept_shown = None

    def follow(self, events: Sequence[FollowedEvent]) -> None:
        if self.head_seq == 0:  # the first batch is the whole session so far
            self.machine = pinned_machine(events)
        fold(self.machine, events, self)

    def keep_if_due(self, database: Database, events: int, words: RowWords | None = None) -> None:
        """Keep the table in the floor's cache when `events` were folded since the last, with the
        face's `words` of its row."""
        if self.fault is not None or self._frozen is not None or self.head_seq - self.kept_seq < events:
            return
        folded = checkpoint.frozen_or_none(FloorCheckpoint(self.machine, self.last_settled))
        if folded is None:
            return
        shown = self.floor_table(datetime.now(UTC))
        said = words(shown) if words is not None and shown is not None else ()
        # The fold compressed apart and the file stored as it is: a floor that shows the table as
        # kept inflates only the row it shows, not the fold it thaws once the table moves.
        packed = zlib.compress(folded, 1)
        frozen = checkpoint.frozen_or_none(KeptTable(shown, active_language(), packed, said))
        if frozen is None:
            return
        self.kept_seq = self.head_seq
        kept = checkpoint.Checkpoint(self.head_seq, self.head_hash, frozen)
        checkpoint.keep_file(database, self.session_id, kept, KEPT_FOLDER, KEPT_TABLES, level=0)

    def folded(self, event: FollowedEvent, outcome: Outcome) -> None:
        self.head_seq, self.head_hash = event.seq, event.hash
        if (settled := outcome.hand) is not None:
            paid = settled.scored.jackpot.award if isinstance(settled.scored, WithJackpot) else None
            self.last_settled = (settled.number, settled.transfers, paid)  # read once, shown often

    def refused(self, event: FollowedEvent, error: Exception) -> None:
        said = _("event {seq} ({kind}) cannot be read back: {problem}")
        self.fault = said.format(seq=event.seq, kind=event.kind, problem=error)

    def floor_table(self, now: datetime) -> FloorTable | None:
        if self._kept_shown is not None:
            self._kept_shown = self._kept_shown.paced(now)
            return self._kept_shown
        if not self.machine.opened:
            return None
        hands_settled = self.machine.hands_settled
        shown_as = (self.head_seq, self.fault, hands_per_hour(hands_settled, self.opened_at, now))
        if self._shown is not None and self._shown[0] == shown_as:
            return self._shown[1]
        last = None
        if self.last_settled is not None:
            number, transfers, award = self.last_settled
            last = LastSettlement(number, transfers, number in self.machine.voided, award)
        snapshot = self.machine.snapshot(self.session_id, self.head_hash)
        table = FloorTable(
            snapshot=snapshot,
            opened_at=self.opened_at,
            hands_settled=hands_settled,
            hands_per_hour=shown_as[2],
            last_settlement=last,
            open_requests=snapshot.open_requests,
            fault=self.fault,
        )
        self._shown = (shown_as, table)
        return table


class _Strictly(FoldHooks[FollowedEvent]):
    """A followed table's hooks for the events after its checkpoint: a refusal leaves the fold
    (the table is then folded from its opening, which says the fault where it is)."""

    def __init__(self, table: _FollowedTable) -> None:
        self.table = table

    def folded(self, event: FollowedEvent, outcome: Outcome) -> None:
        self.table.folded(event, outcome)


class FloorReader:
    """Every open table of a database, kept folded between readings. `words`: the face's words of
    a table's row, kept with each checkpoint for a floor's first listing (`floor_kept.kept_room`)."""

    def __init__(self, database: Database, words: RowWords | None = None) -> None:
        self.database = database
        self._words = words
        self._followed: dict[int, _FollowedTable] = {}
        self._schema_current = False
        """The schema was found current; looked at again after any failed reading."""

    def read(self, now: datetime | None = None) -> FloorRoom:
        """The room now. A room whose schema is not there yet (a new room: its owner has not run
        `ofc-desk db upgrade`, or its first desk is making it this moment) or not this program's
        reads as no tables, saying why, until it is."""
        now = now or datetime.now(UTC)
        if not self._schema_current:
            state = self.database.schema_state()
            if not state.current:
                # A schema there but not this program's may hold tables this floor cannot read.
                sentence = schema_sentence(state, self.database.url)
                return FloorRoom(now, (), ever_opened=state.revision is not None, not_ready=sentence)
            self._schema_current = True
        try:
            return self._read(now)
        except BaseException:
            self._schema_current = False
            raise

    def keep_checkpoints(self) -> None:
        """Keep a checkpoint of each table followed that folded `CHECKPOINT_EVENTS` since its last
        (a pickle of each, written to this machine's cache): after a reading is shown, not in it."""
        for followed in self._followed.values():
            followed.keep_if_due(self.database, checkpoint.CHECKPOINT_EVENTS, self._words)

    def keep_at_close(self) -> None:
        """Keep a checkpoint of each table followed that folded `KEPT_AT_CLOSE_EVENTS` since its
        last, as the floor closes: the next floor started here folds only what is played meanwhile.
        A checkpoint is a cache: one that cannot be made or written is not kept, and says nothing."""
        for followed in self._followed.values():
            followed.keep_if_due(self.database, KEPT_AT_CLOSE_EVENTS, self._words)

    def _read(self, now: datetime) -> FloorRoom:
        with self.database.session() as session:
            heads = session.execute(
                select(TableSession.id, TableSession.opened_at, TableSession.head_seq).where(
                    TableSession.closed_at.is_(None)
                )
            ).all()
            open_ids = {row.id for row in heads}
            for gone in set(self._followed) - open_ids:
                del self._followed[gone]
            new = [_FollowedTable(row.id, row.opened_at) for row in heads if row.id not in self._followed]
            self._followed.update((followed.session_id, followed) for followed in new)
            head_seqs = {row.id: row.head_seq for row in heads}
            self._start_from_kept(session, new, head_seqs)
            still_reading = self._fold_moved(session, head_seqs)
            ever_opened = bool(heads) or session.scalar(select(TableSession.id).limit(1)) is not None
            jackpot_pool = pool_in(session, self.database)
        tables = [table for f in self._followed.values() if (table := f.floor_table(now)) is not None]
        tables.sort(key=lambda table: (natural_key(table.table), table.session_id))
        return FloorRoom(
            now, tuple(tables), ever_opened, jackpot_pool=jackpot_pool, still_reading=still_reading
        )

    def _fold_moved(self, session: Session, heads: Mapping[int, int]) -> int:
        """Fold into each followed table the events up to its head (`heads`) it has not folded,
        table after table until `FOLDING_SECONDS` have gone (one table at least): how many moved
        tables it had no time for."""
        started, folded_one, still_reading = time.monotonic(), False, 0
        for session_id, head_seq in heads.items():
            followed = self._followed[session_id]
            if head_seq <= followed.head_seq or followed.fault is not None:
                continue
            if folded_one and time.monotonic() - started > FOLDING_SECONDS:
                still_reading += 1
                continue
            folded_one = True
            followed.thawed()
            new_events = session.execute(
                select(*FOLDED_COLUMNS)
                .where(Event.session_id == session_id, Event.seq > followed.head_seq)
                .where(Event.seq <= head_seq)
                .order_by(Event.seq)
            ).all()
            followed.follow(new_events)
        return still_reading

    def _start_from_kept(
        self, session: Session, tables: Sequence[_FollowedTable], heads: Mapping[int, int]
    ) -> None:
        """Each of `tables` (just followed) from the floor's checkpoint of it, if it has one: the
        events from each checkpoint's on up to the table's head (`heads`), read in one query."""
        kept = {
            followed.session_id: found
            for followed in tables
            if (found := checkpoint.kept(self.database, followed.session_id, KEPT_FOLDER)) is not None
        }
        if not kept:
            return
        wanted = or_(
            *(
                and_(Event.session_id == session_id, Event.seq >= found.seq, Event.seq <= heads[session_id])
                for session_id, found in kept.items()
            )
        )
        rows: dict[int, list[Row[int, int, str, str, str, str]]] = {session_id: [] for session_id in kept}
        for row in session.execute(
            select(Event.session_id, *FOLDED_COLUMNS).where(wanted).order_by(Event.session_id, Event.seq)
        ):
            rows[row.session_id].append(row)
        for followed in tables:
            if (found := kept.get(followed.session_id)) is not None:
                followed.start_from(found, rows[followed.session_id])


class ChangeWatch(Protocol):
    def wait(self, seconds: float) -> bool:
        """Block up to `seconds`; True when some table may have changed since the last wait."""

    def wake(self) -> None:
        """End the wait under way at once, and every later one (from any thread): the face that
        waits is closing, and says so without waiting out the wait."""

    def close(self) -> None: ...


class PollWatch:
    """SQLite: no notifications, so every short wait ends in a (cheap) look at the heads."""

    def __init__(self) -> None:
        self._woken = threading.Event()

    def wait(self, seconds: float) -> bool:
        self._woken.wait(min(seconds, SQLITE_POLL_SECONDS))
        return True

    def wake(self) -> None:
        self._woken.set()

    def close(self) -> None:
        pass


class ListenWatch:
    """PostgreSQL: LISTEN on the events channel over a connection of its own (autocommit)."""

    def __init__(self, database: Database) -> None:
        self._connection: Connection = database.engine.connect().execution_options(
            isolation_level="AUTOCOMMIT"
        )
        self._ours = f"{self._connection.scalar(text('SELECT current_schema()'))}:"
        self._connection.exec_driver_sql(f"LISTEN {EVENTS_CHANNEL}")
        self._driver: Any = self._connection.connection.driver_connection
        self._woken, self._waker = socket.socketpair()

    def wait(self, seconds: float) -> bool:
        # Waiting on the socket, not in the driver, keeps the wait interruptible every `seconds`.
        server = self._driver.fileno()
        ready, _writable, _broken = selector.select([server, self._woken], [], [], seconds)
        if server not in ready:
            return False
        # Every notice is read off the socket; only this room's (its schema's) count.
        return any([notice.payload.startswith(self._ours) for notice in self._driver.notifies(timeout=0)])

    def wake(self) -> None:
        with contextlib.suppress(OSError):  # closed already: no wait left to end
            self._waker.send(b"\0")

    def close(self) -> None:
        self._connection.invalidate()  # a LISTENing connection must not go back to the pool
        self._connection.close()
        self._woken.close()
        self._waker.close()


class ReadingPace:
    """When a change may be read: at most once every `READ_EVERY_SECONDS`. Twenty-four desks at a
    dealer's pace notify 120 times a second; reading the room at each notification kept most of a
    core of the floor's machine, and the server, busy with readings no one can follow, while a
    change waits at most a quarter of a second this way. A face waits for changes with
    `wait_seconds`, and reads when `may_read` says so."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._next = clock()

    def took_reading(self, *, whole: bool = True) -> None:
        """A reading was taken; one that had no time for every moved table (`whole=False`) leaves
        the next free to come at once: what it left is no change to be paced."""
        self._next = self._clock() + (READ_EVERY_SECONDS if whole else 0.0)

    def may_read(self) -> bool:
        return self._clock() >= self._next

    def wait_seconds(self, longest: float, changed: bool) -> float:
        """How long to wait for a change now: up to `longest`, or, with a change already seen,
        only until it may be read."""
        if not changed:
            return longest
        return max(0.0, min(longest, self._next - self._clock()))


def watch_changes(database: Database) -> ChangeWatch:
    if database.engine.dialect.name == "postgresql":
        return ListenWatch(database)
    return PollWatch()
