"""`load_session_record`: build a `SessionRecord` from a verified session.

It reads through the session service's one reader for reports (`read_verified_session`: one
snapshot, the session verified as `ofc-desk verify` does, the hands and ledger as the rules give
them for the verified events) and, to find "the last session", the storage's session table. A
session that does not verify gives no record: `ReportNotVerified` names the fault.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from typing import Any, Final, cast

from sqlalchemy import select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import Session

from ofc_desk.core.games import DEFAULT_VARIANT
from ofc_desk.core.results import ResultSeat
from ofc_desk.core.settlement import SettleFrom, SettlementPolicy
from ofc_desk.reports.corrections import hand_corrections
from ofc_desk.reports.games import report_game
from ofc_desk.reports.games.base import ReportGame
from ofc_desk.reports.pool_record import award_shares, hand_jackpot, rules_at_settlement
from ofc_desk.reports.record import (
    Adjustment,
    AdjustmentKind,
    ChipTransaction,
    HandRecord,
    PlayerSummary,
    PoolMove,
    RowRecord,
    SeatResult,
    SessionRecord,
    chips_by_kind,
)
from ofc_desk.reports.rules_text import resolve_preset, rules_settings, table_options, with_migration_pins
from ofc_desk.reports.script import ScriptBuilder
from ofc_desk.service.audit.verified_read import (
    ReadInTheWalk,
    VerifiedSession,
    read_verified_session,
    read_verified_sessions,
)
from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.room.room_pool import MoveKind, PoolRow
from ofc_desk.service.store.records import AuditRecord, LedgerRecord
from ofc_desk.service.store.records import HandRecord as StoredHand
from ofc_desk.service.store.sentences import entry_sentence, event_sentence
from ofc_desk.service.table import actions
from ofc_desk.service.table.actions import SUPERVISED
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import (
    EntryPayload,
    EventPayload,
    HandCorrected,
    HandSettled,
    HandVoided,
    JackpotSeeded,
    RulesChanged,
    Undone,
)
from ofc_desk.service.terms.setup import PairUnit
from ofc_desk.storage.database import Database, failure_cause
from ofc_desk.storage.existing_room import NotADeskDatabase, open_existing
from ofc_desk.storage.models import TableSession

CHIP_KINDS = actions.CHIP_KINDS


class ReportSourceError(LookupError):
    """The database or session to report on cannot be read; the message says which and why."""


class ReportNotVerified(ReportSourceError):
    """The session does not verify: no report is printed; the message names the fault."""


def load_session_record(
    database_url_or_db: str | Database | None,
    table: str | None = None,
    session_id: int | None = None,
    room: str = "",
) -> SessionRecord:
    """Read one session (default: the last one, of `table` if given) as a `SessionRecord`."""
    database = open_to_read(database_url_or_db)
    try:
        chosen = _choose_session(database, table, session_id)
        return _record(chosen, partial(read_verified_session, database, chosen), room)
    except SQLAlchemyError as error:
        raise ReportSourceError(f"cannot read {_safe_url(database)}: {failure_cause(error)}") from None
    finally:
        if not isinstance(database_url_or_db, Database):
            database.dispose()


def load_session_records(
    database: Database, session_ids: Sequence[int], room: str = ""
) -> list[SessionRecord]:
    """The sessions' records, in their order, as `load_session_record` reads each, all in one
    snapshot with the room's accounts read once (`read_verified_sessions`): a shift report's."""
    verified = read_verified_sessions(database, session_ids)
    try:
        return [_record(chosen, partial(next, verified), room) for chosen in session_ids]
    except SQLAlchemyError as error:
        raise ReportSourceError(f"cannot read {_safe_url(database)}: {failure_cause(error)}") from None
    finally:
        verified.close()


def verify_and_load_records(
    database: Database, chosen: Callable[[Session], Sequence[int]], room: str = ""
) -> tuple[list[SessionRecord], set[int]]:
    """`verify_database` over the whole room, and the records of the sessions `chosen` picks in its
    snapshot, as `load_session_records` reads them, each session checked once, in the walk
    (`verified_read.ReadInTheWalk`): a shift report's; with them, the ids of the room's stored pool
    rows the events give, as the walk found them. Raises VerifyFault as `verify` does; when the
    room verifies, what `load_session_records` would raise for the first session that fails."""
    records: list[SessionRecord] = []
    failed: list[ReportSourceError] = []

    def take(session_id: int, read: Callable[[], VerifiedSession]) -> None:
        # A report's refusal waits for the walk's end: a fault `verify` names comes first.
        if failed:
            return
        try:
            records.append(_record(session_id, read, room))
        except ReportSourceError as error:
            failed.append(error)
        except SQLAlchemyError as error:
            failed.append(ReportSourceError(f"cannot read {_safe_url(database)}: {failure_cause(error)}"))

    reader = ReadInTheWalk(chosen, take)
    verify_database(database, along=reader)
    if failed:
        raise failed[0]
    return records, reader.pool_rows_given


def _record(chosen: int, read: Callable[[], VerifiedSession], room: str) -> SessionRecord:
    """Session `chosen`'s record from `read`, which verifies it in a snapshot."""
    try:
        # One snapshot, verified first: the figures are the ones the rules give for the
        # verified events, never a stored row that was not compared.
        verified = read()
    except VerifyFault as fault:
        raise ReportNotVerified(f"session {chosen} does not verify, so no report: {fault}") from None
    try:
        record = _build(chosen, verified, room)
        head = verified.room_head
        room_head = head.line() if head is not None else ""
        return replace(record, room_head=room_head, set_aside=verified.set_aside)
    except (ValueError, KeyError, TypeError) as error:
        # Only a row changed outside the desk reads so; verify names it.
        raise ReportSourceError(
            f"session {chosen}: stored rows cannot be read ({type(error).__name__}):"
            " run ofc-desk verify to find the altered row"
        ) from None


