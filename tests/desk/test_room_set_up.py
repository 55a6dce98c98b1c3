"""A room an upgrade left with no supervisor holding a key (accounts from before sign-offs): the
desk asks for its set-up before any sign-in, and the supervisor who does it is signed in."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from sqlalchemy import text

from ofc_desk.desk.dialogs.attempt import AttemptDialog
from ofc_desk.desk.dialogs.text import ChooseTableDialog
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.storage.database import Database
from ofc_desk.storage.pins import hash_pin
from tests.desk.conftest import make_desk
from tests.desk.test_start_and_resume import field


def test_an_upgraded_room_is_set_up_by_its_supervisor_at_the_desk(qtbot: QtBot, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    old = Database(url, migrate=False)
    old.migrate("0005")
    with old.engine.begin() as connection:
        for name, role, pin in (("Floor", "supervisor", "9999"), ("Dana", "dealer", "1234")):
            connection.execute(
                text("INSERT INTO users (name, role, pin_hash, created_at) VALUES (:n, :r, :h, :at)"),
                {"n": name, "r": role, "h": hash_pin(pin), "at": "2026-11-01T18:00:00.000000Z"},
            )
    old.dispose()
    desk = make_desk(qtbot, tmp_path, url)
    desk.session.start()
    qtbot.waitUntil(lambda: isinstance(desk.session.active_dialog, AttemptDialog))
    dialog = desk.session.active_dialog
    assert isinstance(dialog, AttemptDialog) and dialog.windowTitle() == "Room set-up after an upgrade"
    for name, typed in (("Supervisor", "Floor"), ("Current PIN", "9999"), ("New PIN", "9999")):
        qtbot.keyClicks(field(dialog, name), typed)
    qtbot.keyClick(field(dialog, "New PIN"), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "at least 8 characters" in dialog.refusal.text() and dialog.buttons.isEnabled())
    qtbot.keyClicks(field(dialog, "New PIN"), "9999")
    qtbot.keyClick(field(dialog, "New PIN"), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: isinstance(desk.session.active_dialog, ChooseTableDialog), timeout=10_000)
    assert desk.session.account is not None and desk.session.account.name == "Floor"
    database = desk.session.database
    assert database is not None
    verify_database(database)
    desk.window.close()
