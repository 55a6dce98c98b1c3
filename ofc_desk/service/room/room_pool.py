"""The room's jackpot pool (docs/rules.md §11): one pool per database, fed by every table's drop,
filled by a floor supervisor's seed, emptied by awards.

Every change is derived from a table's event: a settled hand's drop (part of its rake, as before)
and its award, a seed (`jackpot_seeded`), a void (which gives the hand's award back to the pool and
takes its drop out). A settlement at a table whose preset has an award says in its payload the pool
it found (`jackpot_pool`); the award is worked out from it and the hand, after the hand's
settlement and rake, and stored in the hand's result as `ofc-desk score` answers it. The store
keeps each change as a `jackpot_moves` row with the pool after it, under one lock for the whole
room (`hold_pool`): two desks settling at the same moment read and change the pool one after the
other, so the same chips are never paid twice and the pool never goes below 0. The pool is never
read from those rows: `PoolWalk` walks every table's changes in the order of their events, holds
each settlement's pool to it and the stored rows to the changes, for `verify` (`RoomPoolCheck`)
and for the desk (`pool_ledger`, which pays from it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from ofc_desk.core.jackpot import JackpotAward, JackpotResult, PairRows, jackpot_after_deal
from ofc_desk.core.results import HandResult, ResultTransfer
from ofc_desk.core.settlement import MAX_CHIPS
from ofc_desk.i18n import _, ngettext
from ofc_desk.i18n.formatting import number as said_number
from ofc_desk.i18n.formatting import signed_number
from ofc_desk.service.terms import reading
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind, LedgerKind
from ofc_desk.service.terms.outcome import LedgerEntry, Outcome, PoolMove
from ofc_desk.service.terms.payloads import JackpotSeeded, RawPayload
from ofc_desk.storage.append_locks import JACKPOT_LOCK, hold_append_lock
from ofc_desk.storage.database import has_table
from ofc_desk.storage.models import Event, JackpotMove

POOL_KEY: Final = "jackpot_pool"
"""The settlement payload's key for the pool the hand found (only at a table with an award)."""
POOL_KINDS: Final = frozenset({EventKind.HAND_SETTLED, EventKind.JACKPOT_SEEDED, EventKind.HAND_VOIDED})
"""The events that may change the room's pool: each is stored under the pool's lock."""


class MoveKind(StrEnum):
    DROP = "drop"
    SEED = "seed"
    AWARD = "award"
    VOID = "void"


# ---------------------------------------------------------------------- the table's part
class Stack(Protocol):
    stack: int


class PoolTable(Protocol):
    """What paying, seeding and voiding read of a table (the machine; taken, not imported back)."""

    hand_changes: dict[int, dict[str, int]]
    hand_jackpots: dict[int, int]
    hand_awards: dict[int, int]

    def seat(self, name: str) -> Stack: ...
    def require_between_hands(self, what: str) -> None: ...


class JackpotScored(Protocol):
    """A game's scored hand that can carry the jackpot (the core's `DealResult` and
    `ChineseDealResult`)."""

    def to_json(self, jackpot: JackpotResult | None = None) -> dict[str, Any]: ...
    def view(self, jackpot: JackpotResult | None = None) -> HandResult: ...
    def transfers_view(self) -> tuple[ResultTransfer, ...]: ...


@dataclass(frozen=True)
class WithJackpot:
    """A settled hand's result with the award the room's pool paid after it: stored, read and
    shown as `ofc-desk score` answers a deal with a pool."""

    scored: JackpotScored
    jackpot: JackpotResult

    def to_json(self) -> dict[str, Any]:
        return self.scored.to_json(self.jackpot)

    def view(self) -> HandResult:
        return self.scored.view(self.jackpot)

    def transfers_view(self) -> tuple[ResultTransfer, ...]:
        return self.scored.transfers_view()


@dataclass(frozen=True)
class PaidJackpot:
    """What an award left on the table: the result to store, the award's ledger lines and the
    pool's changes (the drop, then the award)."""

    result: WithJackpot
    ledger: tuple[LedgerEntry, ...]
    moves: tuple[PoolMove, ...]