def _safe_url(database: Database) -> str:
    return make_url(database.url).render_as_string(hide_password=True)


def open_to_read(source: str | Database | None) -> Database:
    """The database, only to read: never created, migrated or changed by a report."""
    if isinstance(source, Database):
        return source
    try:
        return open_existing(source)
    except NotADeskDatabase as error:
        raise ReportSourceError(str(error)) from None
    except ImportError as error:
        raise ReportSourceError(f"cannot open the database: its driver is not installed ({error})") from None
    except ArgumentError:
        raise ReportSourceError("not a database URL") from None
    except SQLAlchemyError as error:
        raise ReportSourceError(f"cannot open the database: {failure_cause(error)}") from None


def _choose_session(database: Database, table: str | None, session_id: int | None) -> int:
    # The session and table asked for are not repeated: on the command line they are what a
    # person typed, which a refusal never repeats (it may be a PIN typed in the wrong place).
    if session_id is not None and not 0 < session_id < 2**63:  # beyond what any database stores
        raise ReportSourceError("no session with that number in this database")
    query = select(TableSession.id, TableSession.table_name)
    if session_id is not None:
        query = query.where(TableSession.id == session_id)
    if table is not None:
        query = query.where(TableSession.table_name == table)
    with database.session() as session:
        row = session.execute(query.order_by(TableSession.id.desc()).limit(1)).first()
    if row is not None:
        return int(row[0])
    if session_id is not None and table is not None:
        raise ReportSourceError("no session with that number at that table")
    if session_id is not None:
        raise ReportSourceError("no session with that number in this database")
    if table is not None:
        raise ReportSourceError("no session of that table in this database")
    raise ReportSourceError("this database holds no table session yet")


