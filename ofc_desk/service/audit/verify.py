"""`verify`: prove a database's history is whole and right, or name the first thing that is not.

The walk of the room: its schema revision, the accounts chain and the PIN checks, every session
in order (`verify_session`: the hash chain, the session row's recorded end of the chain, every
event folded through the rules again, every derived row compared with what the events give, chips
conserved), each session's link to the one before it, the room's jackpot pool, rows no session
accounts for, and the heads anchored in a file kept elsewhere.
"""

from __future__ import annotations

import gc
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import func, select

from ofc_desk.i18n import _, lazy_gettext, ngettext
from ofc_desk.service.audit.verify_session import VerifiedRows, check_session, raise_first
from ofc_desk.service.audit.verify_workers import (
    Room,
    SessionTally,
    Sizes,
    checked_sessions,
    room_sizes,
    tally,
)
from ofc_desk.service.room.room_chain import broken_link, missing_anchor, read_anchors
from ofc_desk.service.room.room_pool import RoomPoolCheck
from ofc_desk.service.store.signoffs import SignoffFault, read_accounts, sign_in_fault
from ofc_desk.service.terms.errors import VerifyFault as VerifyFault
from ofc_desk.storage.accounts import AccountsChain
from ofc_desk.storage.audit import GENESIS_HASH
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, HandRow, LedgerRow, TableSession, TransferRow
from ofc_desk.storage.schema_revision import revision_fault


@dataclass(frozen=True)
class SessionFingerprint:
    """Where one session's verified chain ends: the fingerprint printed on its report."""

    session_id: int
    table: str
    final_hash: str

    def line(self) -> str:
        return _("session {number} ({table}): {hash}").format(
            number=self.session_id, table=self.table, hash=self.final_hash
        )


@dataclass(frozen=True)
class VerifySummary:
    sessions: int
    events: int
    hands: int
    chips_on_tables: int
    fingerprints: tuple[SessionFingerprint, ...] = ()
    anchors: int | None = None
    """How many anchored heads were found in the database; None when no anchor file was given."""
    set_aside: tuple[str, ...] = ()
    """A sentence for each stored row `verify` set aside: a signature that does not hold, a
    derived row no event gives (`VerifiedRows.set_aside`)."""

    def line(self) -> str:
        anchored = ""
        if self.anchors is not None:
            anchors = ngettext("{count} anchor", "{count} anchors", self.anchors).format(count=self.anchors)
            anchored = _("; every anchored head present ({anchors})").format(anchors=anchors)
        aside = ""
        if self.set_aside:
            rows = len(self.set_aside)
            aside = ngettext(
                "; {count} row set aside (below)", "; {count} rows set aside (below)", rows
            ).format(count=rows)
        said = _(
            "verified: {sessions}, {events}, {hands}; hash chains intact, every hand re-scored and"
            " re-settled, chips conserved ({chips} on the tables){anchored}{aside}"
        )
        return said.format(
            sessions=ngettext("{count} session", "{count} sessions", self.sessions).format(
                count=self.sessions
            ),
            events=ngettext("{count} event", "{count} events", self.events).format(count=self.events),
            hands=ngettext("{count} hand", "{count} hands", self.hands).format(count=self.hands),
            chips=self.chips_on_tables,
            anchored=anchored,
            aside=aside,
        )


class ReadAlong(Protocol):
    """A reader of some sessions' checked rows (a shift report's tables): each session it `wants`
    is checked in the walk's own process and snapshot and handed to `take` as checked, in order,
    so that what it reads is checked once, as the room it is part of."""

    def wants(self, snapshot: Any) -> Collection[int]: ...

    def take(self, snapshot: Any, row: TableSession, verified: VerifiedRows) -> None: ...

    def pool_given(self, row_ids: set[int]) -> None:
        """The ids of the room's stored pool rows the events give, as the walk found them."""


def verify_database(
    database: Database,
    anchors: Path | None = None,
    *,
    fork: bool = True,
    workers: int | None = None,
    along: ReadAlong | None = None,
) -> VerifySummary:
    """Everything `verify` checks; with `anchors`, also that every head anchored in that file is
    still in the database (`room_chain`). Raises VerifyFault naming the first fault, AnchorFault
    when the anchor file cannot be read. With `fork`, where that is safe, a room's sessions are
    checked side by side in `workers` processes (by default one a core for a long enough room:
    `verify_workers`), or a long session's chain and signatures are checked and its hands
    re-scored in a second process (`side_check`, `rescoring`); the result is the same. `along`: a
    reader handed the rows of the sessions it wants, checked in this walk (`ReadAlong`)."""
    # One snapshot for everything: a table recording meanwhile must not look like tampering.
    with database.snapshot() as session, _collector_paused():
        # The revision decides what the next start runs over this history (`schema_revision`).
        raise_first((revision_fault(session.connection()),))
        sessions = session.scalars(select(TableSession).order_by(TableSession.id)).all()
        accounts = read_accounts_in(session)
        set_aside: list[str] = []
        raise_first((sign_in_fault(session, accounts, set_aside),))
        # Who held the role when they signed is the sign-offs' check (`signoffs`); the fold only
        # asks that an approver was ever a supervisor, so that a demotion breaks no history.
        supervisors = accounts.ever_supervisors()
        counted = (0, 0, 0)
        fingerprints = []
        links, pool = _RoomLinks(), RoomPoolCheck()
        room, sizes = Room(supervisors, accounts), room_sizes(session)
        if along is None:
            checked = checked_sessions(
                database, session, sessions, room, sizes.sessions, fork=fork, workers=workers
            )
        else:
            checked = _read_along(
                database, session, sessions, room, sizes.sessions, along, fork=fork, workers=workers
            )
        for row, verified in zip(sessions, checked, strict=True):
            links.check(session, row)
            pool.steps += verified.pool_steps
            counted = (
                counted[0] + verified.events,
                counted[1] + verified.hands,
                counted[2] + verified.chips,
            )
            fingerprints.append(SessionFingerprint(row.id, row.table_name, verified.final_hash))
            set_aside += verified.set_aside
        _refuse_orphans(session, sizes.unowned)
        pool_fault, rows_aside = pool.check(session)
        raise_first((pool_fault,))
        set_aside += rows_aside
        if along is not None:
            along.pool_given(pool.matched)
        anchored = None if anchors is None else _check_anchors(session, anchors)
    return VerifySummary(
        len(sessions),
        *counted,
        fingerprints=tuple(fingerprints),
        anchors=anchored,
        set_aside=tuple(set_aside),
    )


