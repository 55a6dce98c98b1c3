"""The room's jackpot pool (docs/rules.md §11): one pool per database, fed by every table's drop,
filled by a floor supervisor's seed, emptied by awards.

Every change is derived from a table's event: a settled hand's drop (part of its rake, as before)
and its award, a seed (`jackpot_seeded`), a void (which gives the hand's award back to the pool and
takes its drop out). A settlement at a table whose preset has an award says in its payload the pool
it found (`jackpot_pool`); the award is worked out from it and the hand, after the hand's
settlement and rake, and stored in the hand's result as `ofc-desk score` answers it. The store
keeps each change as a `jackpot_moves` row with the pool after it, under one lock for the whole
room (`hold_pool`): two desks settling at the same moment read and change the pool one after the
other, so the same chips are never paid twice and the pool never goes below 0. `verify` walks
every table's changes in the order of their events and holds each settlement's pool to it
(`RoomPoolCheck`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, Protocol

from sqlalchemy import inspect, select
from sqlalchemy.orm import Session

from ofc_desk.core.jackpot import JackpotAward, JackpotResult, PairRows, jackpot_after_deal
from ofc_desk.core.results import HandResult, ResultTransfer
from ofc_desk.core.settlement import MAX_CHIPS
from ofc_desk.i18n import _, ngettext
from ofc_desk.i18n.formatting import number as said_number
from ofc_desk.i18n.formatting import signed_number
from ofc_desk.service import reading
from ofc_desk.service.errors import ActionRefused
from ofc_desk.service.events import EventKind, LedgerKind
from ofc_desk.service.outcome import LedgerEntry, Outcome, PoolMove
from ofc_desk.service.payloads import JackpotSeeded, RawPayload
from ofc_desk.storage.database import JACKPOT_LOCK, Database, hold_append_lock
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
def hold_pool(session: Session) -> int | None:
    """Make this transaction the only one changing the room's pool until it ends, and read the
    pool: the last change's `pool_after` (0 before the first); None in a schema from before the
    room's pool (a test recording as an older desk did)."""
    hold_append_lock(session, JACKPOT_LOCK)
    return _last_pool(session) if _has_pool(session) else None


def _has_pool(session: Session) -> bool:
    return inspect(session.connection()).has_table(JackpotMove.__tablename__)


def _last_pool(session: Session) -> int:
    last = session.scalar(select(JackpotMove.pool_after).order_by(JackpotMove.id.desc()).limit(1))
    return int(last or 0)


def record_moves(
    session: Session, session_id: int, event_id: int, pool: int, moves: Sequence[PoolMove]
) -> int:
    """The event's changes of the pool as rows, each with the pool after it; refused when one
    would take the pool below 0 (a void of a hand whose drop was paid out since)."""
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


def room_pool(database: Database) -> int:
    """The room's jackpot pool now (0 for a database from before the room's pool)."""
    with database.session() as session:
        return pool_in(session)


def pool_in(session: Session) -> int:
    """`room_pool` read in a session already open (the floor's reading of the room)."""
    return _last_pool(session) if _has_pool(session) else 0


# ---------------------------------------------------------------------- verify's part
MOVE_KEYS: Final = ("session_id", "event_id", "hand_number", "kind", "chips", "pool_after")


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


@dataclass
class RoomPoolCheck:
    """Every table's changes of the pool, walked in the order of their events: each settlement
    found the pool the events before it give, the pool never went below 0, and the stored rows
    are the ones the events give."""

    steps: list[PoolStep] = field(default_factory=list)

    def fault(self, session: Session) -> str | None:
        expected, pool = [], 0
        for step in sorted(self.steps, key=lambda step: step.event_id):
            if step.pool_before is not None and step.pool_before != pool:
                return ngettext(
                    "event {event} says the room's jackpot pool held {claimed} chip; the events before"
                    " it give {pool}",
                    "event {event} says the room's jackpot pool held {claimed} chips; the events before"
                    " it give {pool}",
                    step.pool_before,
                ).format(event=step.event_id, claimed=step.pool_before, pool=pool)
            for move in step.moves:
                pool += move.chips
                if pool < 0:
                    return _("event {event} takes the room's jackpot pool below 0 ({pool})").format(
                        event=step.event_id, pool=pool
                    )
                values = (step.session_id, step.event_id, move.hand_number, move.kind, move.chips, pool)
                expected.append(dict(zip(MOVE_KEYS, values, strict=True)))
        return _stored_moves_fault(session, expected)


def _stored_moves_fault(session: Session, expected: list[dict[str, Any]]) -> str | None:
    if not _has_pool(session):
        return None  # a database from before the room's pool: its drops are in its hands
    columns = [getattr(JackpotMove, key) for key in MOVE_KEYS]
    stored = session.execute(select(JackpotMove.id, *columns).order_by(JackpotMove.id)).all()
    for position, (row_id, *values) in enumerate(stored):
        fields = dict(zip(MOVE_KEYS, values, strict=True))
        if position >= len(expected):
            return _("jackpot pool row {row} ({kind} {chips}) is none the events give").format(
                row=row_id, kind=fields["kind"], chips=signed_number(fields["chips"])
            )
        if fields != expected[position]:
            return _("jackpot pool row {row} differs from the events").format(row=row_id)
    if len(stored) < len(expected):
        missing = expected[len(stored)]
        return _("the room's jackpot pool is missing the {kind} of event {event}").format(
            kind=missing["kind"], event=missing["event_id"]
        )
    return None


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


def pool_rows(session: Session, session_id: int | None = None) -> tuple[PoolRow, ...]:
    """The room's stored pool changes in the order they were made (one session's, or every
    table's); none in a database from before the room's pool."""
    return _stored_rows(session, session_id) if _has_pool(session) else ()


def _stored_rows(session: Session, session_id: int | None) -> tuple[PoolRow, ...]:
    columns = (JackpotMove.session_id, JackpotMove.event_id, Event.at, JackpotMove.hand_number)
    query = select(*columns, JackpotMove.kind, JackpotMove.chips, JackpotMove.pool_after).join(
        Event, Event.id == JackpotMove.event_id
    )
    if session_id is not None:
        query = query.where(JackpotMove.session_id == session_id)
    return tuple(PoolRow(*row) for row in session.execute(query.order_by(JackpotMove.id)).all())


def session_pool_rows(
    session: Session, session_id: int, steps: Sequence[PoolStep]
) -> tuple[tuple[PoolRow, ...], str | None]:
    """A session's stored pool changes, and a fault when they are not the ones its events give
    (the pool after each is the whole room's: `RoomPoolCheck` holds it)."""
    if not _has_pool(session):
        return (), None  # a database from before the room's pool: its drops are in its hands
    rows = _stored_rows(session, session_id)
    given = [
        (step.event_id, move.hand_number, move.kind, move.chips) for step in steps for move in step.moves
    ]
    if [(row.event_id, row.hand_number, row.kind, row.chips) for row in rows] == given:
        return rows, None
    fault = _("session {session}: its rows of the room's jackpot pool differ from its events")
    return rows, fault.format(session=session_id)