def parse_time(text: str | None) -> datetime | None:
    """Stored times are ISO 8601 UTC ending in Z."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass
class _Walk:
    """What one pass over the events collects, in event order."""

    hands_settled: int = 0
    supervisors: list[str] = field(default_factory=list)
    transactions: list[ChipTransaction] = field(default_factory=list)
    adjustments: list[Adjustment] = field(default_factory=list)
    closed_at: datetime | None = None


def _build(session_id: int, verified: VerifiedSession, room: str) -> SessionRecord:
    events, ledger, pool_rows = verified.events, verified.ledger, verified.pool_rows
    opening = events[0].payload
    rules = with_migration_pins(opening.get("rules", {}), events)
    shares = award_shares(rules, events)
    dealt_by = rules_at_settlement(rules, events)
    game = report_game(rules)
    walk = _walk_events(events, ledger)
    hands = tuple(
        replace(
            _hand_record(
                replace(stored, result=game.shown_result(stored.result, dealt_by.get(stored.number, rules))),
                parse_time(verified.hands_started_at.get(stored.number)),
                verified.stacks_after,
                game,
            ),
            dealers=stored.dealers,
            jackpot=hand_jackpot(stored.number, stored.result.jackpot, pool_rows, shares),
        )
        for stored in verified.hands
    )
    shifts = verified.dealer_shifts
    final_stacks = _fold_ledger(ledger)
    return SessionRecord(
        room=room,
        table=str(opening.get("table", "")),
        session_id=session_id,
        started_at=parse_time(events[0].at),
        ended_at=walk.closed_at,
        dealers=tuple(shift.dealer for shift in shifts),
        dealer_hands=shifts,
        supervisors=tuple(walk.supervisors),
        preset_name=resolve_preset(rules)[0],
        variant=str(rules.get("variant", DEFAULT_VARIANT)),
        rules=rules_settings(rules),
        unit=int(rules.get("unit", 1)),
        pair_units=tuple(
            PairUnit((str(p["players"][0]), str(p["players"][1])), int(p["unit"]))
            for p in rules.get("pair_units") or ()
        ),
        settlement_policy=str(rules.get("settlement", SettlementPolicy.WIN_CAP.value)),
        settle_from=str(rules.get("settle_from", SettleFrom.LEFT_OF_DEALER.value)),
        opening_button=str(opening.get("button", "")),
        players=_player_summaries(walk.transactions, hands, final_stacks, game),
        hands=hands,
        chip_transactions=tuple(walk.transactions),
        adjustments=tuple(walk.adjustments),
        pool_moves=_pool_moves(pool_rows, events),
        hand_corrections=hand_corrections(
            events,
            hands,
            partial(_corrected_seat, {stored.number: stored for stored in verified.hands}, game=game),
            parse_time,
            lambda number, result: game.shown_result(result, dealt_by.get(number, rules)),
        ),
        final_hash=events[-1].hash,
        event_count=events[-1].seq,
        replay_script=ScriptBuilder.from_events(events).script(),
        live_hand=verified.live_hand,
    )


def _pool_moves(rows: tuple[PoolRow, ...], events: list[AuditRecord]) -> tuple[PoolMove, ...]:
    by_id = {event.event_id: event for event in events}
    return tuple(
        PoolMove(
            by_id[row.event_id].seq,
            parse_time(row.at),
            MoveKind(row.kind),
            row.chips,
            row.hand_number,
            row.pool_after,
            cast(JackpotSeeded, by_id[row.event_id].payload)["supervisor"]
            if row.kind == MoveKind.SEED
            else "",
        )
        for row in rows
    )


def _walk_events(events: list[AuditRecord], ledger: list[LedgerRecord]) -> _Walk:
    walk = _Walk()
    ledger_by_event: dict[int, list[LedgerRecord]] = {}
    for entry in ledger:
        ledger_by_event.setdefault(entry.event_id, []).append(entry)
    reentries = _Reentries(walk.adjustments)
    for event in events:
        kind = EventKind(event.kind)
        at = parse_time(event.at)
        supervisor = str(event.payload.get("supervisor") or "")
        if kind is EventKind.RULES_PINNED:
            continue  # written by migration 0007, not by a dealer; its numbers are on the rules page
        if kind in SUPERVISED:
            _add_once(walk.supervisors, supervisor or event.actor)
        if kind is EventKind.HAND_SETTLED:
            walk.hands_settled = cast(HandSettled, event.payload)["number"]  # settled in their order
        elif kind is EventKind.SESSION_CLOSED:
            walk.closed_at = at
        if kind in CHIP_KINDS:
            for entry in ledger_by_event.get(event.event_id, ()):
                walk.transactions.append(
                    ChipTransaction(
                        seq=event.seq,
                        at=at,
                        kind=CHIP_KINDS[kind],
                        player=entry.player,
                        amount=entry.amount,
                        after_hand=walk.hands_settled,
                        actor=event.actor,
                        approver=supervisor,
                        note=_chip_note(kind, event, entry),
                    )
                )
        reentries.follow(event, kind)
        adjustment = _adjustment(event, kind, at, walk.hands_settled + 1)
        if adjustment is not None:
            walk.adjustments.append(replace(adjustment, after_hand=walk.hands_settled))
    return walk


def _chip_note(kind: EventKind, event: AuditRecord, entry: LedgerRecord) -> str:
    """The reason given; a corrected hand's moves say which hand (their ledger rows do)."""
    if kind is EventKind.HAND_CORRECTED:
        return entry.note
    return str(event.payload.get("reason") or entry.note)