def _read_along(
    database: Database,
    snapshot: Any,
    rows: Sequence[TableSession],
    room: Room,
    sizes: Mapping[int, Sizes],
    along: ReadAlong,
    *,
    fork: bool,
    workers: int | None,
) -> Iterator[SessionTally]:
    """`checked_sessions`' tallies, in order, but for the sessions `along` wants: those are checked
    here and their rows handed to it."""
    wanted = set(along.wants(snapshot))
    others = checked_sessions(
        database,
        snapshot,
        [row for row in rows if row.id not in wanted],
        room,
        sizes,
        fork=fork,
        workers=workers,
    )
    for row in rows:
        if row.id not in wanted:
            yield next(others)
            continue
        verified = check_session(snapshot, row, room.supervisors, room.accounts, fork=fork)
        along.take(snapshot, row, verified)
        yield tally(verified)


def _check_anchors(session: Any, anchors: Path) -> int:
    fault = missing_anchor(session, anchors)
    if fault is not None:
        raise VerifyFault(fault)
    return len(read_anchors(anchors))


@dataclass
class _RoomLinks:
    """Each session's opening links to the session before it (`room_chain`); a session from
    before the room chain (genesis) may only come before the first linked one."""

    previous: TableSession | None = None
    linked_from: int | None = None

    def check(self, session: Any, row: TableSession) -> None:
        link = session.scalar(select(Event.prev_hash).where(Event.session_id == row.id, Event.seq == 1))
        fault = broken_link(session, row, self.previous, link)
        if fault is None and link == GENESIS_HASH and self.linked_from is not None:
            said = _(
                "session {number}'s opening links to no session, though session {linked} before it is linked:"
                " its chain was rewritten"
            )
            fault = said.format(number=row.id, linked=self.linked_from)
        if fault is not None:
            raise VerifyFault(fault)
        if link != GENESIS_HASH and self.linked_from is None:
            self.linked_from = row.id
        self.previous = row


def read_accounts_in(session: Any) -> AccountsChain:
    """The room's accounts chain as `verify` reads it; raises VerifyFault where it does not hold."""
    try:
        return read_accounts(session)
    except SignoffFault as fault:
        raise VerifyFault(str(fault)) from None


def verify_one_session(
    session: Any, row: TableSession, accounts: AccountsChain | None = None
) -> VerifiedRows:
    """Everything `verify` checks of one session and its link to the session before it, inside
    the caller's snapshot: a report reads its figures from what this returns. `accounts`: the
    room's accounts chain already read in this snapshot (`read_accounts_in`), else read here."""
    previous = session.scalar(
        select(TableSession).where(TableSession.id < row.id).order_by(TableSession.id.desc()).limit(1)
    )
    link = session.scalar(select(Event.prev_hash).where(Event.session_id == row.id, Event.seq == 1))
    if link is not None and (fault := broken_link(session, row, previous, link)):
        raise VerifyFault(fault)
    if accounts is None:
        accounts = read_accounts_in(session)
    with _collector_paused():
        return check_session(session, row, accounts.ever_supervisors(), accounts)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The fold makes hundreds of thousands of short-lived objects, none in a reference cycle: the
    cyclic collector's passes over them cost about a tenth of a long session's check."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _refuse_orphans(session: Any, unowned: Collection[type[Any]]) -> None:
    """Rows that no table session accounts for (added by hand, outside the service), of the kinds
    the sessions' counts found some of (`room_sizes`): the first is looked for by the database."""
    owned = (
        (Event, lazy_gettext("event {row} belongs to no table session")),
        (HandRow, lazy_gettext("hand row {row} belongs to no table session")),
        (LedgerRow, lazy_gettext("chip ledger row {row} belongs to no table session")),
    )
    for model, fault in owned:
        if model not in unowned:
            continue
        orphan = session.scalar(
            select(func.min(model.id)).where(model.session_id.not_in(select(TableSession.id)))
        )
        if orphan is not None:
            raise VerifyFault(str(fault).format(row=orphan))
    if TransferRow not in unowned:
        return
    orphan = session.scalar(
        select(func.min(TransferRow.id)).where(TransferRow.hand_id.not_in(select(HandRow.id)))
    )
    if orphan is not None:
        raise VerifyFault(_("transfer {row} belongs to no hand").format(row=orphan))
