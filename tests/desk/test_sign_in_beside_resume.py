"""A desk started for a dealer and a table (`start_signed_in`, what `ofc-desk demo` runs) checks the
PIN on one worker while the table is read on the other (issue 39: ready to type): a wrong PIN
still holds and shows nothing, and the window takes no key for the table before it is shown. A
desk whose dealer signs in through the dialog reads the open table while the PIN is typed."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from sqlalchemy import func, select

from ofc_desk.desk.dialogs.text import ChooseTableDialog
from ofc_desk.desk.shell import session as session_module
from ofc_desk.service import list_open_tables
from ofc_desk.service.front.queries import read_table
from ofc_desk.service.front.table_service import FoldedTable
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event
from ofc_desk.storage.users import Account
from tests.desk.conftest import DEALER, Desk, make_desk, street_keys
from tests.desk.test_start_and_resume import sign_in_through_the_dialog


def events_of(database: Database, session_id: int) -> int:
    with database.session() as session:
        return int(session.scalar(select(func.count()).where(Event.session_id == session_id)) or 0)


def a_table_left_mid_hand(desk: Desk) -> int:
    desk.open_table(("Ann", "Bob", "Cy"), button="Cy")
    desk.street(street_keys("Ks Kd Kc 7h 7d", "b"))
    session_id = desk.snapshot.session_id
    desk.window.close()  # the desk closed normally lets the table go
    return session_id


def test_a_wrong_pin_beside_the_resume_holds_nothing_and_shows_nothing(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk
) -> None:
    session_id = a_table_left_mid_hand(desk)
    recorded = events_of(database, session_id)

    reopened = make_desk(qtbot, tmp_path, database.url)
    reopened.session.start_signed_in((DEALER[0], "9999"), session_id)
    qtbot.waitUntil(lambda: "wrong name or PIN" in reopened.window.refusal_line().text(), timeout=15_000)
    qtbot.waitUntil(lambda: not reopened.session.runner.busy and not reopened.session.table_reader.busy)
    assert reopened.session.account is None
    assert reopened.session.controller.service is None
    (table,) = list_open_tables(database)
    assert table.session_id == session_id and table.holder is None
    assert events_of(database, session_id) == recorded
    reopened.window.close()


def test_keys_pressed_before_the_table_is_shown_do_nothing_to_it(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk
) -> None:
    session_id = a_table_left_mid_hand(desk)
    recorded = events_of(database, session_id)

    reopened = make_desk(qtbot, tmp_path, database.url)
    reopened.session.start_signed_in(DEALER, session_id)
    # The database, the PIN and the table are still being worked on off the UI thread.
    assert reopened.session.controller.service is None
    window = reopened.window
    for widget in (window.between_hands.deal_button, window):
        qtbot.keyClick(widget, Qt.Key.Key_Return)
        qtbot.keyClick(widget, Qt.Key.Key_F5)
    qtbot.keyClicks(window.entry.line, "as m ac m")
    qtbot.keyClick(window.entry.line, Qt.Key.Key_Return)
    assert reopened.session.controller.service is None

    qtbot.waitUntil(lambda: reopened.session.controller.service is not None, timeout=15_000)
    assert reopened.session.account is not None and reopened.session.account.name == DEALER[0]
    assert events_of(database, session_id) == recorded
    snapshot = reopened.snapshot
    assert snapshot.hand_number == 1 and snapshot.to_act is not None and snapshot.to_act.player == "Bob"
    assert reopened.face("Bob").rows[1].cards == ()
    assert [placement.label for placement in reopened.session.controller.staged] == []
    (table,) = list_open_tables(database)
    assert table.holder is not None and table.holder.dealer == DEALER[0]
    # Ready now: the same keys are Bob's street.
    reopened.street(street_keys("2h 3c 4s 5d 6c", "m"))
    assert reopened.refusal() == ""
    assert reopened.face("Bob").rows[1].cards == ("2h", "3c", "4s", "5d", "6c")
    reopened.window.close()


def test_the_table_read_while_the_dealer_signs_in_is_the_table_resumed(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk, monkeypatch: pytest.MonkeyPatch
) -> None:
    session_id = a_table_left_mid_hand(desk)
    reopened = make_desk(qtbot, tmp_path, database.url)
    reads: list[tuple[int, Account | None]] = []

    def read(database: Database, session_id: int) -> FoldedTable:
        reads.append((session_id, reopened.session.account))
        return read_table(database, session_id)

    monkeypatch.setattr(session_module, "read_table", read)
    reopened.session.start()
    # The read begins on a worker as the dialog opens; the dealer types only once it has begun
    # (under load the worker could start after a dialog filled by the test at once).
    qtbot.waitUntil(lambda: bool(reads))
    sign_in_through_the_dialog(reopened)
    qtbot.waitUntil(lambda: isinstance(reopened.session.active_dialog, ChooseTableDialog))
    assert reads == [(session_id, None)]  # read before anyone signed in, and nothing held then
    reopened.session.active_dialog.accept()  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: reopened.session.controller.service is not None, timeout=15_000)
    assert len(reads) == 1 and reopened.session.read_ahead == {}
    snapshot = reopened.snapshot
    assert snapshot.hand_number == 1 and snapshot.to_act is not None and snapshot.to_act.player == "Bob"
    (table,) = list_open_tables(database)
    assert table.holder is not None and table.holder.dealer == DEALER[0]
    reopened.street(street_keys("2h 3c 4s 5d 6c", "m"))
    assert reopened.refusal() == ""
    reopened.window.close()
