"""The shift report's figures: every table of the room over one shift, and the room's totals.

A shift is the half-open window [start, end) of UTC time (either end may be open), so shifts that
meet (18:00–02:00, 02:00–10:00) never count a movement twice. A table is in the shift when its
session was open at any moment of the window. Its figures are what happened inside the window,
from the session's stored record (`load_session_records`: as every report reads a session, the
shift's tables in one snapshot; `verified_shift_report`: that of `verify`'s walk of the room):

- hands dealt: hands settled in the window (a hand voided since still counts as dealt);
- drop: buy-ins (the opening ones and players who joined) and rebuys (`ChipTotal`'s `in_drop`);
- cash-outs, rake, jackpot drop and jackpot awards of the hands that stand (voided hands gave
  theirs back), and the seeds of the room's jackpot signed at the table;
- chips on the table at the end of the window, which no other column can give: all the chips
  brought to the table up to then, less cash-outs, rake and jackpot drop, plus jackpot awards, with
  the supervisors' corrections (the table-close report's sum, stopped at the end of the shift);
- voids, chip corrections and corrected hands (one correction each) recorded in the window;
- the session's audit fingerprint: the final hash of its chain as it stands when printed.

The room's jackpot pool is reconciled over the shift (`shift_pool`): the pool at the start, every
table's drops, seeds, awards and voids in the shift, and the pool at the end.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from functools import partial
from typing import IO

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from ofc_desk.i18n import _
from ofc_desk.reports.loader import load_session_records, verify_and_load_records
from ofc_desk.reports.record import (
    AdjustmentKind,
    ChipTotal,
    HandRecord,
    SessionRecord,
    chip_total,
    chips_by_kind,
)
from ofc_desk.reports.shift_pool import PoolReconciliation, reconcile_pool
from ofc_desk.service.room.room_chain import room_head
from ofc_desk.service.room.room_pool import MoveKind
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import TableSession


@dataclass(frozen=True)
class ShiftWindow:
    start: datetime | None = None
    end: datetime | None = None

    def __post_init__(self) -> None:
        if self.start is not None and self.end is not None and self.end <= self.start:
            end = f"{self.end:%Y-%m-%d %H:%M}"
            raise ValueError(_("the shift ends ({end}) before it starts").format(end=end))

    def holds(self, moment: datetime | None) -> bool:
        """Whether a recorded moment falls in the shift (an unknown time never does)."""
        return moment is not None and not self.is_after(moment) and not self.is_before(moment)

    def is_before(self, moment: datetime) -> bool:
        """The moment comes before the shift starts."""
        return self.start is not None and moment < self.start

    def is_after(self, moment: datetime) -> bool:
        """The moment comes at or after the shift's end."""
        return self.end is not None and moment >= self.end


def parse_shift_time(value: str) -> datetime:
    """'2026-11-23 18:00', '2026-11-23T18:00:00Z' or with an offset; a time without a zone is UTC.

    >>> parse_shift_time("2026-11-23 18:00")
    datetime.datetime(2026, 11, 23, 18, 0, tzinfo=datetime.timezone.utc)
    """
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(
            _("'{value}' is not a time: write it as 2026-11-23 18:00 (UTC)").format(value=value)
        ) from None
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class TableShift:
    """One table's figures over the shift; the CSV's columns are these fields, in this order."""

    table: str
    session: int
    opened_at: str
    closed_at: str
    hands_dealt: int
    hands_voided: int
    buy_ins: int
    rebuys: int
    drop: int
    cash_outs: int
    rake: int
    jackpot_drop: int
    jackpot_seeds: int
    jackpot_awards: int
    chips_on_table: int
    corrections: int
    correction_chips: int
    events: int
    fingerprint: str


@dataclass(frozen=True)
class ShiftReport:
    room: str
    window: ShiftWindow
    printed_at: datetime
    tables: tuple[TableShift, ...]
    room_head: str = ""
    """The newest event of the database when the report was read (`room_chain.RoomHead`)."""
    pool: PoolReconciliation | None = None
    """The room's jackpot pool over the shift."""

    def total(self, figure: str) -> int:
        return sum(int(getattr(table, figure)) for table in self.tables)


SUMMED = (
    "hands_dealt", "hands_voided", "buy_ins", "rebuys", "drop", "cash_outs", "rake", "jackpot_drop",
    "jackpot_seeds", "jackpot_awards", "chips_on_table", "corrections", "correction_chips", "events",
)  # fmt: skip
"""The figures that add up to the room's totals."""


