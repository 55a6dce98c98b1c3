"""`verify`'s comparison of one session's stored derived rows (hands, their transfers, the chip
ledger) with the rows its events give: a row missing or altered is a fault; a row beside those the
events give, all of which are there, is set aside and named."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select

from ofc_desk.i18n import _
from ofc_desk.service.audit.rescoring import result_differs
from ofc_desk.service.store.records import HandFields, LedgerFields, TransferFields
from ofc_desk.service.terms.errors import VerifyFault
from ofc_desk.storage.connections import SESSION_ID, driver_rows
from ofc_desk.storage.models import HandRow, LedgerRow, TransferRow

TRANSFER_KEYS = ("ordinal", "from_player", "to_player", "owed", "paid", "reason")
LEDGER_KEYS = ("event_id", "hand_number", "player", "kind", "amount", "note")
Rows = tuple[list[int], list[dict[str, object]]]
"""Stored rows: their ids, and their fields as the events would give them, in the same order."""


@dataclass
class ExpectedRows:
    """The derived rows a session's events give, as the fold finds them."""

    hands: list[HandFields]
    transfers: dict[int, list[TransferFields]]
    ledger: list[LedgerFields]


def check_hands(session: Any, session_id: int, stored: Sequence[Any], expected: ExpectedRows) -> list[str]:
    """Faults for a hand row missing or altered; a sentence for each row set aside: a hand row
    for a hand never settled, a transfer beside a hand's own."""
    by_number = {row.number: row for row in stored}
    transfers = _transfers_by_hand(session, session_id)
    set_aside = []
    for fields in expected.hands:
        number = fields["number"]
        row = by_number.pop(number, None)
        if row is None:
            said = _("hand {number} of session {session} is missing")
            raise VerifyFault(said.format(number=number, session=session_id))
        changed = [key for key, value in fields.items() if getattr(row, key) != value]
        if "result" in changed:
            raise VerifyFault(result_differs(number))
        if changed:
            said = _("hand {number}: stored {column} differs from the events")
            raise VerifyFault(said.format(number=number, column=changed[0]))
        extra = _beside(transfers.get(row.id, ([], [])), expected.transfers[number])
        if extra is None:
            raise VerifyFault(
                _("hand {number}: stored transfers differ from the rules").format(number=number)
            )
        said = _("session {session}: transfer row {row} of hand {number} is none the rules give")
        set_aside += [said.format(session=session_id, row=row_id, number=number) for row_id, _fields in extra]
    said = _("session {session}: hand row {row} (hand {number}) is of a hand never settled")
    set_aside += [
        said.format(session=session_id, row=row.id, number=number)
        for number, row in sorted(by_number.items())
    ]
    return set_aside


def _beside(
    stored: Rows, expected: Sequence[TransferFields] | Sequence[LedgerFields]
) -> list[tuple[int, dict[str, object]]] | None:
    """The stored rows (id and fields) beside the expected ones, when every expected row is stored,
    unaltered and in order among them; None when one is missing or altered."""
    ids, rows = stored
    if rows == expected:
        return []  # as it always is, unless someone added a row
    extra, position = [], 0
    for row_id, fields in zip(ids, rows, strict=True):
        if position < len(expected) and fields == expected[position]:
            position += 1
        else:
            extra.append((row_id, fields))
    return extra if position == len(expected) else None


# Each built once, the session's id bound at each read (`connections.SESSION_ID`).
_TRANSFERS_READ = (
    select(TransferRow.hand_id, TransferRow.id, *(getattr(TransferRow, key) for key in TRANSFER_KEYS))
    .join(HandRow, HandRow.id == TransferRow.hand_id)
    .where(HandRow.session_id == bindparam(SESSION_ID))
    .order_by(TransferRow.hand_id, TransferRow.ordinal)
)
_LEDGER_READ = (
    select(LedgerRow.id, *(getattr(LedgerRow, key) for key in LEDGER_KEYS))
    .where(LedgerRow.session_id == bindparam(SESSION_ID))
    .order_by(LedgerRow.id)
)


def _transfers_by_hand(session: Any, session_id: int) -> dict[int, Rows]:
    """Every transfer of the session's hands, in order, keyed by the hand row's id."""
    rows = driver_rows(session.connection(), _TRANSFERS_READ, {SESSION_ID: session_id})
    transfers: dict[int, Rows] = {}
    for hand_id, row_id, *values in rows:
        ids, fields = transfers.setdefault(hand_id, ([], []))
        ids.append(row_id)
        fields.append(dict(zip(TRANSFER_KEYS, values, strict=True)))
    return transfers


def check_ledger(session: Any, session_id: int, expected: list[LedgerFields]) -> list[str]:
    """Faults for a ledger row missing or altered; a sentence for each row set aside: one beside
    those the events give, all of which are there, unaltered and in order."""
    stored = driver_rows(session.connection(), _LEDGER_READ, {SESSION_ID: session_id})
    ids = [row_id for row_id, *_ in stored]
    rows = [dict(zip(LEDGER_KEYS, values, strict=True)) for _, *values in stored]
    extra = _beside((ids, rows), expected)
    if extra is not None:
        said = _(
            "session {session}: chip ledger row {row} ({player} {amount}, {kind}) is none the events give"
        )
        return [
            said.format(
                session=session_id,
                row=row_id,
                player=row["player"],
                amount=f"{row['amount']:+}",
                kind=row["kind"],
            )
            for row_id, row in extra
        ]
    for position, (row_id, fields) in enumerate(zip(ids, rows, strict=True)):
        if position < len(expected) and fields == expected[position]:
            continue
        if fields in expected[position + 1 : position + 2]:
            # This row belongs one further on: the one expected here is gone, not this one altered.
            raise VerifyFault(_missing_ledger_entry(session_id, expected[position]))
        raise VerifyFault(_("chip ledger row {row} differs from the events").format(row=row_id))
    raise VerifyFault(_missing_ledger_entry(session_id, expected[len(rows)]))


def _missing_ledger_entry(session_id: int, missing: LedgerFields) -> str:
    said = _("session {session}: the chip ledger is missing {player}'s {kind} of event {event}")
    return said.format(
        session=session_id, player=missing["player"], kind=missing["kind"], event=missing["event_id"]
    )
