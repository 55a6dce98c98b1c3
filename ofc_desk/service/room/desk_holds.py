"""One table, one desk (issue 34): which desk holds an open table, as a lease row of `desk_holds`
(migration 0011), never as history.

A desk claims the table it opens or resumes (`claim`); a table held by a desk on another machine is
refused there with where, since when and by whom (`TableHeld`) until a floor supervisor takes it
over, which is an event of the table's chain (`taken_over`) whose append moves the hold in the
same transaction (`check_in_append`). Every event a desk appends checks, in its own transaction and
under the row's lock, that the desk still holds the table (`HELD_HERE`, a condition of the UPDATE
that moves the chain's head): of two desks acting at once on one table only the holder's action is
accepted. A desk closed normally lets its tables go (`release`); a desk that crashed keeps them
until it is started again on the same machine or a supervisor takes them over (docs/decisions.md,
"One table, one desk").
"""

from __future__ import annotations

import socket
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import bindparam, exists, select, update
from sqlalchemy.orm import Session

from ofc_desk.i18n import _, formatting
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.storage.append_locks import hold_append_lock
from ofc_desk.storage.audit import TIME_FORMAT, utc_now
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import DeskHold, TableSession

HOLD_LOCK = 0x0FC0DE5D
"""PostgreSQL advisory lock of one table's hold (its session's id in the low 32 bits): a claim, a
takeover and an append's check at that table one at a time."""


RELEASED = ""
"""The token of a hold its desk let go: the table is free."""

HELD_HERE = ~exists().where(
    DeskHold.session_id == TableSession.id,
    DeskHold.token != bindparam("desk_token"),
    DeskHold.token != RELEASED,
)
"""No other desk holds the session's table (the token of the desk appending: `desk_token`): a
condition of the UPDATE that moves the head, so that an event of a desk that lost its table is
never committed, in the statement that would commit its place in the chain."""


@dataclass(frozen=True)
class ThisDesk:
    """A desk process: its machine's name (what others are told) and a token of its own."""

    machine: str
    token: str

    @classmethod
    def here(cls) -> ThisDesk:
        # The name is said in a takeover's event, where a name is at most 40 characters.
        return cls((socket.gethostname() or "localhost")[:40], uuid.uuid4().hex)


@dataclass(frozen=True)
class Holder:
    """Who holds a table: the desk's machine, the dealer who claimed it there, and since when."""

    machine: str
    dealer: str
    since: str
    token: str = ""

    def words(self) -> str:
        """ "live at desk PIT-2 since 2026-12-06 09:41 UTC, dealer Ann" """
        return _("live at desk {desk} since {since}, dealer {dealer}").format(
            desk=self.machine, since=said_time(self.since), dealer=self.dealer
        )

    def is_elsewhere(self, desk: ThisDesk) -> bool:
        """Held by a desk on another machine: only a supervisor's takeover moves it here."""
        return self.machine != desk.machine and self.token != desk.token


class TableHeld(ActionRefused):
    """A table live at another desk, refused for resuming here without a supervisor's takeover."""

    def __init__(self, table: str, holder: Holder) -> None:
        said = _("{table} is {holder}: a floor supervisor takes it over to deal it here")
        super().__init__(said.format(table=table, holder=holder.words()))
        self.holder = holder


class TakenElsewhere(ActionRefused):
    """An action of a desk whose table another desk took over: refused, and the desk read-only."""

    def __init__(self, holder: Holder) -> None:
        super().__init__(taken_sentence(holder))
        self.holder = holder


