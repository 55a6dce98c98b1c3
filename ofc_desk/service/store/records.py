"""Plain rows the faces read: open tables, hand history, the chip ledger and the audit log; and the
derived rows' columns as the service writes them and `verify` compares them (`HandFields`,
`TransferFields`, `LedgerFields`)."""

from dataclasses import dataclass
from typing import Any, TypedDict

from ofc_desk.core.results import HandResult
from ofc_desk.service.room.desk_holds import Holder
from ofc_desk.service.terms.events import LedgerKind
from ofc_desk.service.terms.outcome import RecordPart


@dataclass(frozen=True)
class OpenTable:
    """A table still open, as the table chooser offers it."""

    session_id: int
    table: str
    opened_at: str
    hands_settled: int
    last_event_at: str
    holder: Holder | None = None
    """The desk that holds it (where, by whom, since when); None when no desk does."""


@dataclass(frozen=True)
class HandRecord:
    """A settled hand, as the records read it."""

    session_id: int
    number: int
    button: str
    part: RecordPart | None
    """The game's own part of the record, read from the row by the game (`games.choose.record_part`:
    OFC's Fantasyland, `OfcRecord`); None in a game whose row holds nothing of its own."""
    result: HandResult
    result_text: str
    """The stored result: exactly the canonical JSON of `DealResult.to_json()` (or the Chinese
    deal's), the `ofc-desk score` output for this hand."""
    rake: dict[str, int]
    jackpot: int
    settled_at: str
    voided: bool
    void_reason: str | None
    dealers: tuple[str, ...] = ()
    """The dealers on duty while the hand was dealt, in order (two when one took over mid-hand)."""


@dataclass(frozen=True)
class LedgerRecord:
    """One chip movement: buy-in, rebuy, cash-out, hand result, rake, void reversal, correction."""

    event_id: int
    session_id: int
    hand_number: int | None
    player: str
    kind: LedgerKind | str
    """The kind of chip movement; for a row added by hand whose kind is none of the desk's, the word
    stored (a reader that does not verify shows it as it is)."""
    amount: int
    note: str


@dataclass(frozen=True)
class AuditRecord:
    """An event of the audit log, as the records read it."""

    event_id: int
    session_id: int
    seq: int
    kind: str
    actor: str
    at: str
    payload: dict[str, Any]
    prev_hash: str
    hash: str


class HandFields(TypedDict):
    """A settled hand's row (`persistence.hand_fields`), its maps and result as stored JSON text."""

    event_id: int
    number: int
    button: str
    fantasyland: str
    result: str
    rake: str
    jackpot: int
    settled_at: str


class TransferFields(TypedDict):
    """One transfer row of a settled hand (`persistence.transfer_fields`), in settlement order."""

    ordinal: int
    from_player: str
    to_player: str
    owed: int
    paid: int
    reason: str


class LedgerFields(TypedDict):
    """One chip-ledger row (`persistence.ledger_fields`); its kind is stored as the member's word."""

    event_id: int
    hand_number: int | None
    player: str
    kind: LedgerKind
    amount: int
    note: str
