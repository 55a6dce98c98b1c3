"""The history rows as the faces read them (the desk's records, the floor, reports, replays): the
open tables, each session's hands, ledger, audit log and corrected hands."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import RowMapping, func, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from ofc_desk.service.room import desk_holds
from ofc_desk.service.store.records import AuditRecord, HandRecord, LedgerRecord, OpenTable
from ofc_desk.service.store.row_reader import audit_record, hand_record, ledger_record, voided_hands
from ofc_desk.service.table.dealers import HAND_OVERS, DealerStep, hand_dealers
from ofc_desk.service.terms.events import EventKind
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, HandRow, LedgerRow, TableSession


def read_open_tables(database: Database) -> list[OpenTable]:
    with database.session() as session:
        hands = (
            select(HandRow.session_id, func.count(HandRow.id).label("settled"))
            .group_by(HandRow.session_id)
            .subquery()
        )
        last = (
            select(Event.session_id, func.max(Event.at).label("last_at"))
            .group_by(Event.session_id)
            .subquery()
        )
        rows = session.execute(
            select(TableSession, hands.c.settled, last.c.last_at)
            .outerjoin(hands, hands.c.session_id == TableSession.id)
            .outerjoin(last, last.c.session_id == TableSession.id)
            .where(TableSession.closed_at.is_(None))
        ).all()
    held = desk_holds.holders(database)
    tables = [
        OpenTable(
            row.id, row.table_name, row.opened_at, settled or 0, last_at or row.opened_at, held.get(row.id)
        )
        for row, settled, last_at in rows
    ]
    return sorted(tables, key=lambda table: (table.last_event_at, table.session_id), reverse=True)


def read_hands(database: Database, session_id: int) -> list[HandRecord]:
    voids = voided_hands(_payloads(database, session_id, EventKind.HAND_VOIDED))
    with database.session() as session:
        rows = _session_rows(session, HandRow, session_id, HandRow.number)
        events = select(Event.kind, Event.actor).where(Event.session_id == session_id).order_by(Event.seq)
        steps = session.execute(events).all()
        # Only a hand-over's (or takeover's) payload is read: the cards of every street are not needed here.
        hand_overs = session.scalars(
            events.with_only_columns(Event.payload).where(Event.kind.in_(HAND_OVERS))
        ).all()
    taken_over = (json.loads(payload)["dealer"] for payload in hand_overs)
    dealers = hand_dealers(
        DealerStep(kind, actor, next(taken_over) if kind in HAND_OVERS else "") for kind, actor in steps
    )
    return [hand_record(session_id, row, voids, dealers.get(row["number"], ())) for row in rows]


def read_ledger(database: Database, session_id: int) -> list[LedgerRecord]:
    with database.session() as session:
        rows = _session_rows(session, LedgerRow, session_id, LedgerRow.id)
    return [ledger_record(session_id, row) for row in rows]


def _session_rows(
    session: Session, model: type[HandRow | LedgerRow], session_id: int, order: InstrumentedAttribute[int]
) -> Sequence[RowMapping]:
    """Every column of one session's rows of `model` (the row readers take them by name), in `order`."""
    query = select(*model.__table__.columns).where(model.session_id == session_id).order_by(order)
    return session.execute(query).mappings().all()


def read_audit(database: Database, session_id: int | None = None) -> list[AuditRecord]:
    # Every column the record names, as rows: a table's day of events loaded as ORM objects took
    # four times as long to read (`persistence.FOLDED_COLUMNS`).
    query = select(*Event.__table__.columns).order_by(Event.session_id, Event.seq)
    if session_id is not None:
        query = query.where(Event.session_id == session_id)
    with database.session() as session:
        events = session.execute(query).all()
    return [audit_record(event) for event in events]


def read_corrections(database: Database, session_id: int) -> list[dict[str, Any]]:
    """The session's corrected hands (docs/rules.md §12), as their events store them, in order."""
    return _payloads(database, session_id, EventKind.HAND_CORRECTED)


def _payloads(database: Database, session_id: int, kind: EventKind) -> list[dict[str, Any]]:
    with database.session() as session:
        texts = session.scalars(
            select(Event.payload)
            .where(Event.session_id == session_id, Event.kind == kind.value)
            .order_by(Event.seq)
        ).all()
    return [json.loads(text) for text in texts]