def said_time(stored: str) -> str:
    """A stored UTC time to the minute, in the reader's language."""
    try:
        moment = datetime.strptime(stored, TIME_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        return stored
    return formatting.date_time(moment)


def taken_sentence(holder: Holder) -> str:
    """What a desk that lost its table says, at its next key and for every action refused."""
    return _(
        "this table was taken over: it is now {holder}. This desk is read-only: open another table"
    ).format(holder=holder.words())


def holders(database: Database) -> dict[int, Holder]:
    """Every held table's holder, by session."""
    with database.session() as session:
        rows = session.scalars(select(DeskHold).where(DeskHold.token != RELEASED)).all()
    return {row.session_id: _holder(row) for row in rows}


def claim(database: Database, session_id: int, table: str, desk: ThisDesk, dealer: str) -> None:
    """This desk holds the table from now on; refused (`TableHeld`) while a desk on another
    machine holds it. The same machine takes its own table back: a desk started again after a
    crash, whose earlier window then finds itself read-only."""
    with database.session() as session:
        row = _locked(session, session_id)
        if row is not None and row.token != RELEASED and _holder(row).is_elsewhere(desk):
            raise TableHeld(table, _holder(row))
        _hold(session, row, session_id, desk, dealer)
        session.commit()


def hold_new(session: Session, session_id: int, desk: ThisDesk, dealer: str) -> None:
    """A table opened at `desk`: held there from its opening's transaction."""
    _hold(session, None, session_id, desk, dealer)


def release(database: Database, session_id: int, desk: ThisDesk) -> None:
    """A desk closed normally: the table may be resumed anywhere without a supervisor. The row
    stays, without a token (the desk's role updates its hold, and deletes nothing)."""
    with database.session() as session:
        session.execute(
            update(DeskHold)
            .where(DeskHold.session_id == session_id, DeskHold.token == desk.token)
            .values(token=RELEASED)
        )
        session.commit()


def holder_now(database: Database, session_id: int, desk: ThisDesk) -> Holder | None:
    """The desk that took this table from `desk`, if one did; None while `desk` holds it (or
    nobody does)."""
    with database.session() as session:
        row = session.get(DeskHold, session_id)
    if row is None or not _another_desks(row.token, desk):
        return None
    return _holder(row)


def check_in_append(
    session: Session, session_id: int, desk: ThisDesk | None, kind: EventKind, payload: Mapping[str, object]
) -> None:
    """In an append's transaction, before its event is written: a takeover moves the hold to
    `desk`, and a hand-over at the desk names the new dealer on it (refused unless `desk` holds the
    table). Any other event takes the hold's lock, and the UPDATE that moves the head refuses it
    unless `desk` still holds the table (`HELD_HERE`; the append then says why, `taken_from`). A
    store of no desk (a replay, the floor's decisions, a test) appends as before: the chain's head
    decides."""
    if desk is None:
        return
    if not checked_at_the_head(kind):
        _move_in_append(session, session_id, desk, kind, str(payload["dealer"]))
    elif session.connection().dialect.name == "postgresql":
        # SQLite's lock is the write lock, which the event's INSERT takes: every commit before it
        # is seen by the head's UPDATE, with nothing read before.
        _lock_hold(session, session_id)


def checked_at_the_head(kind: EventKind) -> bool:
    """Whether an event of `kind` is held to its desk's hold by the head's UPDATE (`HELD_HERE`):
    every kind but the two that move the hold, which read it under its lock first."""
    return kind is not EventKind.TAKEN_OVER and kind is not EventKind.HANDED_OVER


def taken_from(
    database: Database, session_id: int, desk: ThisDesk | None, kind: EventKind
) -> TakenElsewhere | None:
    """Why an append of `desk` the database refused was refused, if another desk took the table
    (a takeover's own refusal is the chain's): read in a transaction of its own, once the append's
    is rolled back."""
    if desk is None or not checked_at_the_head(kind):
        return None
    holder = holder_now(database, session_id, desk)
    return None if holder is None else TakenElsewhere(holder)


def _move_in_append(session: Session, session_id: int, desk: ThisDesk, kind: EventKind, dealer: str) -> None:
    row = _locked(session, session_id)
    if kind is EventKind.TAKEN_OVER:
        _hold(session, row, session_id, desk, dealer)
    elif row is not None and _another_desks(row.token, desk):
        raise TakenElsewhere(_holder(row))
    elif row is not None:
        row.dealer = dealer


def _locked(session: Session, session_id: int) -> DeskHold | None:
    _lock_hold(session, session_id)
    return session.get(DeskHold, session_id, populate_existing=True)


def _lock_hold(session: Session, session_id: int) -> None:
    """The table's hold lock, for this transaction: its takeovers and appends one at a time."""
    hold_append_lock(session, HOLD_LOCK << 32 | session_id)


def _another_desks(token: str, desk: ThisDesk) -> bool:
    """Whether a hold's token is another desk's: neither `desk`'s own nor a hold let go."""
    return token not in (desk.token, RELEASED)


def _hold(session: Session, row: DeskHold | None, session_id: int, desk: ThisDesk, dealer: str) -> None:
    if row is None:
        session.add(
            DeskHold(
                session_id=session_id, desk=desk.machine, dealer=dealer, since=utc_now(), token=desk.token
            )
        )
        return
    if row.token != desk.token:  # since when this desk holds it
        row.desk, row.since, row.token = desk.machine, utc_now(), desk.token
    row.dealer = dealer
    session.flush()


def _holder(row: DeskHold) -> Holder:
    return Holder(row.desk, row.dealer, row.since, row.token)
