"""A launch for a dealer and a table (`ofc-desk demo`: `app.start_session(..., signing_in=dealer)`)
opens the database and checks the PIN on a thread of its own while the rest of the desk loads
(`desk.shell.opening.SignInAhead`, issue 39: ready to type). The desk then waits for that work
rather than doing it again: one PIN check, and still nothing held or shown before the dealer is in."""

from __future__ import annotations

from concurrent.futures import CancelledError
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from ofc_desk.desk.shell import opening
from ofc_desk.desk.shell.opening import SignInAhead
from ofc_desk.service import list_open_tables
from ofc_desk.storage.database import Database
from ofc_desk.storage.room_schema import RoomNotReady
from ofc_desk.storage.users import Account, sign_in
from tests.desk.conftest import DEALER, Desk, make_desk, street_keys
from tests.desk.test_sign_in_beside_resume import a_table_left_mid_hand, events_of


@pytest.fixture
def pin_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names whose PIN was checked, by the ahead or by the desk (both go through `opening`)."""
    checked: list[str] = []

    def counted(database: Database, name: str, pin: str) -> Account:
        checked.append(name)
        return sign_in(database, name, pin)

    monkeypatch.setattr(opening, "sign_in", counted)
    return checked


def resumed_with_ahead(
    qtbot: QtBot, tmp_path: Path, url: str, dealer: tuple[str, str], session_id: int
) -> Desk:
    reopened = make_desk(qtbot, tmp_path, url)
    reopened.session.ahead = SignInAhead.begin(url, dealer)
    reopened.session.start_signed_in(dealer, session_id)
    return reopened


def test_the_pin_checked_ahead_resumes_the_table_with_one_check(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk, pin_checks: list[str]
) -> None:
    session_id = a_table_left_mid_hand(desk)
    reopened = resumed_with_ahead(qtbot, tmp_path, database.url, DEALER, session_id)
    qtbot.waitUntil(lambda: reopened.session.controller.service is not None, timeout=15_000)
    assert pin_checks == [DEALER[0]]  # the ahead's check, not one more by the desk
    assert reopened.session.ahead is None  # taken: a later start signs in anew
    assert reopened.session.account is not None and reopened.session.account.name == DEALER[0]
    (table,) = list_open_tables(database)
    assert table.holder is not None and table.holder.dealer == DEALER[0]
    reopened.street(street_keys("2h 3c 4s 5d 6c", "m"))  # Bob's street: the table takes keys
    assert reopened.refusal() == ""
    assert reopened.face("Bob").rows[1].cards == ("2h", "3c", "4s", "5d", "6c")
    reopened.window.close()


def test_a_wrong_pin_checked_ahead_holds_nothing_and_shows_nothing(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk, pin_checks: list[str]
) -> None:
    session_id = a_table_left_mid_hand(desk)
    recorded = events_of(database, session_id)
    reopened = resumed_with_ahead(qtbot, tmp_path, database.url, (DEALER[0], "9999"), session_id)
    qtbot.waitUntil(lambda: "wrong name or PIN" in reopened.window.refusal_line().text(), timeout=15_000)
    qtbot.waitUntil(lambda: not reopened.session.runner.busy and not reopened.session.table_reader.busy)
    assert pin_checks == [DEALER[0]]
    assert reopened.session.account is None and reopened.session.controller.service is None
    (table,) = list_open_tables(database)
    assert table.holder is None
    assert events_of(database, session_id) == recorded
    reopened.window.close()


def test_an_ahead_for_another_dealer_is_not_taken_and_its_database_let_go(
    qtbot: QtBot,
    tmp_path: Path,
    database: Database,
    desk: Desk,
    pin_checks: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session_id = a_table_left_mid_hand(desk)
    disposed: list[Database] = []
    dispose = Database.dispose

    def counted(self: Database) -> None:
        disposed.append(self)
        dispose(self)

    monkeypatch.setattr(Database, "dispose", counted)
    reopened = make_desk(qtbot, tmp_path, database.url)
    other = SignInAhead.begin(database.url, ("Nobody", "0000"))
    reopened.session.ahead = other
    reopened.session.start_signed_in(DEALER, session_id)
    qtbot.waitUntil(lambda: reopened.session.controller.service is not None, timeout=15_000)
    assert sorted(pin_checks) == sorted(["Nobody", DEALER[0]])  # the desk checked its own dealer
    assert reopened.session.account is not None and reopened.session.account.name == DEALER[0]
    left = other.opened()
    assert isinstance(left, Database) and left is not reopened.session.database
    qtbot.waitUntil(lambda: any(each is left for each in disposed))  # once its check is done
    assert not any(each is reopened.session.database for each in disposed)
    reopened.window.close()


def test_a_room_not_ready_checks_no_pin_ahead(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    waiting = RoomNotReady("the room waits for its owner's upgrade")
    monkeypatch.setattr(opening, "open_when_ready", lambda _url: waiting)
    ahead = SignInAhead.begin(f"sqlite:///{tmp_path / 'room.db'}", DEALER)
    assert ahead.opened() is waiting
    with pytest.raises(CancelledError):  # no check was made, and none is waited for
        ahead.checked()