def pool_found(raw: RawPayload) -> int:
    """The pool a settlement says it found; 0 until the store reads the room's (a desk checking
    whether the hand can be settled has not read it)."""
    pool = reading.whole_number(raw.get(POOL_KEY, 0))
    if pool is None or pool < 0:
        raise ActionRefused(_("the room's jackpot pool is a whole number of chips, 0 or more"))
    return pool


def pay_award(
    machine: PoolTable,
    number: int,
    award: JackpotAward,
    pairs: Sequence[PairRows],
    scored: JackpotScored,
    dealt_in: Sequence[str],
    pool_before: int,
    drop: int,
) -> PaidJackpot:
    """The award out of the pool as it stands after this hand's drop, onto the stacks (no cap of
    the table's stakes applies: the chips are the house's)."""
    jackpot = jackpot_after_deal(award, pairs, dealt_in, pool_before, drop)
    ledger = []
    moves = list(drop_moves(number, drop))
    if jackpot.award is not None:
        for name, chips in jackpot.award.chips.items():
            if chips:
                machine.seat(name).stack += chips
                machine.hand_changes[number][name] += chips
                ledger.append(LedgerEntry(name, LedgerKind.JACKPOT, chips, number))
        moves.append(PoolMove(MoveKind.AWARD, -jackpot.award.total, number))
        machine.hand_awards[number] = jackpot.award.total
    return PaidJackpot(WithJackpot(scored, jackpot), tuple(ledger), tuple(moves))


def drop_moves(number: int, drop: int) -> tuple[PoolMove, ...]:
    """A hand's drop into the pool (nothing when the hand dropped nothing)."""
    return (PoolMove(MoveKind.DROP, drop, number),) if drop else ()


def void_moves(machine: PoolTable, number: int) -> tuple[PoolMove, ...]:
    """A void gives the hand's award back to the pool and takes its drop out."""
    chips = machine.hand_awards.get(number, 0) - machine.hand_jackpots.get(number, 0)
    return (PoolMove(MoveKind.VOID, chips, number),) if chips else ()


def check_seeded(machine: PoolTable, raw: RawPayload) -> JackpotSeeded:
    machine.require_between_hands("the jackpot is seeded")
    chips = reading.whole_number(raw.get("chips"))
    if chips is None or not 0 < chips <= MAX_CHIPS:
        raise ActionRefused(
            _("a seed of the room's jackpot is a whole number of chips from 1 to {most}").format(
                most=said_number(MAX_CHIPS)
            )
        )
    return {"chips": chips, "supervisor": reading.text(raw, "supervisor")}


def apply_seeded(machine: PoolTable, payload: JackpotSeeded) -> Outcome:
    return Outcome(pool_moves=(PoolMove(MoveKind.SEED, payload["chips"]),))


# ---------------------------------------------------------------------- the store's part
def has_pool(session: Session) -> bool:
    """Whether the schema keeps the room's pool (migration 0009)."""
    return has_table(session, JackpotMove.__tablename__)


def hold_pool(session: Session) -> None:
    """Make this transaction the only one changing the room's pool until it ends (PostgreSQL: a
    transaction-scoped advisory lock; SQLite: the write lock, taken at once)."""
    hold_append_lock(session, JACKPOT_LOCK)


def record_moves(
    session: Session, session_id: int, event_id: int, pool: int, moves: Sequence[PoolMove]
) -> int:
    """The event's changes of the pool as rows, each with the pool after it (`pool`: the pool the
    room's events give, never a stored total: `pool_ledger`); refused when one would take the pool
    below 0 (a void of a hand whose drop was paid out since)."""
    for move in moves:
        if pool + move.chips < 0:
            raise ActionRefused(
                ngettext(
                    "voiding hand {hand} would take {chips} chip out of the room's jackpot pool,"
                    " which holds {pool}: seed the jackpot first",
                    "voiding hand {hand} would take {chips} chips out of the room's jackpot pool,"
                    " which holds {pool}: seed the jackpot first",
                    -move.chips,
                ).format(hand=move.hand_number, chips=said_number(-move.chips), pool=said_number(pool))
            )
        pool += move.chips
        session.add(
            JackpotMove(
                session_id=session_id,
                event_id=event_id,
                hand_number=move.hand_number,
                kind=move.kind,
                chips=move.chips,
                pool_after=pool,
            )
        )
    return pool


