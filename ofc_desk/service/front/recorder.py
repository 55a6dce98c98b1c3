"""`TableRecorder`: how `TableService` stores an accepted action, and the table it holds meanwhile.

An accepted action is stored as an event and COMMITTED before `record` returns; the live state is
a fold of the stored events. The table a recorder holds is always the table as stored: an action
whose transaction fails for any reason (the server down, the connection lost, a lock not granted
in time, a full disk) leaves it as the last commit left it, rebuilt from the events kept in memory
whether or not the database can be read then; the next action reads what the database may have
stored meanwhile first (`unrecorded` words the failure for the dealer).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.exc import SQLAlchemyError

from ofc_desk.i18n import _
from ofc_desk.service.room.room_chain import AnchorFault, append_anchor, configured_anchor_file
from ofc_desk.service.store import checkpoint
from ofc_desk.service.store.entry_marks import MARKED, DeskMarks, keyed_session
from ofc_desk.service.store.persistence import CHANGED_ELSEWHERE, EventStore
from ofc_desk.service.table.actions import DEALER_SIGNED
from ofc_desk.service.table.actions.spec import CheckedAction
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import FLOOR_WRITTEN, EventKind
from ofc_desk.service.terms.snapshot import TableSnapshot
from ofc_desk.storage.database import failure_cause
from ofc_desk.storage.users import Account

FLOOR_RETRIES = 5
"""Attempts to store an action while the floor keeps recording decisions at this table."""


class TableRecorder:
    """A table's store and the machine folded from it, the dealer on duty who signs, this desk's
    marks for its entries, and the anchor file appended at every event recorded."""

    def __init__(
        self,
        store: EventStore,
        machine: TableMachine,
        dealer: Account | None,
        actor: str,
        marks: DeskMarks | None,
        after_catch_up: Callable[[], object],
    ) -> None:
        self.store = store
        self.machine = machine
        self.dealer = dealer
        """The signed-in dealer on duty, whose key signs where the dealer signs; None under a bare
        name."""
        self.actor = actor
        """The name the dealer on duty records under."""
        machine.dealer_on_duty = actor
        self.marks = marks
        """This desk's chain of marks for its entries (`entry_marks`), published with its first;
        a resumed or taken table gets its own (`take_marks`)."""
        self._marking = marks is not None
        """Whether this desk marks its entries: in a session whose opening published a key."""
        self._after_catch_up = after_catch_up
        """What the service checks each time the recorder reads the table again (its desk's hold)."""
        self.anchor_file = configured_anchor_file()
        """Where the room's head is appended at every event recorded here (each confirmed street
        among them); None when not configured."""
        self.anchor_fault: str | None = None
        """Why the last event's anchor could not be written (the event stands)."""
        self._unsure = False
        """The last write failed without saying what the database kept (a commit whose answer was
        lost may still have been stored): read the table's head again before the next one."""

    def snapshot(self) -> TableSnapshot:
        """The table as the desk should draw it now."""
        return self.machine.snapshot(self.store.session_id, self.store.head_hash)

    def take_marks(self) -> None:
        """At a table taken (resumed, taken over): its marks are this desk's from now on, when the
        session's opening published a key."""
        self._marking = keyed_session(self.store.database, self.store.session_id)
        self.marks = self._new_marks()

    def hand_over(self, dealer: Account | None, actor: str) -> None:
        """What follows a recorded hand-over is the new dealer's, marked by a chain of their own."""
        self.dealer = dealer
        self.marks = self._new_marks()
        self.actor = actor

    def _new_marks(self) -> DeskMarks | None:
        """A new chain of marks for the dealer on duty; None where nothing is marked: a session
        whose opening published no key (recorded before migration 0013, or opened under a bare
        name) is checked as before, and a mark there would be one no entry needs."""
        return DeskMarks.for_dealer(self.dealer) if self._marking else None

    def catch_up(self) -> bool:
        """Fold in what the floor recorded at this table since the last action (one cheap query
        when nothing was), then the service's check (`after_catch_up`); True when something was
        recorded."""
        try:
            caught_up = bool(self.store.catch_up(self.machine))
        except BaseException:
            self._restore()
            raise
        self._unsure = False
        self._after_catch_up()
        return caught_up

    def _restore(self) -> None:
        """The table as stored up to this desk's head, from memory: the database may not answer."""
        self.machine = self.store.stored_machine()
        self.machine.dealer_on_duty = self.actor

    def _reload(self) -> None:
        """The table as the database has it now, when another wrote at it since this desk's head."""
        desk = self.store.desk
        self.store, self.machine = checkpoint.load(self.store.database, self.store.session_id)
        self.store.desk = desk
        self.machine.dealer_on_duty = self.actor
        self._unsure = False

    def record(
        self,
        checked: CheckedAction,
        approver: Account | None = None,
        actor: str | None = None,
    ) -> TableSnapshot:
        """Store the event, signed by the approving supervisor, or by the dealer where the dealer
        signs (settlements and chip operations). When the floor recorded a decision at this table
        since the last action, the action is checked again after it and stored after it."""
        kind = checked.kind
        dealer_signs = kind in DEALER_SIGNED and self.dealer is not None
        signers = [s for s in ((approver,) if approver else (self.dealer,) if dealer_signs else ()) if s]
        actor = actor or (approver.name if approver is not None else self.actor)
        if self._unsure:
            stored = len(self.store.history)
            if self.catch_up():
                if self.store.stored_since(stored, kind, checked.payload, actor):
                    return self.snapshot()  # the failed commit was stored after all: once is enough
                # What was stored meanwhile may refuse it.
                checked = self.machine.checked(kind, checked.payload)
        for attempt in range(1, FLOOR_RETRIES + 1):
            head = self.store.head_seq
            stamp = self.marks.stamp() if self.marks is not None and kind in MARKED else None
            try:
                self.store.append(self.machine, checked, actor, signers, stamp)
            except BaseException as failure:
                # The machine may hold the event that was not stored: back to what was, from
                # memory, as the database may not answer now; it is read at the next action.
                self._restore()
                self._unsure = True
                if not isinstance(failure, ActionRefused):
                    if stamp is not None:
                        # A commit whose answer was lost may have stored the mark, or not: which
                        # link follows is unknown, so the next entry publishes a chain of its own.
                        self.marks = self._new_marks()
                    raise
                self._reload()  # it answered, refusing: another desk or the floor wrote first
                if attempt == FLOOR_RETRIES or not self._floor_decided_since(failure, head):
                    raise
                checked = self.machine.checked(kind, checked.payload)
                continue
            if stamp is not None and self.marks is not None:
                self.marks = self.marks.confirm()
            self.anchor(kind)
            return self.snapshot()
        raise AssertionError("unreachable: the last attempt raises")

    def anchor(self, kind: EventKind) -> None:
        """Append this table's head (with the accounts' and the PIN checks') to the anchor file, if
        there is one: a live hand's streets are covered from the moment they are confirmed, not
        only at its settlement. Every other desk anchors its own table; `ofc-desk anchor` all."""
        self.anchor_fault = None
        if self.anchor_file is None:
            return
        try:
            append_anchor(self.store.database, self.anchor_file, self.store.session_id)
        except (AnchorFault, SQLAlchemyError) as error:  # the event is committed all the same
            fault = error if isinstance(error, AnchorFault) else failure_cause(error)
            if kind is EventKind.HAND_SETTLED:
                self.anchor_fault = _("hand settled, but not anchored: {fault}").format(fault=fault)
            else:
                self.anchor_fault = _("recorded, but not anchored: {fault}").format(fault=fault)

    def _floor_decided_since(self, failure: BaseException, head: int) -> bool:
        """Whether only the floor wrote at this table since `head`: then the desk's action is not
        stale, only later in the chain."""
        if not isinstance(failure, ActionRefused) or str(failure) != str(CHANGED_ELSEWHERE):
            return False
        since = self.store.kinds_after(head)
        return bool(since) and all(kind in FLOOR_WRITTEN for kind in since)
