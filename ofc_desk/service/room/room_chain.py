"""One chain for the room: each session's opening links to the session before it, and the room's
head can be anchored in a file kept elsewhere.

A session's opening event takes, as its previous hash, the head of the session opened just before
it in the same database (the first session of a database takes the genesis hash). Deleting a
session, or cutting one short below the point the next one linked to, leaves a link to nothing,
which `verify` names. What the links cannot show (the tail of every open session, and of any
session after the next one opened; the accounts; the PIN checks) is what the anchor file is for:
`ofc-desk anchor` appends the room's head to a file on another disk, a share or paper (the newest
event, the head of every other open session, the accounts chain's head and the head of the chain
of PIN checks), a desk with an anchor file appends it at every event it records, and `verify
--anchors FILE` proves every anchored head is still there with its hash (docs/decisions.md, "One
chain for the room").
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from ofc_desk.i18n import _
from ofc_desk.storage.accounts import MIGRATION_MARKS
from ofc_desk.storage.accounts_room import anchors_accounts
from ofc_desk.storage.audit import GENESIS_HASH
from ofc_desk.storage.database import Database
from ofc_desk.storage.lockout import chain_head
from ofc_desk.storage.models import AccountEvent, Event, SignInAttempt, TableSession

OPENING_LOCK = 0x0FC0DE5D
"""PostgreSQL advisory lock: openings one at a time, so each links to the one just before it."""
ANCHOR_FILE_VARIABLE = "OFC_DESK_ANCHOR_FILE"
"""Set at a desk, the room's head is appended to this file at every event the desk records."""
_ANCHOR_TIME = re.compile(r"(\S+)")
_ANCHOR_ITEM = re.compile(r" (?:session (\d+) event (\d+)|accounts (\d+)|sign-ins (\d+)) ([0-9a-f]{64})")


def configured_anchor_file() -> Path | None:
    """The anchor file a desk appends to, from OFC_DESK_ANCHOR_FILE."""
    configured = os.environ.get(ANCHOR_FILE_VARIABLE, "").strip()
    return Path(configured).expanduser() if configured else None


class AnchorFault(Exception):
    """An anchor file that cannot be read or written; `str()` says which line or why."""


@dataclass(frozen=True)
class SessionHead:
    """A session's chain head: its last event's number and hash."""

    session_id: int
    seq: int
    hash: str

    def words(self) -> str:
        return f"session {self.session_id} event {self.seq} {self.hash}"


@dataclass(frozen=True)
class RoomHead:
    """What an anchor line records: the newest event in the database (`session_id` 0 when no table
    has any yet), the head of every other open session, the accounts chain's head and the head of
    the chain of PIN checks (an anchor written before migration 0008 has only the first)."""

    at: str
    session_id: int
    seq: int
    hash: str
    table: str = ""
    open_heads: tuple[SessionHead, ...] = ()
    accounts: tuple[int, str] | None = None
    sign_ins: tuple[int, str] | None = None

    def heads(self) -> tuple[SessionHead, ...]:
        newest = (SessionHead(self.session_id, self.seq, self.hash),) if self.session_id else ()
        return newest + self.open_heads

    def line(self) -> str:
        items = [self.at, *(head.words() for head in self.heads())]
        if self.accounts is not None:
            items.append(f"accounts {self.accounts[0]} {self.accounts[1]}")
        if self.sign_ins is not None:
            items.append(f"sign-ins {self.sign_ins[0]} {self.sign_ins[1]}")
        return " ".join([*items, self.table]).rstrip()


def lock_openings(session: Session) -> None:
    """On PostgreSQL, openings wait for each other (until commit), so that sessions are numbered
    and linked in the same order when two desks open at once. SQLite has one writer anyway."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": OPENING_LOCK})


def link_new_session(session: Session, new_session_id: int) -> str:
    """The previous hash of a new session's opening: the head of the session before it (under
    `lock_openings`, taken before the new session's row was added)."""
    before = session.scalar(
        select(TableSession.head_hash)
        .where(TableSession.id < new_session_id)
        .order_by(TableSession.id.desc())
        .limit(1)
    )
    return before or GENESIS_HASH


