"""Start-up as a dealer sees it: sign in, resume the open table mid-hand, the demo table."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QLineEdit, QWidget
from pytestqt.qtbot import QtBot
from sqlalchemy import text as sql

from ofc_desk.cli.demo import DEMO_DEALER, build_demo
from ofc_desk.cli.main import main
from ofc_desk.desk.actions import Command
from ofc_desk.desk.dialogs.attempt import AttemptDialog
from ofc_desk.desk.dialogs.text import ChooseTableDialog
from ofc_desk.desk.entry.drafts import DraftStore
from ofc_desk.desk.shell import session as session_module
from ofc_desk.desk.shell.smoke_test import SmokeTest
from ofc_desk.service import list_open_tables, resume_table
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.service.table.games.ofc.view_parts import OfcTableView
from ofc_desk.storage.database import Database
from ofc_desk.storage.room_schema import newest_revision
from ofc_desk.storage.users import Role, list_users
from tests.desk.conftest import DEALER, Desk, make_desk, street_keys
from tests.helpers.desk_scripts import demo_table
from tests.helpers.forked_scripts import forked_script_run


def field(dialog: QWidget, name: str) -> QLineEdit:
    for line in dialog.findChildren(QLineEdit):
        if line.accessibleName() == name:
            return line
    raise LookupError(name)


def sign_in_through_the_dialog(desk: Desk) -> None:
    desk.qtbot.waitUntil(lambda: isinstance(desk.session.active_dialog, AttemptDialog))
    dialog = desk.session.active_dialog
    assert isinstance(dialog, AttemptDialog)
    desk.qtbot.keyClicks(field(dialog, "Dealer"), DEALER[0])
    desk.qtbot.keyClicks(field(dialog, "PIN"), "wrong")
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    desk.qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    desk.qtbot.waitUntil(lambda: "wrong name or PIN" in dialog.refusal.text())
    assert dialog.isVisible()
    field(dialog, "PIN").clear()
    desk.qtbot.keyClicks(field(dialog, "PIN"), DEALER[1])
    desk.qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    desk.qtbot.waitUntil(lambda: desk.session.account is not None)
    assert desk.session.account is not None and desk.session.account.name == DEALER[0]


@pytest.mark.durable
def test_the_desk_reopened_on_the_same_database_resumes_mid_hand(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk
) -> None:
    desk.open_table(("Ann", "Bob", "Cy"), button="Cy")
    desk.street(street_keys("Ks Kd Kc 7h 7d", "b"))
    desk.street("as m ac m jd m th m 2d m")
    before = desk.snapshot
    desk.window.close()

    reopened = make_desk(qtbot, tmp_path, database.url)
    reopened.session.start()
    sign_in_through_the_dialog(reopened)
    qtbot.waitUntil(lambda: isinstance(reopened.session.active_dialog, ChooseTableDialog))
    chooser = reopened.session.active_dialog
    assert isinstance(chooser, ChooseTableDialog)
    assert chooser.tables.count() == 1 and "Test table" in chooser.tables.item(0).text()
    chooser.accept()
    qtbot.waitUntil(lambda: reopened.session.controller.service is not None, timeout=10_000)
    after = reopened.snapshot
    assert after.hand_number == before.hand_number
    assert after.to_act == before.to_act and after.to_act is not None and after.to_act.player == "Cy"
    assert reopened.face("Bob").rows[1].cards == ("As", "Ac", "Jd", "Th", "2d")
    reopened.street(street_keys("2h 3c 4s 5d 6c", "b"))
    assert reopened.refusal() == ""
    assert reopened.snapshot.to_act is not None and reopened.snapshot.to_act.player == "Ann"
    reopened.window.close()


def reopen_signed_in(qtbot: QtBot, tmp_path: Path, database: Database, session_id: int) -> Desk:
    """A new desk on the same database and settings file, the dealer signed in, the table resumed."""
    reopened = make_desk(qtbot, tmp_path, database.url)
    reopened.session.start_signed_in(DEALER, session_id)
    qtbot.waitUntil(lambda: reopened.session.controller.service is not None, timeout=10_000)
    return reopened


def staged_labels(desk: Desk) -> list[str]:
    return [placement.label for placement in desk.session.controller.staged]


@pytest.mark.durable
def test_cards_typed_but_not_confirmed_are_staged_again_when_the_table_is_resumed(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk
) -> None:
    desk.open_table(("Ann", "Bob", "Cy"), button="Cy")
    desk.street(street_keys("Ks Kd Kc 7h 7d", "b"))
    desk.type("as m ac m jd m th")  # Bob's street: three staged, a fourth waiting for its row
    assert staged_labels(desk) == ["As", "Ac", "Jd"]
    session_id = desk.snapshot.session_id
    desk.window.close()

    reopened = reopen_signed_in(qtbot, tmp_path, database, session_id)
    assert reopened.snapshot.to_act is not None and reopened.snapshot.to_act.player == "Bob"
    assert staged_labels(reopened) == ["As", "Ac", "Jd"]
    assert reopened.window.entry.staged.text().startswith("Typed before the desk closed, not yet confirmed")
    reopened.screenshot("draft-staged-again")
    # Nothing was recorded for Bob: the draft is not a record.
    assert reopened.face("Bob").rows[1].cards == ()
    reopened.street("th m 2d m")
    assert reopened.refusal() == ""
    assert reopened.face("Bob").rows[1].cards == ("As", "Ac", "Jd", "Th", "2d")
    assert reopened.window.entry.staged.text() == ""
    reopened.window.close()

    # Confirmed, the draft is gone: a third desk stages nothing.
    third = reopen_signed_in(qtbot, tmp_path, database, session_id)
    assert staged_labels(third) == [] and third.snapshot.to_act.player == "Cy"  # type: ignore[union-attr]
    third.window.close()


def test_a_draft_is_dropped_when_the_table_moved_on_without_it(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk
) -> None:
    desk.open_table(("Ann", "Bob"), button="Bob")
    desk.type("ks b kd b")
    assert staged_labels(desk) == ["Ks", "Kd"]
    session_id = desk.snapshot.session_id
    desk.window.close()
    # The closed desk no longer reads the table (it would save its staged cards again as a draft).
    assert not desk.session.controller.floor_requests.timer.isActive()
    # Another desk entered both first streets in the meantime: it is Ann's turn again, a later street.
    elsewhere = resume_table(database, session_id, DEALER[0])
    elsewhere.do(
        Place("Ann", ["2c", "3c", "4c", "5c", "6c"], ["front", "front", "middle", "middle", "middle"])
    )
    elsewhere.do(Place("Bob", ["2d", "3d", "4d", "5d", "6d"], ["back"] * 5))

    reopened = reopen_signed_in(qtbot, tmp_path, database, session_id)
    assert reopened.snapshot.to_act is not None and reopened.snapshot.to_act.player == "Ann"
    assert staged_labels(reopened) == []
    assert DraftStore(reopened.session.store.settings).load(session_id) is None
    reopened.window.close()


def test_the_demo_table_opens_mid_session_with_fantasyland(qtbot: QtBot, tmp_path: Path) -> None:
    database = Database(f"sqlite:///{tmp_path / 'demo.db'}")
    session_id = build_demo(database)
    desk = make_desk(qtbot, tmp_path, database.url)
    desk.session.start_signed_in(DEMO_DEALER, session_id)
    qtbot.waitUntil(lambda: desk.session.controller.service is not None, timeout=10_000)
    snapshot = desk.snapshot
    assert snapshot.hand_number == 3 and OfcTableView.of(snapshot).button_held_for_fantasyland
    dealt = desk.face("Bob").marks.dealt
    assert dealt is not None and dealt.badge.startswith("FL ")
    desk.screenshot("00-demo-table")
    desk.window.close()
    database.dispose()


def first_start(
    qtbot: QtBot, tmp_path: Path, supervisor: str, supervisor_pin: str
) -> tuple[Desk, AttemptDialog]:
    """A desk on a new database, its first-start accounts dialog filled in (dealer Dana, 1234)."""
    desk = make_desk(qtbot, tmp_path, f"sqlite:///{tmp_path / 'first.db'}")
    desk.session.start()
    qtbot.waitUntil(lambda: isinstance(desk.session.active_dialog, AttemptDialog))
    dialog = desk.session.active_dialog
    assert isinstance(dialog, AttemptDialog)
    for name, text in (
        ("Dealer", "Dana"),
        ("Dealer PIN", "1234"),
        ("Supervisor", supervisor),
        ("Supervisor PIN", supervisor_pin),
    ):
        qtbot.keyClicks(field(dialog, name), text)
    return desk, dialog


def test_first_start_creates_the_dealer_and_the_supervisor(qtbot: QtBot, tmp_path: Path) -> None:
    desk, dialog = first_start(qtbot, tmp_path, "Floor", "9")
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "PIN" in dialog.refusal.text() and dialog.buttons.isEnabled())
    qtbot.keyClicks(field(dialog, "Supervisor PIN"), "9999999")
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: isinstance(desk.session.active_dialog, ChooseTableDialog), timeout=10_000)
    assert desk.session.account is not None and desk.session.account.name == "Dana"
    database = desk.session.database
    assert database is not None
    assert sorted((a.name, a.role.value) for a in list_users(database)) == [
        ("Dana", "dealer"), ("Floor", "supervisor")
    ]  # fmt: skip
    desk.window.close()


def test_first_start_never_ends_without_a_supervisor(qtbot: QtBot, tmp_path: Path) -> None:
    desk, dialog = first_start(qtbot, tmp_path, "Dana", "99999999")
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    for _ in range(2):  # a tired dealer presses OK again, nothing changed
        dialog.refusal.clear()
        qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: bool(dialog.refusal.text()) and dialog.buttons.isEnabled())
        assert dialog.refusal.text() == "the dealer and the floor supervisor need names of their own"
        assert desk.session.account is None and dialog.isVisible()
    field(dialog, "Supervisor").clear()
    qtbot.keyClicks(field(dialog, "Supervisor"), "Floor")
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: desk.session.account is not None, timeout=10_000)
    assert desk.session.database is not None
    assert ("Floor", Role.SUPERVISOR) in [(a.name, a.role) for a in list_users(desk.session.database)]
    desk.window.close()


def test_escape_while_a_pin_is_checked_waits_for_the_answer(
    qtbot: QtBot, tmp_path: Path, database: Database
) -> None:
    """Closed mid-check, the dialog would take the answer with it: a wrong PIN said to nobody."""
    desk = make_desk(qtbot, tmp_path, database.url)
    desk.session.start()
    qtbot.waitUntil(lambda: isinstance(desk.session.active_dialog, AttemptDialog))
    dialog = desk.session.active_dialog
    assert isinstance(dialog, AttemptDialog)
    qtbot.keyClicks(field(dialog, "Dealer"), DEALER[0])
    qtbot.keyClicks(field(dialog, "PIN"), "wrong")
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: "wrong name or PIN" in dialog.refusal.text())
    assert dialog.isVisible() and desk.session.account is None
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)  # with the answer given, Escape cancels
    assert not dialog.isVisible() and desk.session.account is None
    desk.window.close()


def test_demo_keep_refuses_an_existing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    existing = tmp_path / "taken.db"
    existing.write_bytes(b"")
    assert main(["demo", "--keep", str(existing)]) == 2
    assert "already exists" in capsys.readouterr().err


def test_the_smoke_test_opens_the_demo_table_in_a_fresh_process_closes_it_and_exits_0(tmp_path: Path) -> None:
    kept = tmp_path / "demo.db"
    home = {name: str(tmp_path / name) for name in ("config", "data", "cache")}
    environment = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": home["config"],
        "XDG_DATA_HOME": home["data"],
        "XDG_CACHE_HOME": home["cache"],
    }
    done = subprocess.run(
        [sys.executable, "-m", "ofc_desk", "demo", "--smoke-test", "--keep", str(kept)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("smoke test passed: Demo table")
    assert "Hand 3" in done.stdout and "seats drawn: Ann, Bob, Cy" in done.stdout
    assert "Traceback" not in done.stderr, done.stderr
    database = Database(f"sqlite:///{kept}")
    (table,) = list_open_tables(database)  # closed as a dealer closes it: the table let go
    database.dispose()
    assert table.holder is None


SMOKE_TEST_OUT_OF_TIME = """
from ofc_desk.desk.shell import smoke_test
from ofc_desk.desk.shell.app import run_prepared_desk

