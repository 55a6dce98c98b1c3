"""An existing OFC Desk database opened only to read (a report, `verify`, the floor): never created,
migrated or changed, and refused in words when it is none."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

from sqlalchemy import inspect
from sqlalchemy.engine import make_url

from ofc_desk.i18n import _
from ofc_desk.storage.connections import connect_read_only
from ofc_desk.storage.database import Database, default_url
from ofc_desk.storage.room_schema import schema_state


class NotADeskDatabase(Exception):
    """There is no OFC Desk database where a command that only reads was pointed."""


def open_existing(url: str | None, *, new_room: bool = False) -> Database:
    """An existing OFC Desk database, opened only to read (report, verify): never created,
    migrated or otherwise changed, so a mistyped path or someone else's file stays as it was.
    SQLAlchemy's errors (a driver not installed, a server not answering) pass through.
    `new_room` (the floor): a database that holds no tables at all yet is accepted too, a room
    whose schema is still to come (its owner's `ofc-desk db upgrade`, or on a SQLite file the first
    desk); `RoomNotReady` when this login may not read the room's tables."""
    url = url or default_url()
    parsed = make_url(url)
    read_only = False
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        path = Path(str(parsed.database))
        _check_sqlite_file(path, new_room=new_room)
        read_only = not (os.access(path, os.W_OK) and os.access(path.resolve().parent, os.W_OK))
    database = Database(url, migrate=False, read_only=read_only)
    try:
        ours = _holds_a_room(database, new_room=new_room)
    except BaseException:
        database.dispose()
        raise
    if not ours:
        database.dispose()
        raise NotADeskDatabase(
            _("{database} is not an OFC Desk database").format(
                database=parsed.render_as_string(hide_password=True)
            )
        )
    return database


def _holds_a_room(database: Database, *, new_room: bool) -> bool:
    if not new_room:
        return database.schema_revision() is not None
    with database.engine.connect() as connection:
        # Tables first: a migration committing between the two reads shows its tables and its
        # revision together to the second read, never tables without the revision.
        return not inspect(connection).get_table_names() or schema_state(connection).revision is not None


def _check_sqlite_file(path: Path, *, new_room: bool = False) -> None:
    """Refuse a missing file or one that is not ours (with `new_room`, a file with no tables at
    all is a room still to be made), looking without writing: a connection through SQLAlchemy
    would switch any SQLite file to WAL."""
    if not path.is_file():
        raise NotADeskDatabase(_("no database at {path}").format(path=path))
    if not os.access(path, os.R_OK):
        raise NotADeskDatabase(_("{path} cannot be read (permission denied)").format(path=path))
    refused = NotADeskDatabase(_("{path} is not an OFC Desk database").format(path=path))
    try:
        with closing(connect_read_only(path)) as connection:
            found = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    except sqlite3.DatabaseError:
        raise refused from None
    tables = {name for (name,) in found}
    if "alembic_version" not in tables and (tables or not new_room):
        raise refused
