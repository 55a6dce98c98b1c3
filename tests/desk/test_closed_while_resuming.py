"""A desk closed while it resumes a table (`DeskSession.on_closing`): the answers its workers still
owe are given as it closes, and a table taken up then is let go, not attached to a closed desk. The
table is resumed at another desk without a floor supervisor, and the resume recorded nothing."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from ofc_desk.service import list_open_tables
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account
from tests.desk.conftest import DEALER, Desk, make_desk
from tests.desk.test_one_table_one_desk import choose_the_table, second_desk
from tests.desk.test_sign_in_beside_resume import a_table_left_mid_hand, events_of


def closed_at_once(desk: Desk) -> None:
    """The window closed before any answer of its workers is given; then whatever the event loop
    still delivers is delivered."""
    assert desk.session.controller.service is None
    desk.window.close()
    desk.qtbot.waitUntil(lambda: not desk.session.runner.busy and not desk.session.table_reader.busy)
    assert desk.session.controller.service is None


def resumed_elsewhere_without_a_supervisor(
    qtbot: QtBot, tmp_path: Path, database: Database, dealer: Account
) -> None:
    (tmp_path / "pit-2").mkdir()
    other = second_desk(qtbot, tmp_path, database, dealer)
    chooser = choose_the_table(other)
    assert "live at desk" not in chooser.tables.item(0).text()
    chooser.accept()
    qtbot.waitUntil(lambda: other.session.controller.service is not None, timeout=15_000)
    (table,) = list_open_tables(database)
    assert table.holder is not None and table.holder.machine == "PIT-2"
    other.window.close()


def test_a_desk_closed_while_it_resumes_a_table_lets_it_go(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk, template_accounts: tuple[Path, Account]
) -> None:
    session_id = a_table_left_mid_hand(desk)
    recorded = events_of(database, session_id)
    reopened = make_desk(qtbot, tmp_path, database.url)
    reopened.session.database = database
    reopened.session.account = template_accounts[1]
    reopened.session.resume(session_id)

    closed_at_once(reopened)
    (table,) = list_open_tables(database)
    assert table.session_id == session_id and table.holder is None
    assert events_of(database, session_id) == recorded
    resumed_elsewhere_without_a_supervisor(qtbot, tmp_path, database, template_accounts[1])


def test_a_desk_closed_while_it_opens_signs_in_and_resumes_holds_nothing(
    qtbot: QtBot, tmp_path: Path, database: Database, desk: Desk, template_accounts: tuple[Path, Account]
) -> None:
    """`start_signed_in` (what `ofc-desk demo` runs), closed before the database is open: the
    answers given as it closes start nothing more (no PIN check, no table taken up)."""
    session_id = a_table_left_mid_hand(desk)
    recorded = events_of(database, session_id)
    reopened = make_desk(qtbot, tmp_path, database.url)
    reopened.session.start_signed_in(DEALER, session_id)

    closed_at_once(reopened)
    assert reopened.session.account is None
    (table,) = list_open_tables(database)
    assert table.session_id == session_id and table.holder is None
    assert events_of(database, session_id) == recorded
    resumed_elsewhere_without_a_supervisor(qtbot, tmp_path, database, template_accounts[1])