smoke_test.SMOKE_TEST_SECONDS = 0
# The table may be drawn before the first poll finds the time up: then its check fails instead.
smoke_test.SmokeTest._check_drawn = lambda self, snapshot: (1, "the check failed (made to by the test)")
print("exit", run_prepared_desk({url!r}, {dealer!r}, {session_id}, smoke_test=True))
"""


def test_a_failed_smoke_test_exits_1_though_its_window_closed(tmp_path: Path) -> None:
    """The last window's close quits the application with 0: the smoke test's status is the one
    the desk exits with all the same (whether the time was up before the table was drawn or the
    drawn table's check failed)."""
    url, session_id = demo_table(tmp_path)
    script = SMOKE_TEST_OUT_OF_TIME.format(url=url, dealer=DEMO_DEALER, session_id=session_id)
    done = forked_script_run(script, tmp_path)
    assert done.stdout.splitlines() == ["exit 1"]
    failed = ("smoke test FAILED: no table drawn after 0s", "smoke test FAILED: the check failed")
    assert any(reason in done.stderr for reason in failed), done.stderr
    assert "Traceback" not in done.stderr, done.stderr


def test_the_smoke_test_fails_with_the_reason_when_no_table_is_drawn(
    desk: Desk, capsys: pytest.CaptureFixture[str]
) -> None:
    exits: list[int] = []
    check = SmokeTest(desk.session, exits.append)
    check.deadline = 0.0
    check.on_poll()
    assert exits == [1]
    assert "smoke test FAILED: no table drawn" in capsys.readouterr().err
    assert not desk.window.isVisible() and desk.session.closed


def test_the_smoke_test_passes_once_the_table_is_drawn_and_closes_the_window_as_a_dealer_does(
    desk: Desk, database: Database, capsys: pytest.CaptureFixture[str]
) -> None:
    exits: list[int] = []
    check = SmokeTest(desk.session, exits.append)
    check.on_poll()
    assert exits == []
    desk.open_table(("Ann", "Bob"), button="Bob")
    check.on_poll()
    assert exits == [0]
    assert "seats drawn: Ann, Bob" in capsys.readouterr().out
    assert not desk.window.isVisible() and desk.session.closed
    (table,) = list_open_tables(database)
    assert table.holder is None


def test_a_database_that_cannot_be_opened_is_said_in_words_and_the_menus_wait(
    qtbot: QtBot, tmp_path: Path
) -> None:
    desk = make_desk(qtbot, tmp_path, f"sqlite:///{tmp_path}/no/such/folder/desk.db")
    desk.session.start()
    qtbot.waitUntil(lambda: bool(desk.window.between_hands.refusal.text()), timeout=10_000)
    shown = desk.window.between_hands.refusal.text()
    assert shown.startswith("the database could not be used (unable to open database file)")
    assert "sqlalche.me" not in shown and "OperationalError" not in shown
    # Resume, New table and Verify need the database: they say so rather than raise.
    for action in (
        desk.window.action(Command.RESUME),
        desk.window.action(Command.NEW_TABLE),
        desk.window.action(Command.VERIFY),
    ):
        desk.window.between_hands.refusal.clear()
        action.trigger()
        assert desk.window.between_hands.refusal.text().startswith("the database is not open yet")
    desk.window.close()


def test_a_desk_on_a_room_not_ready_for_it_says_why_and_opens_by_itself_once_it_is(
    qtbot: QtBot, tmp_path: Path, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the floor does: a room waiting for its owner (here a schema this desk does not know, as
    a desk left behind by an upgrade meets it) is said, tried again, and used once it is ready."""
    monkeypatch.setattr(session_module, "ROOM_RETRY_SECONDS", 0.1)
    with database.engine.begin() as connection:
        connection.execute(sql("UPDATE alembic_version SET version_num = '0099'"))
    desk = make_desk(qtbot, tmp_path, database.url)
    desk.session.start()
    said = desk.window.refusal_line()
    qtbot.waitUntil(lambda: "tries again every" in said.text())
    assert said.text().startswith("the room's schema is at revision 0099, newer than this OFC Desk")
    assert desk.session.database is None
    with database.engine.begin() as connection:
        connection.execute(
            sql("UPDATE alembic_version SET version_num = :newest"), {"newest": newest_revision()}
        )
    sign_in_through_the_dialog(desk)
    assert said.text() == ""
    desk.window.close()