def room_head(database: Database, table: int | None = None) -> RoomHead | None:
    """The room's head now; None for a database with neither a table nor an account. With `table`
    (a desk anchoring what it records), that session's head stands for the tables'."""
    with database.snapshot() as session:
        return room_head_in(session, table)


def room_head_in(session: Session, table: int | None = None) -> RoomHead | None:
    """The room's head as the caller's snapshot sees it (`room_head`)."""
    latest = (
        select(Event.at, Event.session_id, Event.seq, Event.hash, TableSession.table_name)
        .join(TableSession, TableSession.id == Event.session_id)
        .order_by(Event.id.desc())
        .limit(1)
    )
    newest = session.execute(latest if table is None else latest.where(Event.session_id == table)).first()
    accounts = session.execute(
        select(AccountEvent.seq, AccountEvent.hash, AccountEvent.at)
        .order_by(AccountEvent.seq.desc())
        .limit(1)
    ).first()
    marks = [kind.value for kind in MIGRATION_MARKS]
    someone = select(AccountEvent.seq).where(AccountEvent.kind.not_in(marks)).limit(1)
    if newest is None and session.scalar(someone) is None:
        return None  # no table and no account yet: nothing anyone recorded
    if newest is not None:
        at, session_id, seq, digest, name = newest
    else:
        assert accounts is not None  # one of the two, or None was returned above
        at, session_id, seq, digest, name = accounts.at, 0, 0, "", ""
    others = () if table is not None else _open_heads(session, but=session_id)
    return RoomHead(
        at,
        session_id,
        seq,
        digest,
        name,
        others,
        (accounts.seq, accounts.hash) if accounts is not None else None,
        chain_head(session) if anchors_accounts(session) else None,
    )


def _open_heads(session: Session, but: int) -> tuple[SessionHead, ...]:
    rows = session.execute(
        select(TableSession.id, TableSession.head_seq, TableSession.head_hash)
        .where(TableSession.closed_at.is_(None), TableSession.head_seq > 0, TableSession.id != but)
        .order_by(TableSession.id)
    ).all()
    return tuple(SessionHead(*row) for row in rows)


def append_anchor(database: Database, path: Path, table: int | None = None) -> RoomHead | None:
    """Append the room's head (`room_head`) to `path` (created if missing, never rewritten) and flush
    it to disk."""
    head = room_head(database, table)
    if head is None:
        return None
    try:
        with path.open("a", encoding="utf-8") as anchors:
            anchors.write(head.line() + "\n")
            anchors.flush()
            os.fsync(anchors.fileno())
    except OSError as error:
        said = _("the anchor file {path} could not be written: {problem}")
        raise AnchorFault(said.format(path=path, problem=error.strerror or error)) from None
    return head


def anchor_if_configured(database: Database, what: str) -> str | None:
    """With OFC_DESK_ANCHOR_FILE set, anchor the room's head now; why it could not be, else None
    (`what` was recorded all the same and the sentence says so)."""
    path = configured_anchor_file()
    if path is None:
        return None
    try:
        append_anchor(database, path)
    except AnchorFault as fault:
        return _("{done}, but not anchored: {fault}").format(done=what, fault=fault)
    return None


