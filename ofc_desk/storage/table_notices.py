"""What the floor hears: on PostgreSQL every stored event of a table is announced on one channel."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.orm import Session

EVENTS_CHANNEL = "ofc_desk_events"
"""PostgreSQL's NOTIFY channel: the session id of every table that records an event."""


def notify_table_changed(session: Session, session_id: int) -> None:
    """On PostgreSQL, tell listeners (the floor view) that table `session_id` recorded an event.
    NOTIFY is transactional: it is delivered when the event commits, and never if it rolls back.
    The payload is "schema:session": a channel is heard across the whole server, and two rooms
    (or a room and its training copy) may share one."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(
            text("SELECT pg_notify(:channel, current_schema() || ':' || :session_id)"),
            {"channel": EVENTS_CHANNEL, "session_id": str(session_id)},
        )