# ---------------------------------------------------------------------- the walk (verify's, the desk's)
@dataclass(frozen=True)
class PoolStep:
    """One event's part in the room's pool: the pool it says it found, and its changes."""

    event_id: int
    session_id: int
    pool_before: int | None
    moves: tuple[PoolMove, ...]


def pool_step(event_id: int, session_id: int, outcome: Outcome) -> PoolStep | None:
    if not outcome.pool_moves and outcome.pool_before is None:
        return None
    return PoolStep(event_id, session_id, outcome.pool_before, outcome.pool_moves)


@dataclass(frozen=True)
class StoredMove:
    """A `jackpot_moves` row as read (or, with `id` 0, as an event gives it)."""

    id: int
    session_id: int
    event_id: int
    hand_number: int | None
    kind: str
    chips: int
    pool_after: int

    def fields(self) -> tuple[int, int, int | None, str, int, int]:
        return (self.session_id, self.event_id, self.hand_number, self.kind, self.chips, self.pool_after)


_MOVE_COLUMNS = (
    JackpotMove.id,
    JackpotMove.session_id,
    JackpotMove.event_id,
    JackpotMove.hand_number,
    JackpotMove.kind,
    JackpotMove.chips,
    JackpotMove.pool_after,
)


def read_moves(session: Session, after: int = 0) -> list[StoredMove]:
    """The stored rows of the pool numbered after `after`, in order (the schema keeps them: the
    caller asked `has_pool`)."""
    query = select(*_MOVE_COLUMNS).where(JackpotMove.id > after).order_by(JackpotMove.id)
    return [StoredMove(*row) for row in session.connection().execute(query)]


@dataclass
class PoolWalk:
    """The room's pool as its events give it, walked change by change in the order of the events,
    each event's stored rows held to the changes it gives. `pool` is the events' figure, never a
    stored one; a row beside those the events give (any login that records may add one) is set
    aside, named and not counted; a row missing or altered, a settlement that found another pool
    or a pool below 0 is `fault` (the first one), which the desk will not pay from."""

    rows_kept: bool = True
    """False for a schema from before the room's pool: its changes have no rows to hold."""
    pool: int = 0
    waiting: dict[int, list[StoredMove]] = field(default_factory=dict)
    """Stored rows by their event, not yet walked to."""
    matched: set[int] = field(default_factory=set)
    """The ids of the stored rows the events give."""
    aside: list[StoredMove] = field(default_factory=list)
    """The stored rows beside them."""
    fault: str | None = None

    @property
    def set_aside(self) -> list[str]:
        """A sentence for each row set aside, in the order they were stored."""
        return [_row_set_aside(row) for row in sorted(self.aside, key=lambda row: row.id)]

    def take(self, rows: Sequence[StoredMove]) -> None:
        for row in rows:
            self.waiting.setdefault(row.event_id, []).append(row)

    def walk(self, step: PoolStep) -> None:
        if step.pool_before is not None and step.pool_before != self.pool:
            self._fault(
                ngettext(
                    "event {event} says the room's jackpot pool held {claimed} chip; the events before"
                    " it give {pool}",
                    "event {event} says the room's jackpot pool held {claimed} chips; the events before"
                    " it give {pool}",
                    step.pool_before,
                ).format(event=step.event_id, claimed=step.pool_before, pool=self.pool)
            )
        expected = []
        for move in step.moves:
            self.pool += move.chips
            if self.pool < 0:
                said = _("event {event} takes the room's jackpot pool below 0 ({pool})")
                self._fault(said.format(event=step.event_id, pool=self.pool))
            values = (step.session_id, step.event_id, move.hand_number, move.kind, move.chips, self.pool)
            expected.append(StoredMove(0, *values))
        self._hold(expected, self.waiting.pop(step.event_id, []))

    def set_aside_rows(self, walked: Callable[[StoredMove], bool] = lambda row: True) -> None:
        """Set aside the waiting rows whose event `walked` says was walked past: it gave no such
        change of the pool (a rebuy's, say)."""
        for event_id in [event_id for event_id, rows in self.waiting.items() if walked(rows[0])]:
            self.aside += self.waiting.pop(event_id)

    def _hold(self, expected: list[StoredMove], rows: list[StoredMove]) -> None:
        if not self.rows_kept:
            return
        extra, position = [], 0
        for row in rows:
            if position < len(expected) and row.fields() == expected[position].fields():
                self.matched.add(row.id)
                position += 1
            else:
                extra.append(row)
        if position < len(expected):
            missing = expected[position]
            altered = next((row for row in extra if row.kind == missing.kind), None)
            if altered is not None:
                extra.remove(altered)
                self._fault(_("jackpot pool row {row} differs from the events").format(row=altered.id))
            else:
                said = _("the room's jackpot pool is missing the {kind} of event {event}")
                self._fault(said.format(kind=missing.kind, event=missing.event_id))
        self.aside += extra

    def _fault(self, fault: str) -> None:
        if self.fault is None:
            self.fault = fault


