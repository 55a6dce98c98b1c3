"""Settings → the room's accounts: add one, change a role, change a PIN.

Each change is an account event a floor supervisor signs with their PIN (the service's
`account_policy`); the PIN hashes are slow on purpose, so the change runs on the worker thread
while the dialog waits, and a refusal is said in the dialog.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from PySide6.QtWidgets import QComboBox, QLineEdit, QWidget

from ofc_desk.desk.dialogs.attempt import Report, SupervisorDialog, run_and_say
from ofc_desk.desk.shell.worker import BackgroundRunner
from ofc_desk.i18n import LazyText, _, lazy_gettext, lazy_pgettext
from ofc_desk.service.room.account_policy import (
    AccountChange,
    NewAccount,
    add_account,
    change_account_pin,
    change_account_role,
)
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, list_users

Done = Callable[[str], None]


ROLE_WORDS: dict[Role, LazyText] = {
    Role.DEALER: lazy_pgettext("role", "dealer"),
    Role.SUPERVISOR: lazy_pgettext("role", "supervisor"),
}
"""Every role in the reader's words (its value is what the room stores)."""


class AccountTask(Enum):
    ADD = (
        lazy_gettext("Add an account"),
        lazy_gettext(
            "A new dealer or floor supervisor, with their own PIN (at least 4 characters; a supervisor's, 8)."
            " A floor supervisor approves it with their PIN."
        ),
    )
    ROLE = (
        lazy_gettext("Change an account's role"),
        lazy_gettext(
            "Make an account a dealer or a floor supervisor (whose PIN has at least 8 characters)."
            " A floor supervisor approves it with their PIN."
        ),
    )
    PIN = (
        lazy_gettext("Change an account's PIN"),
        lazy_gettext(
            "The account's current PIN opens its key, which the new PIN seals again."
            " A floor supervisor approves it with their PIN."
        ),
    )


class AccountDialog(SupervisorDialog):
    """The fields of one task, then the approving supervisor's name and PIN."""

    def __init__(self, task: AccountTask, names: list[str], parent: QWidget | None = None) -> None:
        title, explanation = task.value
        super().__init__(str(title), str(explanation), parent)
        self.task = task
        self.name: QLineEdit | QComboBox = (
            self.add_line(_("Name")) if task is AccountTask.ADD else self.add_choice(_("Account"), names)
        )
        self.role = (
            self.add_labelled_choice(_("Role"), ROLE_WORDS.items()) if task is not AccountTask.PIN else None
        )
        self.old_pin = self.add_line(_("Current PIN"), secret=True) if task is AccountTask.PIN else None
        self.new_pin = (
            self.add_line(_("PIN") if task is AccountTask.ADD else _("New PIN"), secret=True)
            if task is not AccountTask.ROLE
            else None
        )

    def change(self) -> AccountChange:
        name = self.name.text() if isinstance(self.name, QLineEdit) else self.name.currentText()
        return AccountChange(
            name=name,
            supervisor=NewAccount(self.supervisor.text(), self.pin.text()),
            role=Role(self.role.currentData()) if self.role is not None else None,
            pin=self.new_pin.text() if self.new_pin is not None else "",
            old_pin=self.old_pin.text() if self.old_pin is not None else "",
        )


_ACTIONS = {
    AccountTask.ADD: add_account,
    AccountTask.ROLE: change_account_role,
    AccountTask.PIN: change_account_pin,
}


def account_dialog(
    task: AccountTask, database: Database, runner: BackgroundRunner, parent: QWidget, done: Done
) -> AccountDialog:
    dialog = AccountDialog(
        task, [account.name for account in list_users(database) if not account.builtin], parent
    )
    make = _ACTIONS[task]

    def start(report: Report) -> None:
        change = dialog.change()
        run_and_say(runner, _("Checking the PINs…"), lambda: make(database, change), report, done)

    dialog.set_background_attempt(start)
    return dialog
