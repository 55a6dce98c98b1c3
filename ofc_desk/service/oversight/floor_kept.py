"""The floor's tables as it shows them (`service.oversight.floor` reads them), and its first listing
of a room whose tables have not moved since a floor on this machine kept them (issue 39): each open
table as that floor showed it, with the face's words of its row, read without the rules core and
without folding. Anything else (a table moved on, kept by another code or in another language, a
room whose schema is not current) and the first listing is the full reading's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from ofc_desk.core.jackpot import AwardPaid
from ofc_desk.core.results import ResultTransfer
from ofc_desk.i18n import active_language
from ofc_desk.service.store import kept_file
from ofc_desk.service.terms.snapshot import RequestView, TableSnapshot
from ofc_desk.storage.database import Database
from ofc_desk.storage.open_heads import hashes_at, open_heads

KEPT_FOLDER = "floor"
"""The folder of the floor's checkpoints in this machine's cache (`storage.desk_cache`)."""
PACE_AFTER_MINUTES = 10
"""A table's hands per hour is shown once it has been open this long: earlier it says nothing."""


@dataclass(frozen=True)
class LastSettlement:
    hand_number: int
    transfers: tuple[ResultTransfer, ...]
    """The settlement's transfers in order, as the settled hand's result gives them."""
    voided: bool
    """The supervisor voided this hand afterwards (its chips went back)."""
    award: AwardPaid | None = None
    """The room jackpot's award the hand paid, at a table whose preset pays one."""


@dataclass(frozen=True)
class FloorTable:
    """One open table as the floor sees it."""

    snapshot: TableSnapshot
    """What the table's desk draws now: hand, street, whose turn, seats and stacks."""
    opened_at: str
    hands_settled: int
    """Hands dealt to the end and settled, voided ones included (they were dealt)."""
    hands_per_hour: int | None
    """Settled hands per hour since the table opened; None while it has been open less than
    `PACE_AFTER_MINUTES`."""
    last_settlement: LastSettlement | None
    open_requests: tuple[RequestView, ...]
    """Requests waiting for the floor (voids, chip corrections, rules changes asked for at the
    desk), or approved and waiting for the hand to end, each in words."""
    fault: str | None = None
    """Why the stored events could not be folded (the table then shows its last good state)."""
    words: tuple[str, ...] = ()
    """Shown as kept (`KeptTable`): the face's words of the row as the floor that kept it said
    them; () when the face makes its own from the table."""

    def paced(self, now: datetime) -> FloorTable:
        """The table with its hands per hour as of `now` (a kept table's moves with the clock)."""
        pace = hands_per_hour(self.hands_settled, self.opened_at, now)
        return self if pace == self.hands_per_hour else replace(self, hands_per_hour=pace)

    @property
    def session_id(self) -> int:
        return self.snapshot.session_id

    @property
    def table(self) -> str:
        return self.snapshot.table


@dataclass(frozen=True)
class FloorRoom:
    read_at: datetime
    tables: tuple[FloorTable, ...]
    """Ordered by table name, numbers as numbers (T2 before T10)."""
    ever_opened: bool = True
    """Some table has been (or, in a schema this program cannot read, may have been) opened in
    this room; False: a new room, no table yet."""
    not_ready: str | None = None
    """Why nothing can be read yet, in words: the room has no tables yet or its schema is not
    the one this program reads, and what to do (the owner's `ofc-desk db upgrade`)."""
    jackpot_pool: int | None = 0
    """The room's jackpot pool (`pool_ledger.room_pool`): every table's drops and seeds less awards;
    None: not read yet (a first listing of kept tables, `kept_room`)."""
    still_reading: int = 0
    """Open tables whose events this reading did not reach in its time (`floor.FOLDING_SECONDS`): not
    listed yet, folded by the readings that follow at once."""

    def reads_as(self, other: FloorRoom) -> bool:
        """Whether the two readings show the same (whenever each was taken)."""
        return (self.tables, self.ever_opened, self.not_ready, self.jackpot_pool, self.still_reading) == (
            other.tables,
            other.ever_opened,
            other.not_ready,
            other.jackpot_pool,
            other.still_reading,
        )