def _row_set_aside(row: StoredMove) -> str:
    said = _(
        "jackpot pool row {row} ({kind} {chips}, event {event}) is none the events give: it is not counted"
    )
    return said.format(row=row.id, kind=row.kind, chips=signed_number(row.chips), event=row.event_id)


@dataclass
class RoomPoolCheck:
    """`verify`'s walk of every table's changes of the pool in the order of their events
    (`PoolWalk`): the first fault, and a sentence for each row set aside."""

    steps: list[PoolStep] = field(default_factory=list)
    matched: set[int] = field(default_factory=set)
    """The ids of the stored rows the events give, once `check` has walked them."""

    def check(self, session: Session) -> tuple[str | None, list[str]]:
        walk = PoolWalk(rows_kept=has_pool(session))
        if walk.rows_kept:
            walk.take(read_moves(session))
        for step in sorted(self.steps, key=lambda step: step.event_id):
            walk.walk(step)
        walk.set_aside_rows()
        self.matched = walk.matched
        return walk.fault, walk.set_aside


# ---------------------------------------------------------------------- the reports' part
@dataclass(frozen=True)
class PoolRow:
    """A stored change of the room's pool as the reports read it, with its event's time."""

    session_id: int
    event_id: int
    at: str
    hand_number: int | None
    kind: str
    chips: int
    pool_after: int
    """The room's pool once this change was made, as the store kept it (every table's changes)."""


_STORED_ROWS = select(
    JackpotMove.id,
    JackpotMove.session_id,
    JackpotMove.event_id,
    Event.at,
    JackpotMove.hand_number,
    JackpotMove.kind,
    JackpotMove.chips,
    JackpotMove.pool_after,
).join(Event, Event.id == JackpotMove.event_id)
"""The stored rows of the pool as the reports read them: each with its number and its event's time."""


def rows_newest_first(session: Session, below: int | None, count: int) -> list[tuple[int, PoolRow]]:
    """Up to `count` of the room's stored pool changes numbered below `below` (None: the newest),
    newest first, each with its number (the schema keeps them: the caller asked `has_pool`)."""
    query = _STORED_ROWS.order_by(JackpotMove.id.desc()).limit(count)
    if below is not None:
        query = query.where(JackpotMove.id < below)
    return [(row[0], PoolRow(*row[1:])) for row in session.execute(query)]


def _stored_rows(session: Session, session_id: int) -> tuple[PoolRow, ...]:
    query = _STORED_ROWS.where(JackpotMove.session_id == session_id)
    return tuple(PoolRow(*row[1:]) for row in session.execute(query.order_by(JackpotMove.id)))


def session_pool_rows(
    session: Session, session_id: int, steps: Sequence[PoolStep]
) -> tuple[tuple[PoolRow, ...], str | None]:
    """A session's stored pool changes that its events give (a row beside them, which any login
    that records may add, is left out: `verify` names it), and a fault when one it gives is missing
    or altered (the pool after each is the whole room's: `RoomPoolCheck` holds it)."""
    if not has_pool(session):
        return (), None  # a database from before the room's pool: its drops are in its hands
    given = [
        (step.event_id, move.hand_number, move.kind, move.chips) for step in steps for move in step.moves
    ]
    kept: list[PoolRow] = []
    for row in _stored_rows(session, session_id):
        said = (row.event_id, row.hand_number, row.kind, row.chips)
        if len(kept) < len(given) and said == given[len(kept)]:
            kept.append(row)
    if len(kept) == len(given):
        return tuple(kept), None
    fault = _("session {session}: its rows of the room's jackpot pool differ from its events")
    return tuple(kept), fault.format(session=session_id)