def read_anchors(path: Path) -> list[tuple[int, RoomHead]]:
    """Every anchor of the file with its line number; a line that is not an anchor is refused."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise AnchorFault(
            _("the anchor file {path} could not be read: {problem}").format(path=path, problem=error)
        ) from None
    anchors = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        anchor = _read_anchor(line.strip())
        if anchor is None:
            said = _("{path} line {number} is not an anchor: {line}")
            raise AnchorFault(said.format(path=path, number=number, line=repr(line[:80])))
        anchors.append((number, anchor))
    return anchors


def _read_anchor(line: str) -> RoomHead | None:
    """An anchor line's heads (the rest of the line, a table's name, is for people)."""
    start = _ANCHOR_TIME.match(line)
    if start is None:
        return None
    heads: list[SessionHead] = []
    accounts = sign_ins = None
    position = start.end()
    while (item := _ANCHOR_ITEM.match(line, position)) is not None:
        session_id, seq, accounts_seq, sign_in_id, digest = item.groups()
        if session_id is not None:
            heads.append(SessionHead(int(session_id), int(seq), digest))
        elif accounts_seq is not None:
            accounts = (int(accounts_seq), digest)
        else:
            sign_ins = (int(sign_in_id), digest)
        position = item.end()
    if not heads and accounts is None:
        return None
    newest = heads[0] if heads else SessionHead(0, 0, "")
    return RoomHead(
        start.group(1), newest.session_id, newest.seq, newest.hash, "", tuple(heads[1:]), accounts, sign_ins
    )


def missing_anchor(session: Session, path: Path) -> str | None:
    """The first anchored head the database no longer holds (in the file's order), said in words;
    None if all hold. Each table, the accounts and the PIN checks are read once, whatever the
    number of lines (a desk writes one at every event)."""
    anchors = read_anchors(path)
    events = _stored_hashes(
        session, {head.session_id for _line, anchor in anchors for head in anchor.heads()}
    )
    accounts = {seq: digest for seq, digest in session.execute(select(AccountEvent.seq, AccountEvent.hash))}
    attempts = _anchored_attempts(
        session, {anchor.sign_ins[0] for _line, anchor in anchors if anchor.sign_ins}
    )
    for number, anchor in anchors:
        where = _("anchor {file} line {number} ({at})").format(file=path.name, number=number, at=anchor.at)
        for head in anchor.heads():
            stored = events.get((head.session_id, head.seq))
            if stored != head.hash:
                if stored is None:
                    said = _(
                        "{where}: event {seq} of session {session} is no longer in the database: the record"
                        " was cut or rewritten after it was anchored"
                    )
                else:
                    said = _(
                        "{where}: event {seq} of session {session} has another hash now: the record was cut"
                        " or rewritten after it was anchored"
                    )
                return said.format(where=where, seq=head.seq, session=head.session_id)
        if anchor.accounts is not None and accounts.get(anchor.accounts[0]) != anchor.accounts[1]:
            said = _(
                "{where}: account event {seq} is no longer in the database as it was: the accounts were cut"
                " or rewritten after they were anchored"
            )
            return said.format(where=where, seq=anchor.accounts[0])
        if anchor.sign_ins is not None and attempts.get(anchor.sign_ins[0]) != anchor.sign_ins[1]:
            said = _(
                "{where}: sign-in attempt {attempt} is no longer in the database as it was: the record of"
                " PIN checks was cut or rewritten after it was anchored"
            )
            return said.format(where=where, attempt=anchor.sign_ins[0])
    return None


def _stored_hashes(session: Session, session_ids: set[int]) -> dict[tuple[int, int], str]:
    """Every event's hash of these sessions, by (session, number)."""
    stored: dict[tuple[int, int], str] = {}
    for session_id in sorted(session_ids):
        rows = session.execute(select(Event.seq, Event.hash).where(Event.session_id == session_id))
        stored.update(((session_id, seq), digest) for seq, digest in rows)
    return stored


def _anchored_attempts(session: Session, ids: set[int]) -> dict[int, str]:
    """The hashes of the anchored PIN checks (none on a copy of a schema from before their chain)."""
    if not ids or not anchors_accounts(session):
        return {}
    ordered = sorted(ids)
    found: dict[int, str] = {}
    for start in range(0, len(ordered), 500):
        chunk = ordered[start : start + 500]
        rows = session.execute(
            select(SignInAttempt.id, SignInAttempt.hash).where(SignInAttempt.id.in_(chunk))
        )
        found.update({attempt: digest for attempt, digest in rows})
    return found


def broken_link(session: Session, row: TableSession, previous: TableSession | None, link: str) -> str | None:
    """Why a session's opening does not link to the session before it; None when it does. An
    opening with the genesis hash is a session from before the room chain (or the first)."""
    if link == GENESIS_HASH:
        return None
    if previous is None:
        said = _(
            "session {number}'s opening links to a session before it, and there is none: one was deleted"
        )
        return said.format(number=row.id)
    linked = session.scalar(
        select(Event.seq).where(
            Event.session_id == previous.id, Event.hash == link, Event.seq <= previous.head_seq
        )
    )
    if linked is None:
        said = _(
            "session {number}'s opening links to event hash {hash}…, which session {previous} no longer"
            " holds: a session was deleted or cut short"
        )
        return said.format(number=row.id, hash=link[:12], previous=previous.id)
    return None
