"""A resumed table is shown before its entries' marks are checked (issue 39: ready to type), and an
entry another desk's login recorded is still said, once the check is done off the UI thread."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from ofc_desk.service import resume_table
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.storage.database import Database
from tests.desk.conftest import DEALER, Desk, make_desk

FOREIGN = "this table holds an entry another desk's login recorded"


def reopen(qtbot: QtBot, tmp_path: Path, database: Database, session_id: int) -> Desk:
    reopened = make_desk(qtbot, tmp_path, database.url)
    reopened.session.start_signed_in(DEALER, session_id)
    qtbot.waitUntil(lambda: reopened.session.controller.service is not None, timeout=10_000)
    return reopened


def test_an_entry_recorded_at_another_desk_s_login_is_said_after_the_table_shows(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk
) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    session_id = desk.snapshot.session_id
    desk.window.close()
    elsewhere = resume_table(database, session_id, DEALER[0])  # a bare name marks nothing
    rows = ["front", "front", "middle", "middle", "middle"]
    elsewhere.do(Place("Ann", ["2c", "3c", "4c", "5c", "6c"], rows))

    reopened = reopen(qtbot, tmp_path, database, session_id)
    qtbot.waitUntil(lambda: FOREIGN in reopened.refusal(), timeout=10_000)
    assert "call the floor" in reopened.refusal()
    reopened.window.close()


def test_a_table_whose_entries_are_all_marked_says_nothing(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk
) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    session_id = desk.snapshot.session_id
    desk.window.close()

    reopened = reopen(qtbot, tmp_path, database, session_id)
    qtbot.waitUntil(reopened.session.busy.isHidden, timeout=10_000)  # the check is done
    service = reopened.session.controller.service
    assert service is not None and service.entry_fault is None
    assert FOREIGN not in reopened.refusal()
    reopened.window.close()
