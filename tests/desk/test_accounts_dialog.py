"""Settings → accounts: a floor supervisor adds an account, changes a role and changes a PIN at
the desk, each a signed account event; a wrong supervisor PIN is refused in the dialog."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox

from ofc_desk.desk.actions import Command
from ofc_desk.desk.dialogs.accounts import AccountDialog
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, list_users, sign_in
from tests.desk.conftest import DEALER, SUPERVISOR, Desk
from tests.desk.test_start_and_resume import field


def run_task(desk: Desk, action: QAction, lines: dict[str, str], choices: dict[str, str]) -> AccountDialog:
    action.trigger()
    dialog = desk.session.active_dialog
    assert isinstance(dialog, AccountDialog)
    for caption, text in {"Supervisor": SUPERVISOR[0], "Supervisor PIN": SUPERVISOR[1], **lines}.items():
        field(dialog, caption).setText(text)
    for caption, text in choices.items():
        box = next(b for b in dialog.findChildren(QComboBox) if b.accessibleName() == caption)
        box.setCurrentText(text)
    desk.qtbot.keyClick(field(dialog, "Supervisor PIN"), Qt.Key.Key_Return)
    return dialog


def test_a_supervisor_adds_an_account_changes_its_role_and_a_pin(desk: Desk, database: Database) -> None:
    window = desk.window
    run_task(desk, window.action(Command.ADD_ACCOUNT), {"Name": "Yan", "PIN": "56785678"}, {"Role": "dealer"})
    desk.qtbot.waitUntil(
        lambda: window.statusBar().currentMessage().startswith("Yan can now sign in"), timeout=10_000
    )
    run_task(desk, window.action(Command.CHANGE_ROLE), {}, {"Account": "Yan", "Role": "supervisor"})
    desk.qtbot.waitUntil(
        lambda: window.statusBar().currentMessage() == f"Yan is now a supervisor, approved by {SUPERVISOR[0]}"
    )
    lines = {"Current PIN": DEALER[1], "New PIN": "4455"}
    run_task(desk, window.action(Command.CHANGE_PIN), lines, {"Account": DEALER[0]})
    desk.qtbot.waitUntil(
        lambda: window.statusBar().currentMessage().startswith(f"{DEALER[0]}'s PIN was changed")
    )
    assert {account.name: account.role for account in list_users(database)}["Yan"] is Role.SUPERVISOR
    assert sign_in(database, DEALER[0], "4455").name == DEALER[0]
    verify_database(database)


def test_a_wrong_supervisor_pin_changes_nothing_and_says_so_in_the_dialog(
    desk: Desk, database: Database
) -> None:
    desk.window.action(Command.ADD_ACCOUNT).trigger()
    dialog = desk.session.active_dialog
    assert isinstance(dialog, AccountDialog)
    for caption, text in {
        "Supervisor": SUPERVISOR[0],
        "Supervisor PIN": "0000",
        "Name": "Yan",
        "PIN": "5678",
    }.items():
        field(dialog, caption).setText(text)
    desk.qtbot.keyClick(field(dialog, "Supervisor PIN"), Qt.Key.Key_Return)
    desk.qtbot.waitUntil(lambda: "wrong name or PIN" in dialog.refusal.text(), timeout=10_000)
    assert "Yan" not in {account.name for account in list_users(database)}