def _add_once(names: list[str], name: str) -> None:
    if name and name not in names:
        names.append(name)


class _Reentries:
    """Fills in an undo's row of `adjustments` with what the player entered again in its place."""

    def __init__(self, adjustments: list[Adjustment]) -> None:
        self._adjustments = adjustments
        self._awaiting: dict[str, list[int]] = {}
        """Per player, the rows of their undos still waiting for the re-entry, latest last."""

    def follow(self, event: AuditRecord, kind: EventKind) -> None:
        if kind in (EventKind.PLACED, EventKind.REVEALED):
            self._note_reentry(cast(EntryPayload, event.payload))
        elif kind in (EventKind.HAND_STARTED, EventKind.HAND_SETTLED):
            self._awaiting.clear()
        elif kind is EventKind.UNDONE:
            # The caller appends the undo's row next: remember where it goes.
            taken = cast(Undone, event.payload)["undone"]
            self._awaiting.setdefault(taken["player"], []).append(len(self._adjustments))

    def _note_reentry(self, entry: EntryPayload) -> None:
        # Undos take back the latest entry first, so a player's re-entries answer them latest first.
        waiting = self._awaiting.get(entry["player"])
        if waiting:
            row = waiting.pop()
            self._adjustments[row] = replace(self._adjustments[row], reentered=entry_sentence(entry))


ADJUSTMENT_KINDS: Final[dict[EventKind, AdjustmentKind]] = {
    EventKind.UNDONE: AdjustmentKind.UNDO,
    EventKind.HAND_VOIDED: AdjustmentKind.VOID,
    EventKind.CHIPS_CORRECTED: AdjustmentKind.CORRECTION,
    EventKind.HAND_CORRECTED: AdjustmentKind.HAND_CORRECTION,
    EventKind.RULES_CHANGED: AdjustmentKind.RULES_CHANGE,
    EventKind.REQUEST_MADE: AdjustmentKind.REQUEST,
    EventKind.REQUEST_DECIDED: AdjustmentKind.REQUEST,
}
"""The kinds a supervisor reads before signing, each as the report's adjustments list it."""


def _adjustment(
    event: AuditRecord, kind: EventKind, at: datetime | None, live_hand: int
) -> Adjustment | None:
    """The event's row of the adjustments, said as its spec says it (the audit log's sentence)."""
    adjustment_kind = ADJUSTMENT_KINDS.get(kind)
    if adjustment_kind is None:
        return None
    payload = event.payload
    supervisor = str(payload.get("supervisor") or "")
    # A decision is the supervisor's own act; the other kinds were recorded at the desk.
    actor = (supervisor or event.actor) if kind is EventKind.REQUEST_DECIDED else event.actor
    described = event_sentence(kind, cast(EventPayload, payload), event.actor)
    hand = _hand_adjusted(kind, payload, live_hand)
    adjustment = Adjustment(event.seq, at, adjustment_kind, hand, described, actor, supervisor)
    if kind is EventKind.RULES_CHANGED:
        return replace(adjustment, settings=table_options(cast(RulesChanged, payload)["rules"]))
    return adjustment


