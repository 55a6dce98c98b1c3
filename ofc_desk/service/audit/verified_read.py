"""The one road from the database to a printed report: a session read in one snapshot and
verified before anything of it is handed out.

Reports used to read a session's events, hands and ledger in three transactions and trust the
stored rows: a changed ledger amount was printed on a signed report, and a table recording
meanwhile could print figures ahead of their fingerprint. Here the session's events, its hash
chain, its link to the session before it, its signatures and every derived row are checked in
one snapshot (`verify.verify_one_session`), and the hands and ledger handed out are the ones the
rules give for the verified events, not the stored rows (which were compared with them). A shift
report, which runs `verify` over the whole room, reads its tables in that walk (`ReadInTheWalk`),
so that each is checked once.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

from sqlalchemy.orm import Session

from ofc_desk.i18n import _
from ofc_desk.service.audit.verify import VerifyFault, read_accounts_in, verify_one_session
from ofc_desk.service.audit.verify_session import Stacks, VerifiedRows
from ofc_desk.service.room.room_chain import RoomHead, room_head_in
from ofc_desk.service.room.room_pool import PoolRow, session_pool_rows
from ofc_desk.service.store.records import AuditRecord, HandRecord, LedgerRecord
from ofc_desk.service.store.row_reader import audit_record, hand_record, ledger_record, voided_hands
from ofc_desk.service.table.dealers import DealerShift, dealer_shifts, dealer_step, hand_dealers
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import HandStarted
from ofc_desk.storage.accounts import AccountsChain
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
    dealer_shifts: tuple[DealerShift, ...] = ()
    """Every dealer of the session, each with the hands they dealt (`dealers.dealer_shifts`)."""
    stacks_after: Mapping[int, Stacks] = field(default_factory=dict)
    """Each settled hand's number and the stacks its settlement left (`VerifiedRows.stacks_after`)."""
    hands_started_at: Mapping[int, str] = field(default_factory=dict)
    """Each dealt hand's number and when it was dealt (its `hand_started` event's time)."""
    live_hand: int | None = None
    """The hand dealt and not settled when the events end (`VerifiedRows.live_hand`)."""


def read_verified_session(database: Database, session_id: int) -> VerifiedSession:
    """The session as verified; raises VerifyFault naming the first fault (nothing is handed out)."""
    with database.snapshot() as session:
        verified = _verified_in(session, session_id, None)
        return replace(verified, room_head=room_head_in(session))


def read_verified_sessions(
    database: Database, session_ids: Iterable[int]
) -> Generator[VerifiedSession, None, None]:
    """Each of the sessions as verified, in one snapshot: `read_verified_session`'s checks, with
    the room's accounts chain and newest event read once for all of them (read again for each,
    they were most of a shift report's queries). Raises VerifyFault naming the first fault, when
    the session that has it comes."""
    with database.snapshot() as session:
        accounts, head = read_accounts_in(session), room_head_in(session)
        for session_id in session_ids:
            yield replace(_verified_in(session, session_id, accounts), room_head=head)


class ReadInTheWalk:
    """Sessions read as `read_verified_sessions` reads them, from `verify_database`'s walk of the
    whole room (`verify.ReadAlong`): each is checked once, in the walk's snapshot, and handed to
    `take` with its number, as a call that reads it (raising VerifyFault as the other reads do).
    `chosen` picks the sessions in the walk's snapshot."""

    def __init__(
        self,
        chosen: Callable[[Session], Sequence[int]],
        take: Callable[[int, Callable[[], VerifiedSession]], None],
    ) -> None:
        self._chosen = chosen
        self._take = take
        self._head: RoomHead | None = None
        self.pool_rows_given: set[int] = set()
        """The ids of the room's stored pool rows the events give (`verify`'s pool walk)."""

    def wants(self, snapshot: Any) -> Sequence[int]:
        self._head = room_head_in(snapshot)
        return self._chosen(snapshot)

    def take(self, snapshot: Any, row: TableSession, verified: VerifiedRows) -> None:
        self._take(row.id, lambda: replace(_verified_from(snapshot, row.id, verified), room_head=self._head))

    def pool_given(self, row_ids: set[int]) -> None:
        self.pool_rows_given = row_ids


def _verified_in(session: Session, session_id: int, accounts: AccountsChain | None) -> VerifiedSession:
    """The session verified in `session`'s snapshot (`accounts`: the room's, if already read);
    its `room_head` is left for the caller."""
    row = session.get(TableSession, session_id)
    if row is None:
        raise VerifyFault(_("there is no session {number}").format(number=session_id))
    return _verified_from(session, session_id, verify_one_session(session, row, accounts))


def _verified_from(session: Session, session_id: int, verified: VerifiedRows) -> VerifiedSession:
    """The session's rows as verified, read out for a report; its `room_head` is left for the
    caller."""
    pool_rows, fault = session_pool_rows(session, session_id, verified.pool_steps)
    if fault is not None:
        raise VerifyFault(fault)
    events = [audit_record(event) for event in verified.events]
    steps = [dealer_step(event.kind, event.actor, event.payload) for event in events]
    hands = _hands(session_id, verified, events, hand_dealers(steps))
    ledger = [ledger_record(session_id, entry) for entry in verified.ledger]
    return VerifiedSession(
        events,
        hands,
        ledger,
        None,
        verified.set_aside,
        pool_rows,
        dealer_shifts(steps),
        verified.stacks_after,
        _hands_started_at(events),
        verified.live_hand,
    )


def _hands(
    session_id: int, verified: VerifiedRows, events: list[AuditRecord], dealers: Mapping[int, tuple[str, ...]]
) -> list[HandRecord]:
    voids = voided_hands(event.payload for event in events if event.kind == EventKind.HAND_VOIDED)
    return [hand_record(session_id, row, voids, dealers.get(row["number"], ())) for row in verified.hands]


def _hands_started_at(events: list[AuditRecord]) -> dict[int, str]:
    started = (event for event in events if event.kind == EventKind.HAND_STARTED)
    return {cast(HandStarted, event.payload)["number"]: event.at for event in started}