@dataclass(frozen=True)
class KeptTable:
    """What the floor keeps of a table at one event (the file of `checkpoint.keep_file`): the table
    as it showed it there, and its `FloorCheckpoint` pickled apart. A floor started later shows a
    table that has not moved since as kept (thawing this is a small part of thawing the fold) and
    thaws the fold only once the table moves on."""

    shown: FloorTable | None
    """The table shown at that event; None: not opened yet (the fold then says more)."""
    language: str
    """The language its words were said in (a request's line): shown only by a floor that speaks it."""
    folded: bytes
    """The `FloorCheckpoint`, pickled (`checkpoint.frozen_or_none`) and compressed (zlib): the file
    around it is stored as it is, so a listing of kept tables inflates nothing it does not show."""
    words: tuple[str, ...] = ()
    """The face's words of the row as it showed them (`FloorReader`'s `words`), in `language`."""

    def shown_here(self) -> FloorTable | None:
        """The table as kept, with its row's words, for a floor that speaks its language; None
        for another floor, or if it was kept before it opened."""
        if self.shown is None or self.language != active_language():
            return None
        return replace(self.shown, words=self.words)


def hands_per_hour(settled: int, opened_at: str, now: datetime) -> int | None:
    """Settled hands per hour since opening, rounded; None before `PACE_AFTER_MINUTES`.

    >>> now = datetime(2026, 1, 1, 21, 30, tzinfo=UTC)
    >>> hands_per_hour(45, "2026-01-01T20:00:00.000000Z", now)
    30
    >>> hands_per_hour(3, "2026-01-01T21:25:00.000000Z", now) is None
    True
    """
    opened = datetime.strptime(opened_at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    seconds = (now - opened).total_seconds()
    if seconds < PACE_AFTER_MINUTES * 60:
        return None
    return round(settled * 3600 / seconds)


def natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """Table names sorted as a person reads them: digits as numbers.

    >>> sorted(["T10", "T2", "Bar 1"], key=natural_key)
    ['Bar 1', 'T2', 'T10']
    """
    parts = re.split(r"(\d+)", name.casefold())
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in parts if part)


def kept_room(database: Database, now: datetime | None = None) -> FloorRoom | None:
    """The room as this machine's floor checkpoints show it, when each open table has one kept at
    its stored head (that event's chain hash the stored one), in this floor's language and with
    the face's words; None otherwise (and for a room with no open table, or whose schema is not
    current: the full reading says why). Its jackpot pool is not read (`FloorRoom.jackpot_pool`
    None): the pool is walked from the events, by the rules."""
    now = now or datetime.now(UTC)
    if not database.schema_state().current:
        return None
    # SQLAlchemy Core alone: the ORM and the models load after this listing, with the rules.
    with database.engine.connect() as connection:
        heads = open_heads(connection)
        found = {row.id: kept_file.kept(database, row.id, KEPT_FOLDER) for row in heads}
        kept = {session_id: one for session_id, one in found.items() if one is not None}
        if not heads or len(kept) < len(heads) or any(kept[row.id].seq != row.head_seq for row in heads):
            return None
        stored = hashes_at(connection, {number: one.seq for number, one in kept.items()})
    tables = []
    for row in heads:
        table = _shown_as_kept(kept[row.id], stored.get(row.id), now)
        if table is None:
            return None
        tables.append(table)
    tables.sort(key=lambda table: (natural_key(table.table), table.session_id))
    return FloorRoom(now, tuple(tables), ever_opened=True, jackpot_pool=None)


def _shown_as_kept(kept: kept_file.Checkpoint, stored_hash: str | None, now: datetime) -> FloorTable | None:
    """The table as kept, its pace now, with the face's words; None unless the stored event at
    the checkpoint's is the kept one and it was kept shown, with words, in this language."""
    if stored_hash != kept.hash:
        return None
    try:
        start = kept.thawed_as(KeptTable)
    except Exception:  # whatever the checkpoint gives wrong, the full reading decides
        return None
    shown = start.shown_here()
    if shown is None or not shown.words:
        return None
    return shown.paced(now)
