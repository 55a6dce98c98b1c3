"""The open tables' heads, and the stored hash of given events, read with SQLAlchemy Core alone:
what a floor's first listing checks its kept tables against (issue 39) before SQLAlchemy's ORM and
the models load (about a seventh of that listing's instructions). The tables are named here by the
few columns read; tests/storage/test_open_heads.py holds them to `storage.models`' own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from sqlalchemy import Connection, column, select, table

SESSIONS = table("table_sessions", column("id"), column("opened_at"), column("head_seq"), column("closed_at"))
EVENTS = table("events", column("session_id"), column("seq"), column("hash"))


class OpenHead(NamedTuple):
    """An open table's session, when it opened, and the seq of its last stored event."""

    id: int
    opened_at: str
    head_seq: int


def open_heads(connection: Connection) -> list[OpenHead]:
    """Every open table's head, in the sessions' order."""
    found = connection.execute(
        select(SESSIONS.c.id, SESSIONS.c.opened_at, SESSIONS.c.head_seq)
        .where(SESSIONS.c.closed_at.is_(None))
        .order_by(SESSIONS.c.id)
    )
    return [OpenHead(int(row.id), str(row.opened_at), int(row.head_seq)) for row in found]


def hashes_at(connection: Connection, events: Mapping[int, int]) -> dict[int, str]:
    """The stored hash of each session's event at the seq `events` gives it, by session (a session
    without that event is left out); one query. Asked as the sessions and the seqs each in a list
    (two IN), the rows of a session at another's seq left out here: a condition for each session
    (an OR of as many ANDs) was 48 bound values for SQLAlchemy to build and compile on 24 tables,
    about five times the instructions."""
    if not events:
        return {}
    found = connection.execute(
        select(EVENTS.c.session_id, EVENTS.c.seq, EVENTS.c.hash).where(
            EVENTS.c.session_id.in_(sorted(events)), EVENTS.c.seq.in_(sorted(set(events.values())))
        )
    )
    return {int(row.session_id): str(row.hash) for row in found if events.get(row.session_id) == row.seq}
