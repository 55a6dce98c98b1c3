"""One chain for the room: each session's opening links to the session before it, and the room's
head can be anchored in a file kept elsewhere.

A session's opening event takes, as its previous hash, the head of the session opened just before
it in the same database (the first session of a database takes the genesis hash). Deleting a
session, or cutting one short below the point the next one linked to, leaves a link to nothing,
which `verify` names. What the links cannot show (the tail of the newest session, or of any
session after the next one opened) is what the anchor file is for: `ofc-desk anchor` appends the
room's head (the newest event in the database) to a file on another disk, a share or paper, and
`verify --anchors FILE` proves every anchored event is still there with its hash
(docs/decisions.md, "One chain for the room").
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from ofc_desk.storage.audit import GENESIS_HASH
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event, TableSession

OPENING_LOCK = 0x0FC0DE5D
"""PostgreSQL advisory lock: openings one at a time, so each links to the one just before it."""
ANCHOR_FILE_VARIABLE = "OFC_DESK_ANCHOR_FILE"
"""Set at a desk, the room's head is appended to this file at every settlement."""
_ANCHOR_LINE = re.compile(r"^(\S+) session (\d+) event (\d+) ([0-9a-f]{64})(?: .*)?$")


def configured_anchor_file() -> Path | None:
    """The anchor file a desk appends to at every settlement, from OFC_DESK_ANCHOR_FILE."""
    configured = os.environ.get(ANCHOR_FILE_VARIABLE, "").strip()
    return Path(configured).expanduser() if configured else None


class AnchorFault(Exception):
    """An anchor file that cannot be read or written; `str()` says which line or why."""


@dataclass(frozen=True)
class RoomHead:
    """The newest event in the database: what an anchor line records."""

    at: str
    session_id: int
    seq: int
    hash: str
    table: str = ""

    def line(self) -> str:
        return f"{self.at} session {self.session_id} event {self.seq} {self.hash} {self.table}".rstrip()


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


def room_head(database: Database) -> RoomHead | None:
    """The room's head now; None for a database with no table yet."""
    with database.snapshot() as session:
        return room_head_in(session)


def room_head_in(session: Session) -> RoomHead | None:
    """The room's head as the caller's snapshot sees it."""
    row = session.execute(
        select(Event.at, Event.session_id, Event.seq, Event.hash, TableSession.table_name)
        .join(TableSession, TableSession.id == Event.session_id)
        .order_by(Event.id.desc())
        .limit(1)
    ).first()
    return None if row is None else RoomHead(*row)


def append_anchor(database: Database, path: Path) -> RoomHead | None:
    """Append the room's head to `path` (created if missing, never rewritten) and flush it to disk."""
    head = room_head(database)
    if head is None:
        return None
    try:
        with path.open("a", encoding="utf-8") as anchors:
            anchors.write(head.line() + "\n")
            anchors.flush()
            os.fsync(anchors.fileno())
    except OSError as error:
        raise AnchorFault(f"the anchor file {path} could not be written: {error.strerror or error}") from None
    return head


def read_anchors(path: Path) -> list[tuple[int, RoomHead]]:
    """Every anchor of the file with its line number; a line that is not an anchor is refused."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise AnchorFault(f"the anchor file {path} could not be read: {error}") from None
    anchors = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        match = _ANCHOR_LINE.match(line.strip())
        if match is None:
            raise AnchorFault(f"{path} line {number} is not an anchor: {line[:80]!r}")
        at, session_id, seq, digest = match.groups()
        anchors.append((number, RoomHead(at, int(session_id), int(seq), digest)))
    return anchors


def missing_anchor(session: Session, path: Path) -> str | None:
    """The first anchor of the file the database no longer holds, said in words; None if all hold."""
    for number, anchor in read_anchors(path):
        stored = session.scalar(
            select(Event.hash).where(Event.session_id == anchor.session_id, Event.seq == anchor.seq)
        )
        if stored != anchor.hash:
            what = "is no longer in the database" if stored is None else "has another hash now"
            return (
                f"anchor {path.name} line {number} ({anchor.at}): event {anchor.seq} of session"
                f" {anchor.session_id} {what}: the record was cut or rewritten after it was anchored"
            )
    return None


def broken_link(session: Session, row: TableSession, previous: TableSession | None, link: str) -> str | None:
    """Why a session's opening does not link to the session before it; None when it does. An
    opening with the genesis hash is a session from before the room chain (or the first)."""
    if link == GENESIS_HASH:
        return None
    if previous is None:
        return f"session {row.id}'s opening links to a session before it, and there is none: one was deleted"
    linked = session.scalar(
        select(Event.seq).where(
            Event.session_id == previous.id, Event.hash == link, Event.seq <= previous.head_seq
        )
    )
    if linked is None:
        return (
            f"session {row.id}'s opening links to event hash {link[:12]}…, which session {previous.id}"
            " no longer holds: a session was deleted or cut short"
        )
    return None
