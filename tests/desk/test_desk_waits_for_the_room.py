"""A desk started on a room whose schema waits for its owner's upgrade (issue 34): it says so and
tries again by itself, as the floor does, and goes on to the sign-in once the room is ready."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from ofc_desk.desk.dialogs.attempt import AttemptDialog
from ofc_desk.desk.shell import session
from ofc_desk.storage.database import Database
from ofc_desk.storage.room_schema import RoomNotReady, SchemaState
from tests.desk.conftest import make_desk

WAITING = "the schema is at revision 0009, older than this OFC Desk's: ask the room's owner to upgrade"


def test_a_desk_refused_for_an_old_schema_tries_again_by_itself_and_says_so(
    qtbot: QtBot, tmp_path: Path, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    migrate = Database.migrate
    upgraded = False
    refused: list[str] = []

    def migrate_once_upgraded(self: Database, revision: str = "head") -> SchemaState:
        if not upgraded:
            refused.append(revision)
            raise RoomNotReady(WAITING)
        return migrate(self, revision)

    monkeypatch.setattr(Database, "migrate", migrate_once_upgraded)
    monkeypatch.setattr(session, "ROOM_RETRY_SECONDS", 0.05)
    desk = make_desk(qtbot, tmp_path, database.url)
    desk.session.start()
    said = f"{WAITING} — this desk tries again every 0.05 seconds by itself"
    qtbot.waitUntil(lambda: desk.window.status_line.text() == said, timeout=10_000)
    # A few tries by itself, each refused and said again (counted, not waited out for a fixed time).
    qtbot.waitUntil(lambda: len(refused) >= 3, timeout=10_000)
    assert desk.session.database is None and desk.window.status_line.text() == said
    upgraded = True  # the owner ran `ofc-desk db upgrade`
    qtbot.waitUntil(lambda: isinstance(desk.session.active_dialog, AttemptDialog), timeout=10_000)
    assert desk.session.database is not None
    assert desk.window.status_line.text().startswith("Database: ")
    desk.window.close()
