"""The one road from the database to a printed report: a session read in one snapshot and
verified before anything of it is handed out.

Reports used to read a session's events, hands and ledger in three transactions and trust the
stored rows: a changed ledger amount was printed on a signed report, and a table recording
meanwhile could print figures ahead of their fingerprint. Here the session's events, its hash
chain, its link to the session before it, its signatures and every derived row are checked in
one snapshot (`verify.verify_one_session`), and the hands and ledger handed out are the ones the
rules give for the verified events, not the stored rows (which were compared with them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Row

from ofc_desk.core.stored_results import read_hand_result
from ofc_desk.i18n import _
from ofc_desk.service.events import EventKind, LedgerKind
from ofc_desk.service.records import AuditRecord, HandRecord, LedgerRecord
from ofc_desk.service.room_chain import RoomHead, room_head_in
from ofc_desk.service.room_pool import PoolRow, session_pool_rows
from ofc_desk.service.verify import VerifiedRows, VerifyFault, verify_one_session
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import TableSession


@dataclass(frozen=True)
class VerifiedSession:
    events: list[AuditRecord]
    hands: list[HandRecord]
    ledger: list[LedgerRecord]
    room_head: RoomHead | None
    """The newest event of the database in the same snapshot."""
    set_aside: tuple[str, ...] = ()
    """The session's stored rows `verify` set aside (`VerifiedRows.set_aside`): none is printed."""
    pool_rows: tuple[PoolRow, ...] = ()
    """The session's changes of the room's jackpot pool, the ones its events give, each with the
    room's pool after it."""


def read_verified_session(database: Database, session_id: int) -> VerifiedSession:
    """The session as verified; raises VerifyFault naming the first fault (nothing is handed out)."""
    with database.snapshot() as session:
        row = session.get(TableSession, session_id)
        if row is None:
            raise VerifyFault(_("there is no session {number}").format(number=session_id))
        verified = verify_one_session(session, row)
        pool_rows, fault = session_pool_rows(session, session_id, verified.pool_steps)
        if fault is not None:
            raise VerifyFault(fault)
        head = room_head_in(session)
    events = [_audit_record(session_id, event) for event in verified.events]
    hands, ledger = _hands(session_id, verified, events), _ledger(session_id, verified)
    return VerifiedSession(events, hands, ledger, head, verified.set_aside, pool_rows)


def _audit_record(session_id: int, event: Row[Any]) -> AuditRecord:
    return AuditRecord(
        event.id,
        session_id,
        event.seq,
        event.kind,
        event.actor,
        event.at,
        json.loads(event.payload),
        event.prev_hash,
        event.hash,
    )


def _hands(session_id: int, verified: VerifiedRows, events: list[AuditRecord]) -> list[HandRecord]:
    voids = {
        int(event.payload["hand"]): str(event.payload.get("reason") or "")
        for event in events
        if event.kind == EventKind.HAND_VOIDED
    }
    return [
        HandRecord(
            session_id=session_id,
            number=fields["number"],
            button=fields["button"],
            fantasyland=json.loads(fields["fantasyland"]),
            result=read_hand_result(json.loads(fields["result"])),
            result_text=fields["result"],
            rake=json.loads(fields["rake"]),
            jackpot=fields["jackpot"],
            settled_at=fields["settled_at"],
            voided=fields["number"] in voids,
            void_reason=voids.get(fields["number"]),
        )
        for fields in verified.hands
    ]


def _ledger(session_id: int, verified: VerifiedRows) -> list[LedgerRecord]:
    return [
        LedgerRecord(
            entry["event_id"],
            session_id,
            entry["hand_number"],
            entry["player"],
            LedgerKind(entry["kind"]),
            entry["amount"],
            entry["note"],
        )
        for entry in verified.ledger
    ]
