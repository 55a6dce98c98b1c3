"""The one reading of stored rows as the faces' records (`records`): an event as an `AuditRecord`,
a hand row's fields as a `HandRecord`, a chip-ledger row's as a `LedgerRecord`.

The desk's reads (`record_reads.read_hands`, `read_ledger`, `read_audit`) hand them the stored
rows; the reports' verified read (`verified_read`) the rows the rules give for the verified events
(`persistence.hand_fields`, `ledger_fields`: the same columns). Both read them here, so a record
says the same whichever road it came by.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Row, RowMapping

from ofc_desk.core.stored_results import read_hand_result
from ofc_desk.service.store.records import AuditRecord, HandFields, HandRecord, LedgerFields, LedgerRecord
from ofc_desk.service.table.games.choose import record_part
from ofc_desk.service.terms.events import LedgerKind
from ofc_desk.storage.models import Event


def audit_record(event: Event | Row[Any]) -> AuditRecord:
    """A stored event (its row, or its columns selected) as the audit log shows it."""
    return AuditRecord(
        event.id,
        event.session_id,
        event.seq,
        event.kind,
        event.actor,
        event.at,
        json.loads(event.payload),
        event.prev_hash,
        event.hash,
    )


def voided_hands(payloads: Iterable[Mapping[str, Any]]) -> dict[int, str]:
    """Each voided hand's number and the reason given, from the `hand_voided` events' payloads."""
    return {int(payload["hand"]): str(payload.get("reason") or "") for payload in payloads}


def hand_record(
    session_id: int, fields: HandFields | RowMapping, voids: Mapping[int, str], dealers: tuple[str, ...] = ()
) -> HandRecord:
    """A hand row's columns (`persistence.hand_fields`) as a record; `voids` as `voided_hands`."""
    number = fields["number"]
    result = read_hand_result(json.loads(fields["result"]))
    return HandRecord(
        session_id=session_id,
        number=number,
        button=fields["button"],
        part=record_part(result.game, json.loads(fields["fantasyland"])),
        result=result,
        result_text=fields["result"],
        rake=json.loads(fields["rake"]),
        jackpot=fields["jackpot"],
        settled_at=fields["settled_at"],
        voided=number in voids,
        void_reason=voids.get(number),
        dealers=dealers,
    )


def ledger_record(session_id: int, fields: LedgerFields | RowMapping) -> LedgerRecord:
    """A chip-ledger row's columns (`persistence.ledger_fields`) as a record; a kind none of the
    desk's (a row added by hand) stays the word stored."""
    return LedgerRecord(
        fields["event_id"],
        session_id,
        fields["hand_number"],
        fields["player"],
        LedgerKind.read(fields["kind"]) or fields["kind"],
        fields["amount"],
        fields["note"],
    )
