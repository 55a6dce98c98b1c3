"""A desk's checkpoint of a long session's folded table (issue 39): resuming folds only the events
after it, so a table's two-thousandth hand resumes about as fast as its first.

A checkpoint is the `TableMachine` the fold gave at one event of the session (pickled), with that
event's sequence number and chain hash and the fingerprint of the code and presets that folded it.
This desk keeps it in its own cache folder (`storage.desk_cache`), never in the room's database,
and trusts it only when the session's stored event at that number still has that hash (the chain
covers every event before it) and its own code and presets have the fingerprint it was made with;
anything else (a file that does not read, a session pinned after it, a fold of the events after it
refused) is set aside, and the session is folded from its opening as before. Nothing here checks or
applies an event itself: the machine the fold made is the machine kept (docs/decisions.md, "A
desk's checkpoint of a long session"). The file itself, its pickle and its fingerprint are
`kept_file`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

from sqlalchemy import select

from ofc_desk.service.store.entry_marks import EntryStamp
from ofc_desk.service.store.kept_file import Checkpoint as Checkpoint
from ofc_desk.service.store.kept_file import collector_paused
from ofc_desk.service.store.kept_file import frozen_or_none as frozen_or_none
from ofc_desk.service.store.kept_file import keep_file as keep_file
from ofc_desk.service.store.kept_file import kept as kept
from ofc_desk.service.store.persistence import FOLDED_COLUMNS, EventStore, FoldedRow
from ofc_desk.service.table.actions.spec import CheckedAction
from ofc_desk.service.table.dealers import NOT_THE_DEALERS
from ofc_desk.service.table.fold import StoredEvent, fold
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.table.rule_pins import pins_in
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event
from ofc_desk.storage.users import Account

CHECKPOINT_EVENTS: Final = 1000
"""Events folded past the last checkpoint before the next is kept (about 60 hands of three): a
resume folds at most these and what was recorded since the desk last held the table."""


class CheckpointedStore(EventStore):
    """An event store whose `history` starts after a checkpoint (`base`; from the opening without
    one), which it moves on as the session grows."""

    def __init__(
        self,
        database: Database,
        session_id: int,
        head_seq: int,
        head_hash: str,
        history: Sequence[StoredEvent] = (),
        base: Checkpoint | None = None,
    ) -> None:
        super().__init__(database, session_id, head_seq, head_hash, history)
        self.base = base

    def stored_machine(self) -> TableMachine:
        """The table as stored up to this store's head: the checkpoint's machine and the events
        after it, from memory."""
        if self.base is None:
            return super().stored_machine()
        machine = self.base.thawed_as(TableMachine)
        fold(machine, self.history)
        return machine

    def append(
        self,
        machine: TableMachine,
        checked: CheckedAction,
        actor: str,
        signers: Sequence[Account] = (),
        stamp: EntryStamp | None = None,
    ) -> None:
        super().append(machine, checked, actor, signers, stamp)
        if actor and checked.kind not in NOT_THE_DEALERS:
            # A dealer's event names the dealer on duty as a fold does: the machine is the fold's.
            self.keep_if_due(machine)

    def keep_if_due(self, machine: TableMachine) -> None:
        """Keep `machine` (the table as folded up to the head) as the checkpoint when enough
        events were folded since the last one."""
        if self.head_seq - (self.base.seq if self.base else 0) >= CHECKPOINT_EVENTS:
            self.keep(machine)

    def keep(self, machine: TableMachine) -> None:
        """`machine` is the checkpoint at the head from now on: in memory, and in this desk's
        cache for the next resume (a cache that cannot be written keeps nothing)."""
        frozen = frozen_or_none(machine)
        if frozen is None:
            return  # something in this table does not pickle: it is folded whole, as before
        self.base = Checkpoint(self.head_seq, self.head_hash, frozen)
        self.history = []
        keep_file(self.database, self.session_id, self.base)


def load(database: Database, session_id: int) -> tuple[CheckpointedStore, TableMachine]:
    """A stored session's store and machine: from this desk's checkpoint when it is trusted, the
    events after it folded; else folded from the opening (`EventStore.load`), a checkpoint kept
    when the session is long."""
    found = kept(database, session_id)
    if found is not None:
        resumed = _resumed(database, session_id, found)
        if resumed is not None:
            return resumed
    with collector_paused():
        store, machine = CheckpointedStore.load(database, session_id)
    assert isinstance(store, CheckpointedStore)
    store.keep_if_due(machine)
    return store, machine


def _resumed(
    database: Database, session_id: int, kept: Checkpoint
) -> tuple[CheckpointedStore, TableMachine] | None:
    """The session from `kept` and the events after it; None when the stored chain does not hold
    the checkpoint's event as it was, or what follows cannot be folded onto it."""
    rows = trusted_rows(database, session_id, kept)
    if rows is None:
        return None
    later = rows[1:]
    try:
        machine = kept.thawed_as(TableMachine)
        fold(machine, later)
    except Exception:  # whatever the checkpoint gives wrong, the whole fold decides
        return None
    head = rows[-1]
    store = CheckpointedStore(database, session_id, head.seq, head.hash, later, kept)
    store.keep_if_due(machine)
    return store, machine


def trusted_rows(database: Database, session_id: int, kept: Checkpoint) -> Sequence[FoldedRow] | None:
    """The session's events from the checkpoint's on (`FOLDED_COLUMNS`; the checkpoint's own
    first) when they `hold` it; else None."""
    with database.snapshot() as session:
        query = select(*FOLDED_COLUMNS).where(Event.session_id == session_id, Event.seq >= kept.seq)
        rows = session.execute(query.order_by(Event.seq)).all()
    return rows if holds(kept, rows) else None


class ChainedEvent(StoredEvent, Protocol):
    """A stored event as a checkpoint is checked against it: what folding reads, and where the
    event stands in its session's chain."""

    @property
    def seq(self) -> int: ...

    @property
    def hash(self) -> str: ...


def holds(kept: Checkpoint, rows: Sequence[ChainedEvent]) -> bool:
    """Whether a session's events from the checkpoint's on (`rows`, in order) hold the checkpoint's
    event as it was (the chain covers every event before it), and none after it pins presets (pins
    are taken before the first event is folded: such a session is folded whole)."""
    if not rows or rows[0].seq != kept.seq or rows[0].hash != kept.hash:
        return False
    return not pins_in((row.kind, row.payload) for row in rows[1:])
