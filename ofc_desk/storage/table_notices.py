"""What the floor hears: on PostgreSQL every stored event of a table is announced on one channel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, String, cast, func, literal

if TYPE_CHECKING:  # the floor's listing imports the channel without the ORM
    from sqlalchemy.orm import InstrumentedAttribute

EVENTS_CHANNEL = "ofc_desk_events"
"""PostgreSQL's NOTIFY channel: the session id of every table that records an event."""


def table_changed_notice(session_id: InstrumentedAttribute[int]) -> ColumnElement[Any]:
    """The PostgreSQL expression that tells listeners (the floor view) that table `session_id`
    recorded an event, for the statement that moves its head to return: one round trip fewer than
    a SELECT of its own. NOTIFY is transactional: it is delivered when the event commits, and never
    if it rolls back. The payload is "schema:session": a channel is heard across the whole server,
    and two rooms (or a room and its training copy) may share one."""
    said = func.current_schema().concat(literal(":")).concat(cast(session_id, String))
    return func.pg_notify(literal(EVENTS_CHANNEL), said)