def table_shift(record: SessionRecord, window: ShiftWindow) -> TableShift:
    in_window = [t for t in record.chip_transactions if window.holds(t.at)]
    up_to_end = [t for t in record.chip_transactions if t.at is not None and not window.is_after(t.at)]
    settled = [hand for hand in record.hands if window.holds(hand.settled_at)]
    # A hand voided after the shift ended still stood, its rake taken, when the shift ended.
    voided_by_end = {
        a.hand_number
        for a in record.adjustments
        if a.kind is AdjustmentKind.VOID and a.at is not None and not window.is_after(a.at)
    }
    standing_at_end = [
        hand
        for hand in record.hands
        if hand.settled_at is not None
        and not window.is_after(hand.settled_at)
        and hand.number not in voided_by_end
    ]
    moved = chips_by_kind(in_window)
    totals = {total: chip_total(moved, total) for total in ChipTotal}
    corrections = sum(1 for t in in_window if t.kind.said.total is ChipTotal.CORRECTIONS)
    # A corrected hand is one correction however many stacks it moved (docs/rules.md §12).
    corrections += sum(1 for c in record.hand_corrections if window.holds(c.at))
    closed = record.ended_at if record.ended_at and not window.is_after(record.ended_at) else None
    return TableShift(
        table=record.table,
        session=record.session_id,
        opened_at=_moment(record.started_at),
        closed_at=_moment(closed),
        hands_dealt=len(settled),
        hands_voided=sum(
            1 for a in record.adjustments if a.kind is AdjustmentKind.VOID and window.holds(a.at)
        ),
        buy_ins=totals[ChipTotal.BUY_INS],
        rebuys=totals[ChipTotal.REBUYS],
        drop=sum(amount for total, amount in totals.items() if total.said.in_drop),
        cash_outs=totals[ChipTotal.CASH_OUTS],
        rake=sum(hand.rake for hand in _standing(settled)),
        jackpot_drop=sum(hand.jackpot_drop for hand in _standing(settled)),
        jackpot_seeds=sum(
            move.chips for move in record.pool_moves if move.kind is MoveKind.SEED and window.holds(move.at)
        ),
        jackpot_awards=sum(hand.jackpot_award for hand in _standing(settled)),
        chips_on_table=sum(t.amount for t in up_to_end)
        - sum(hand.rake + hand.jackpot_drop - hand.jackpot_award for hand in standing_at_end),
        corrections=corrections,
        correction_chips=totals[ChipTotal.CORRECTIONS],
        events=record.event_count,
        fingerprint=record.final_hash,
    )


def _standing(hands: list[HandRecord]) -> Iterator[HandRecord]:
    return (hand for hand in hands if not hand.voided)


def _moment(moment: datetime | None) -> str:
    return "" if moment is None else moment.strftime("%Y-%m-%d %H:%M")


def shift_report(
    database: Database,
    window: ShiftWindow,
    room: str = "",
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> ShiftReport:
    """Every session open during the window, read and summed, tables in their natural order."""
    printed_at = now()
    with database.session() as session:
        chosen = _sessions_in(session, window)
    return _summed(database, window, room, printed_at, load_session_records(database, chosen, room))


def verified_shift_report(
    database: Database,
    window: ShiftWindow,
    room: str = "",
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> ShiftReport:
    """`verify` over the whole room, then `shift_report`, with the shift's tables read in the
    walk of `verify` (`loader.verify_and_load_records`): each table checked once, not by `verify`
    and then again by the report's read. Raises VerifyFault as `verify` does. What the floor's
    dialog and `ofc-desk report --shift` print."""
    printed_at = now()
    in_the_shift = partial(_sessions_in, window=window)
    records, pool_rows_given = verify_and_load_records(database, in_the_shift, room)
    return _summed(database, window, room, printed_at, records, pool_rows_given)


def _summed(
    database: Database,
    window: ShiftWindow,
    room: str,
    printed_at: datetime,
    records: list[SessionRecord],
    pool_rows_given: Collection[int] | None = None,
) -> ShiftReport:
    """The report of `records`; the pool's stored rows held to `pool_rows_given` (the ids the events
    give, as `verify` found them), else to this process's walk of the pool."""
    tables = tuple(table_shift(record, window) for record in records)
    # An open end is the moment of printing: a change recorded while the report is read is the
    # next report's, for the tables' changes and the stored pool alike.
    end = window.end or printed_at
    moves = [
        move
        for record in records
        for move in record.pool_moves
        if window.holds(move.at) and move.at is not None and move.at < end
    ]
    pool = reconcile_pool(database, moves, window.start, end, pool_rows_given)
    head = room_head(database)
    ordered = tuple(sorted(tables, key=_natural_order))
    return ShiftReport(room, window, printed_at, ordered, head.line() if head is not None else "", pool)


def _sessions_in(session: Session, window: ShiftWindow) -> list[int]:
    """Sessions opened before the shift ends and not closed before it starts."""
    query = select(TableSession.id)
    if window.end is not None:
        query = query.where(TableSession.opened_at < _stored(window.end))
    if window.start is not None:
        query = query.where(
            or_(TableSession.closed_at.is_(None), TableSession.closed_at >= _stored(window.start))
        )
    rows = session.execute(query.order_by(TableSession.id)).all()
    return [session_id for (session_id,) in rows]


def _stored(moment: datetime) -> str:
    """A moment as the rows store it (`audit.utc_now`), so the database can compare them."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _natural_order(table: TableShift) -> tuple[object, ...]:
    """T2 before T10: the digits in a table's name are read as numbers."""
    parts = re.split(r"(\d+)", table.table.casefold())
    return (tuple((0, int(p)) if p.isdigit() else (1, p) for p in parts if p), table.session)


# ---------------------------------------------------------------------- CSV
CSV_COLUMNS = tuple(f.name for f in fields(TableShift))
TOTAL_LABEL = "ROOM TOTAL"


def write_shift_csv(report: ShiftReport, out: IO[str]) -> None:
    """One row per table, then the room's totals (a spreadsheet's SUM gives the same)."""
    writer = csv.DictWriter(out, CSV_COLUMNS)
    writer.writeheader()
    for table in report.tables:
        writer.writerow({name: getattr(table, name) for name in CSV_COLUMNS})
    totals: dict[str, object] = {name: "" for name in CSV_COLUMNS}
    totals.update({name: report.total(name) for name in SUMMED})
    totals["table"] = TOTAL_LABEL
    writer.writerow(totals)