def _hand_adjusted(kind: EventKind, payload: Mapping[str, Any], live_hand: int) -> int | None:
    """The hand an undo (the live one), a void or a correction changed; None for the floor's other
    work."""
    if kind is EventKind.UNDONE:
        return live_hand
    if kind is EventKind.HAND_CORRECTED:
        return cast(HandCorrected, payload)["hand"]
    return cast(HandVoided, payload)["hand"] if kind is EventKind.HAND_VOIDED else None


def _fold_ledger(ledger: Iterable[LedgerRecord]) -> dict[str, int]:
    stacks: dict[str, int] = {}
    for entry in ledger:
        stacks[entry.player] = stacks.get(entry.player, 0) + entry.amount
    return stacks


def _hand_record(
    stored: StoredHand,
    started_at: datetime | None,
    stacks_by_hand: Mapping[int, tuple[tuple[str, int], ...]],
    game: ReportGame,
) -> HandRecord:
    result = stored.result
    rake = {str(name): int(chips) for name, chips in stored.rake.items()}
    seats = tuple(_seat_result(seat, rake.get(seat.name, 0), stored, game=game) for seat in result.seats)
    rake_total = sum(rake.values())
    return HandRecord(
        number=stored.number,
        button=stored.button,
        seats=seats,
        transfers=tuple(game.transfer(transfer) for transfer in result.transfers),
        matchups=tuple(game.matchup(pair) for pair in result.pairs),
        started_at=started_at,
        settled_at=parse_time(stored.settled_at),
        rake=rake_total - stored.jackpot,
        jackpot_drop=stored.jackpot,
        voided=stored.voided,
        stacks_after=stacks_by_hand.get(stored.number, ()),
        whole_deal=result.payment is not None,
    )


NO_ROW = RowRecord((), "", 0)
"""A Chinese surrender's or declared special's row: no cards shown."""


def _corrected_seat(
    stored: Mapping[int, StoredHand], number: int, seat: ResultSeat, *, game: ReportGame
) -> SeatResult:
    """A corrected result's seat, read as the hand's own seats are (`hand_corrections`): with the
    stored hand it corrects, no rake (a correction takes none)."""
    return _seat_result(seat, 0, stored[number], game=game)


def _seat_result(seat: ResultSeat, rake: int, stored: StoredHand, *, game: ReportGame) -> SeatResult:
    # A row's own points: OFC's royalty, a Chinese row bonus (paid or not).
    front, middle, back = (
        (NO_ROW, NO_ROW, NO_ROW)
        if seat.rows is None
        else (
            RowRecord(
                tuple(str(card) for card in row.cards),
                row.hand,
                row.points if row.paid else 0,
                unpaid=0 if row.paid else row.points,
            )
            for row in seat.rows
        )
    )
    return SeatResult(
        name=seat.name,
        front=front,
        middle=middle,
        back=back,
        foul=seat.foul,
        row_points=seat.royalties,
        points=seat.points,
        stack_before=seat.stack_before,
        stack_after=seat.stack_after - rake,
        rake=rake,
        part=game.seat_part(seat, stored),
    )


def _player_summaries(
    transactions: list[ChipTransaction],
    hands: tuple[HandRecord, ...],
    final_stacks: dict[str, int],
    game: ReportGame,
) -> tuple[PlayerSummary, ...]:
    names: list[str] = []
    for t in transactions:
        _add_once(names, t.player)
    summaries = []
    for name in names:
        seats = [s for h in hands if not h.voided for s in h.seats if s.name == name]
        summary = PlayerSummary(
            name=name,
            chips_by_kind=chips_by_kind(t for t in transactions if t.player == name),
            final_stack=final_stacks.get(name, 0),
            hands_played=len(seats),
            fouls=sum(1 for s in seats if s.foul),
            row_points=sum(s.row_points for s in seats if not s.foul),
        )
        summaries.append(game.summary(summary, seats))
    return tuple(summaries)
