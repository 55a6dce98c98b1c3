"""`TableService`: the one place a live table's game flow lives, persisted event by event.

Every action is a command (`service.table.commands`): `do(command)` does it, `check(command)` raises
`ActionRefused` with the dealer's sentence and stores nothing, and `can(command)` says whether the
desk should offer it now (for a supervised action: if a supervisor approves; the PIN is asked for
afterwards, so `can` needs none). `check_typing` refuses an entry typed only in part.

An accepted action is stored as an event and COMMITTED before `do` returns; the live state
is a fold of the stored events, so a desk that dies resumes exactly where it was
(`TableService.resume`). The table a service holds is always the table as stored, even when a
write fails: its `recorder.TableRecorder` stores each action and keeps the table.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError

from ofc_desk.i18n import _
from ofc_desk.i18n.formatting import number as said_number
from ofc_desk.service.front.recorder import FLOOR_RETRIES, TableRecorder
from ofc_desk.service.room import desk_holds
from ofc_desk.service.room.requests import FloorRequest, ready_to_apply
from ofc_desk.service.room.room_pool import POOL_KEY, void_moves
from ofc_desk.service.store import checkpoint
from ofc_desk.service.store.entry_marks import DeskMarks, foreign_entry
from ofc_desk.service.store.persistence import CHANGED_ELSEWHERE, EventStore
from ofc_desk.service.store.pool_ledger import PoolFault, PoolReading, pool_reading, room_pool
from ofc_desk.service.table.actions.hand import check_opened
from ofc_desk.service.table.actions.spec import CheckedAction
from ofc_desk.service.table.commands import (
    Command,
    Entry,
    HandOver,
    VoidHand,
    dealer_name,
    signing_account,
)
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.table.seats import free_seats
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import RawPayload
from ofc_desk.service.terms.setup import TableRules, TableSetup
from ofc_desk.service.terms.snapshot import Phase, SettlementPreview, TableSnapshot, preview_of
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account

Dealer = Account | str
"""The signed-in dealer (whose key signs), or a bare name for a table that signs nothing."""
FoldedTable = tuple[checkpoint.CheckpointedStore, TableMachine]
"""A stored session read back (`TableService.read`): its store and its machine, held by no desk."""


class TableService:
    """One open table session. Construct with `TableService.open` or `TableService.resume`."""

    def __init__(
        self,
        store: EventStore,
        machine: TableMachine,
        actor: Dealer,
        desk: desk_holds.ThisDesk | None = None,
        marks: DeskMarks | None = None,
    ) -> None:
        self._desk = store.desk = desk
        self.taken_elsewhere: str | None = None
        """Why this desk is read-only: another desk took its table over (`desk_holds`); None while
        it holds the table."""
        self._recorder = TableRecorder(
            store, machine, signing_account(actor), dealer_name(actor), marks, after_catch_up=self.check_hold
        )
        self.entry_fault: str | None = None
        """At a resumed table, an entry another desk's login recorded, in words (`entry_marks`)."""

    # ----------------------------------------------------------------- opening and holding
    @staticmethod
    def verify_open(setup: TableSetup) -> None:
        """Refuse a table `open` would refuse for its seats, button or rules, storing nothing."""
        check_opened(TableMachine(), _setup_payload(setup))

    @classmethod
    def open(
        cls, database: Database, setup: TableSetup, actor: Dealer, desk: desk_holds.ThisDesk | None = None
    ) -> TableService:
        """Open a new table session; `actor` is the signed-in dealer (`users.sign_in`), whose key
        signs the chain at every settlement, chip operation and hand-over. A bare name signs
        nothing: `verify` refuses such a session's settlements. A desk given holds the table."""
        machine = TableMachine()
        payload = check_opened(machine, _setup_payload(setup))
        account = signing_account(actor)
        signers = () if account is None else (account,)
        name = dealer_name(actor)
        marks = DeskMarks.for_dealer(account)
        key = marks.key if marks is not None else ""
        store = checkpoint.CheckpointedStore.create_session(
            database, setup.name, name, payload, machine, signers, key, desk
        )
        if marks is not None:
            marks.published = True  # the opening's signature carries the key
        service = cls(store, machine, actor, desk, marks)  # a bare name published no key: no marks
        service._recorder.anchor(EventKind.TABLE_OPENED)
        return service

    @classmethod
    def resume(
        cls,
        database: Database,
        session_id: int,
        actor: Dealer,
        desk: desk_holds.ThisDesk | None = None,
        entries_now: bool = True,
    ) -> TableService:
        """Rebuild a stored session from its events (from this desk's `checkpoint` of it, when it
        has one), exactly where it stopped. A desk given holds the table from now on; refused
        (`desk_holds.TableHeld`: where, since when, by whom) while a desk on another machine holds
        it, which a supervisor's takeover (`take_over`) ends. Without `entries_now` the entries'
        marks are left for `find_foreign_entry`, once the table is shown."""
        return cls.take_up(cls.read(database, session_id), actor, desk, entries_now)

    @staticmethod
    def read(database: Database, session_id: int) -> FoldedTable:
        """A stored session folded (from this desk's `checkpoint` of it, when trusted) and nothing
        else: no hold taken, nothing recorded. A desk may read it while the dealer still signs in;
        `take_up` then makes it the dealer's table."""
        return checkpoint.load(database, session_id)

    @classmethod
    def take_up(
        cls,
        folded: FoldedTable,
        actor: Dealer,
        desk: desk_holds.ThisDesk | None = None,
        entries_now: bool = True,
    ) -> TableService:
        """The second half of `resume`: the table `read` folded, held by `desk` (refused as
        `resume` is) and dealt by `actor`. What was recorded at the table since the read (its
        desk let it go meanwhile) is folded in once the hold is taken, as at any catch-up."""
        store, machine = folded
        database, session_id = store.database, store.session_id
        if desk is not None:
            name = dealer_name(actor)
            desk_holds.claim(database, session_id, machine.table, desk, name)
        store.catch_up(machine)
        service = cls(store, machine, actor, desk)
        service._recorder.take_marks()
        if entries_now:
            service.find_foreign_entry()
        return service

    def find_foreign_entry(self) -> str | None:
        """Why the dealer should call the floor: an entry of this table's chain that no desk of the
        table marked (`entry_marks.foreign_entry`), kept in `entry_fault`; None when none is.
        Reads only the database: a desk may run it beside the table it shows."""
        self.entry_fault = foreign_entry(self.database, self.session_id)
        return self.entry_fault

    @classmethod
    def take_over(
        cls,
        database: Database,
        session_id: int,
        actor: Dealer,
        desk: desk_holds.ThisDesk,
        supervisor: str,
        pin: str,
    ) -> TableService:
        """A floor supervisor hands a table live at another desk to `actor` at `desk`: recorded as
        a `taken_over` event signed by the supervisor, whose append moves the table's hold here;
        the desk that held it is refused from then on and says why. The desk starts its own chain
        of marks for `actor` (`entry_marks`, published with its first entry), as at a resume."""
        store, machine = checkpoint.load(database, session_id)
        service = cls(store, machine, actor, desk)
        service._recorder.take_marks()
        name = dealer_name(actor)
        raw = {"dealer": name, "desk": desk.machine}
        checked, account = service._supervised(EventKind.TAKEN_OVER, raw, supervisor, pin)
        for attempt in range(1, FLOOR_RETRIES + 1):
            try:
                service._recorder.record(checked, account)
            except ActionRefused as refusal:
                # The desk that holds it recorded meanwhile: a takeover is taken at any head.
                if attempt == FLOOR_RETRIES or str(refusal) != str(CHANGED_ELSEWHERE):
                    raise
                # Checked again at the table as read again.
                checked = service.machine.checked(EventKind.TAKEN_OVER, checked.payload)
                continue
            break
        service.entry_fault = foreign_entry(database, session_id)
        return service

    def release(self) -> None:
        """This desk lets the table go (the desk is closed, or another table opened): it may be
        resumed at any desk without a supervisor."""
        if self._desk is not None and self.taken_elsewhere is None:
            desk_holds.release(self.database, self.session_id, self._desk)

    def check_hold(self) -> str | None:
        """Whether another desk took this table (one cheap read); the sentence why this desk is
        read-only, kept in `taken_elsewhere`, or None."""
        if self._desk is not None and self.taken_elsewhere is None:
            holder = desk_holds.holder_now(self.database, self.session_id, self._desk)
            if holder is not None:
                self.taken_elsewhere = desk_holds.taken_sentence(holder)
                self.machine.dealer_on_duty = self._recorder.actor = holder.dealer  # who deals it now
        return self.taken_elsewhere

    # ----------------------------------------------------------------- the table held
    @property
    def session_id(self) -> int:
        return self._recorder.store.session_id

    @property
    def database(self) -> Database:
        return self._recorder.store.database

    @property
    def machine(self) -> TableMachine:
        """The pure live state, for read-only use by the service's own faces (replay, verify)."""
        return self._recorder.machine

    @property
    def anchor_file(self) -> Path | None:
        """Where the room's head is appended at every event recorded here (each confirmed street
        among them); None when not configured."""
        return self._recorder.anchor_file

    @anchor_file.setter
    def anchor_file(self, path: Path | None) -> None:
        self._recorder.anchor_file = path

    @property
    def anchor_fault(self) -> str | None:
        """Why the last event's anchor could not be written (the event stands)."""
        return self._recorder.anchor_fault

    @property
    def rules(self) -> TableRules:
        """The rules and stakes in force, as the last start or change of rules recorded them."""
        return self.machine.rules

    def snapshot(self) -> TableSnapshot:
        """The table as the desk should draw it now."""
        return self._recorder.snapshot()

    def catch_up(self) -> bool:
        """Fold in what the floor recorded at this table since the last action (one cheap query
        when nothing was), and whether another desk took the table (`check_hold`, another); True
        when something was recorded."""
        return self._recorder.catch_up()

    # ----------------------------------------------------------------- read-only views for the desk
    def free_seats(self) -> list[int]:
        """The empty seats a newcomer may take now, by number."""
        return free_seats(self.machine)

    def pool_shown(self) -> PoolReading | None:
        """The room's pool as the desk shows it now, when this table's preset pays an award from it:
        read once for both its status line's words (`jackpot_words`) and a settlement's preview, a
        walk of what the room recorded since (`pool_ledger`). None otherwise, and while the
        database does not answer (the action's refusal says so)."""
        if self.machine.jackpot_award() is None:
            return None
        try:
            return pool_reading(self.database)
        except SQLAlchemyError:
            return None

    @staticmethod
    def jackpot_words(pool: PoolReading | None) -> str | None:
        """The pool `pool_shown` read in words ("room jackpot 1,250"), for the desk's status line;
        None where it read none."""
        if pool is None:
            return None
        if pool.fault is not None:
            return _("room jackpot does not verify: call the floor")
        return _("room jackpot {chips}").format(chips=said_number(pool.pool))

    def settlement_preview(self, pool: PoolReading | None) -> SettlementPreview | None:
        """At a hand awaiting settlement: what Confirm would leave (each stack after the settlement,
        the rake and an award, the rake per player, the room's pool before and after), found by
        settling a copy of the table folded from its stored events, so the panel shows the chips
        the felt will show. An award is paid from `pool`, the room's pool as `pool_shown` read it
        (`pool_ledger`: another table may change the pool first, and the settlement reads it
        again). None at any other time, when an award's pool was not read, and while it does not
        verify (Confirm is refused then: nothing is paid from it)."""
        if self.machine.phase is not Phase.AWAITING_SETTLEMENT:
            return None
        trial = self._recorder.store.stored_machine()
        found: dict[str, object] = {}
        if self.machine.jackpot_award() is not None:
            if pool is None:  # the database does not answer: no award can be said
                return None
            try:
                found = {POOL_KEY: pool.payable()}
            except PoolFault:  # Confirm is refused, saying why (`jackpot_words` says it too)
                return None
        settled = trial.apply_checked(trial.checked(EventKind.HAND_SETTLED, found), self._recorder.actor).hand
        jackpot = None if settled is None else settled.result.jackpot
        return preview_of(trial.snapshot(self.session_id, self._recorder.store.head_hash), jackpot)

    def open_requests(self) -> list[FloorRequest]:
        """Requests waiting for the floor, or approved and not yet carried out, oldest first."""
        return [request for request in self.machine.requests.values() if request.outstanding]

    # ----------------------------------------------------------------- requests to the floor
    def carry_out_approved(self) -> list[str]:
        """Between hands, record each action the floor approved and the table has not yet done;
        what was done, in words ("request #2 done: void hand 3, approved by Sue")."""
        done: list[str] = []
        if not self.machine.can_change_between_hands():
            return done
        for request in ready_to_apply(self.machine):
            approved_by = request.decision["supervisor"] if request.decision else ""
            self.carry_out_request(request.number)
            said = _("request #{number} done: {request}, approved by {supervisor}")
            done.append(said.format(number=request.number, request=request.words(), supervisor=approved_by))
        return done

    def carry_out_request(self, number: int) -> TableSnapshot:
        """Record the action of an approved request exactly as approved, as its approver's (whose
        signature is on the approval); refused when not approved, already done, or mid-hand."""
        request = self.machine.requests.get(number)
        if request is None or request.decision is None:
            raise ActionRefused(_("request #{number} is not approved").format(number=number))
        supervisor = request.decision["supervisor"]
        raw = {**request.details, "supervisor": supervisor, "request": number}
        return self._recorder.record(self.machine.checked(request.action, raw), actor=supervisor)

    # ----------------------------------------------------------------- any action as a command
    def do(self, command: Command) -> TableSnapshot:
        """Do an action (`service.table.commands`): stored and committed, or refused with the dealer's
        sentence (`ActionRefused`); a supervised one checks the supervisor's PIN first."""
        if isinstance(command, HandOver):
            return self._hand_over(command)
        kind, approval = command.event_kind(), command.approval()
        if approval is None:
            return self._recorder.record(self.machine.checked(kind, command.raw(self.rules)))
        checked, account = self._supervised(kind, command.raw(self.rules), *approval)
        return self._recorder.record(checked, account)

    def check(self, command: Command) -> None:
        """Refuse an action `do` would refuse, storing nothing (a supervised one: its PIN too)."""
        if isinstance(command, HandOver) and command.name() == self._recorder.actor:
            return  # naming the dealer on duty records nothing
        kind, approval = command.event_kind(), command.approval()
        if approval is None:
            self.machine.check(kind, command.raw(self.rules))
        else:
            self._supervised(kind, command.raw(self.rules), *approval)

    def can(self, command: Command) -> bool:
        """Whether the desk should offer an action now; a supervised one if a supervisor approves
        (the PIN is asked for afterwards, so none is needed here)."""
        kind, raw = command.event_kind(), command.raw(self.rules)
        if command.approval() is None:
            return _accepted(lambda: self.machine.check(kind, raw))
        if not _accepted(lambda: self.machine.check_before_approval(kind, raw)):
            return False
        return not isinstance(command, VoidHand) or self._pool_allows_void(command.hand)

    def check_typing(self, entry: Entry) -> None:
        """Refuse an entry being typed (a street, a set, a showdown: what is typed so far) the
        moment a card cannot belong to it: held elsewhere, typed twice, a row overfilled."""
        self.machine.check_typing(entry.event_kind(), entry.player, entry.cards, entry.rows)

    def _pool_allows_void(self, number: int) -> bool:
        """The store refuses a void that would take the room's pool below 0
        (`room_pool.record_moves`)."""
        taken = sum(move.chips for move in void_moves(self.machine, number))
        try:
            return taken >= 0 or room_pool(self.database) + taken >= 0
        except SQLAlchemyError:  # the pool cannot be read now: not offered until it can
            return False

    def _hand_over(self, command: HandOver) -> TableSnapshot:
        """The hand-over is recorded as the outgoing dealer's (their key signs it, and with it
        everything before), and what follows as the new dealer's. Naming the dealer already on
        duty records nothing."""
        name = command.name()
        if name == self._recorder.actor:
            return self.snapshot()
        self._recorder.record(self.machine.checked(EventKind.HANDED_OVER, {"dealer": name}))
        self._recorder.hand_over(signing_account(command.dealer), name)
        return self.snapshot()

    def _supervised(
        self, kind: EventKind, raw: RawPayload, supervisor: str, pin: str
    ) -> tuple[CheckedAction, Account]:
        """The checked action and the approving supervisor's account, its key unsealed to sign."""
        account = self._recorder.store.check_supervisor(supervisor, pin)
        return self.machine.checked(kind, {**raw, "supervisor": account.name}), account


def _accepted(check: Callable[[], object]) -> bool:
    try:
        check()
    except ActionRefused:
        return False
    return True


def _setup_payload(setup: TableSetup) -> RawPayload:
    return {
        "table": setup.name,
        "seats": [{"name": seat.name, "buy_in": seat.buy_in} for seat in setup.seats],
        "button": setup.button,
        "rules": setup.rules.pinned().to_json(),
    }
