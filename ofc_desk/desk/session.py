"""One run of the desk: the database, the signed-in dealer, the open table and the menus.

Database work that can take longer than a frame (opening and migrating, resuming a table, reading
records) runs on a worker thread with a busy indicator; the window never freezes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QDialog, QProgressBar

from ofc_desk import __version__
from ofc_desk.core.presets import preset_names
from ofc_desk.desk.chip_actions import ChipActions
from ofc_desk.desk.controller import TableController
from ofc_desk.desk.dialogs import AttemptDialog, ChooseTableDialog, Report, TextDialog
from ofc_desk.desk.drafts import DraftStore
from ofc_desk.desk.failures import SERVICE_FAILURES, dealer_sentence
from ofc_desk.desk.keyboard_help import keyboard_markdown
from ofc_desk.desk.main_window import MainWindow
from ofc_desk.desk.models import AuditModel, HandHistoryModel, LedgerModel, RecordTableModel
from ofc_desk.desk.new_table_dialog import NewTableDialog
from ofc_desk.desk.record_browser import RecordBrowser
from ofc_desk.desk.settings_dialog import SettingsDialog
from ofc_desk.desk.theme import DisplayOptions, DisplaySettingsStore, ThemeName, application_stylesheet
from ofc_desk.desk.worker import BackgroundRunner
from ofc_desk.service import (
    TableSetup,
    audit_log,
    chip_ledger,
    hand_history,
    list_open_tables,
    open_table,
    resume_table,
)
from ofc_desk.service.records import OpenTable
from ofc_desk.service.verify import VerifyFault, verify_database
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account, Role, SignInError, create_user, list_users, sign_in

ABOUT = """# OFC Desk {version}

The dealer's desk for a live Open-Face Chinese Poker table.

- Licence: MIT
- Database in use: `{database}`
- Signed in: {account}
"""


class DeskSession(QObject):
    def __init__(self, window: MainWindow, database_url: str | None, store: DisplaySettingsStore) -> None:
        super().__init__(window)
        self.window = window
        self.database_url = database_url
        self.store = store
        self.options = store.load()
        self.database: Database | None = None
        self.account: Account | None = None
        self.open_tables: list[OpenTable] = []
        self.controller = TableController(window, DraftStore(store.settings))
        self.chip_actions = ChipActions(self.controller)
        self.runner = BackgroundRunner(self)
        self.active_dialog: QDialog | None = None
        self.browsers: dict[str, RecordBrowser] = {}
        self.busy = QProgressBar(window)
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(160)
        self.busy.setAccessibleName("Working")
        self.busy.hide()
        window.statusBar().addPermanentWidget(self.busy)
        self.runner.busy_changed.connect(self.on_busy_changed)
        self._connect_menus()
        self.apply_options(self.options)

    def _connect_menus(self) -> None:
        window = self.window
        for action, handler in (
            (window.action_new_table, self.on_new_table),
            (window.action_resume, self.offer_tables),
            (window.action_report, self.on_report),
            (window.action_close_report, self.on_close_report),
            (window.action_verify, self.on_verify),
            (window.action_quit, window.close),
            (window.action_history, self.on_history),
            (window.action_ledger, self.on_ledger),
            (window.action_audit, self.on_audit),
            (window.action_zoom_in, lambda: self.apply_options(self.options.zoomed(+1))),
            (window.action_zoom_out, lambda: self.apply_options(self.options.zoomed(-1))),
            (window.action_settings, self.on_settings),
            (window.action_keyboard, self.on_keyboard_reference),
            (window.action_about, self.on_about),
        ):
            action.triggered.connect(handler)
        window.action_four_colour.toggled.connect(self.on_four_colour_toggled)
        window.action_dark.toggled.connect(self.on_dark_toggled)
        window.closing.connect(self.on_closing)

    # ------------------------------------------------------------------ start-up
    def start(self) -> None:
        """Open (and migrate) the database off the UI thread, then ask the dealer to sign in."""
        url = self.database_url
        self.run_in_background("Opening the database…", lambda: Database(url), self.on_database_open)

    def start_signed_in(self, dealer: tuple[str, str], session_id: int) -> None:
        """Open the database, sign `dealer` (name, PIN) in and resume `session_id`: no dialogs."""
        url = self.database_url

        def ready(database: Database) -> None:
            self.database = database
            refusal = self.sign_in(*dealer)
            if refusal is not None:
                self.on_background_failed(refusal)
                return
            self.resume(session_id)

        self.run_in_background("Opening the database…", lambda: Database(url), ready)

    def on_database_open(self, database: Database) -> None:
        self.database = database
        self.window.status_line.setText(f"Database: {database.url} — sign in to continue")
        self.offer_sign_in()

    def offer_sign_in(self) -> None:
        database = self._database_or_say()
        if database is None:
            return
        if not list_users(database):
            self._first_run_accounts(database)
            return
        dialog = AttemptDialog("Sign in", "Dealer sign-in.", self.window)
        name = dialog.add_line("Dealer")
        pin = dialog.add_line("PIN", secret=True)
        dialog.set_background_attempt(
            lambda report: self._sign_in_in_background(
                lambda: _signed_in(database, name.text(), pin.text()), report
            )
        )
        dialog.accepted.connect(self.offer_tables)
        self._open_dialog(dialog)

    def _first_run_accounts(self, database: Database) -> None:
        dialog = AttemptDialog(
            "First start: accounts",
            "No accounts yet. Create the dealer who signs in now and a floor supervisor "
            "(needed to void a hand, correct chips or close a table). PINs: at least 4 characters.",
            self.window,
        )
        dealer, dealer_pin = dialog.add_line("Dealer"), dialog.add_line("Dealer PIN", secret=True)
        boss, boss_pin = dialog.add_line("Supervisor"), dialog.add_line("Supervisor PIN", secret=True)

        def start(report: Report) -> None:
            accounts = (
                (dealer.text(), "dealer", dealer_pin.text()),
                (boss.text(), "supervisor", boss_pin.text()),
            )
            self._sign_in_in_background(lambda: _first_accounts(database, accounts), report)

        dialog.set_background_attempt(start)
        dialog.accepted.connect(self.offer_tables)
        self._open_dialog(dialog)

    def _sign_in_in_background(self, work: Callable[[], Account | str], report: Report) -> None:
        def done(outcome: Account | str) -> None:
            if isinstance(outcome, str):
                report(outcome)
                return
            self.account = outcome
            self.window.statusBar().showMessage(f"Signed in: {outcome.name}", 5000)
            report(None)

        self.runner.run("Checking the PIN…", work, done, report)

    def sign_in(self, name: str, pin: str) -> str | None:
        """Sign in at once (no dialog): the demo and prepared desks."""
        outcome = _signed_in(self._require_database(), name, pin)
        if isinstance(outcome, str):
            return outcome
        self.account = outcome
        return None

    def offer_tables(self) -> None:
        database = self._database_or_say()
        if database is None:
            return
        self.open_tables = list_open_tables(database)
        labels = [
            f"{table.table} — {table.hands_settled} hands settled, last action {table.last_event_at}"
            for table in self.open_tables
        ]
        dialog = ChooseTableDialog(labels, self.window)

        def chosen() -> None:
            row = dialog.tables.currentRow()
            if dialog.wants_new_table or row < 0:
                self.on_new_table()
            else:
                self.resume(self.open_tables[row].session_id)

        dialog.accepted.connect(chosen)
        self._open_dialog(dialog)

    # ------------------------------------------------------------------ tables
    def resume(self, session_id: int) -> None:
        database, actor = self._require_database(), self._actor()
        self.run_in_background(
            "Resuming the table…",
            lambda: resume_table(database, session_id, actor),
            self.controller.attach,
        )

    def open_new_table(self, setup: TableSetup) -> str | None:
        try:
            service = open_table(self._require_database(), setup, self._actor())
        except SERVICE_FAILURES as failure:
            return dealer_sentence(failure)
        self.controller.attach(service)
        return None

    def on_new_table(self) -> None:
        if self.account is None:
            self.offer_sign_in()
            return
        dialog = NewTableDialog(preset_names(), self.window)
        dialog.set_attempt(lambda: self.open_new_table(dialog.setup()))
        self._open_dialog(dialog)

    def on_report(self) -> None:
        service = self.controller.service
        if service is None:
            self.controller.show_refusal("open or resume a table first")
            return
        try:
            from ofc_desk.desk.report_actions import open_session_report
        except ImportError:
            self.controller.show_refusal("session reports are not available in this build")
            return
        open_session_report(self.window, self._require_database().url, service.session_id)

    def on_close_report(self) -> None:
        """The one-page chip reconciliation: the supervisor enters the chips counted on the table."""
        service = self.controller.service
        if service is None:
            self.controller.show_refusal("open or resume a table first")
            return
        from ofc_desk.desk.report_actions import open_table_close_report

        dialog = AttemptDialog(
            "Table-close report",
            "Count the chips on the table; the report sets them against the chips the session says "
            "should be there and flags any difference.",
            self.window,
        )
        counted = dialog.add_amount("Chips counted on the table")
        url, session_id = self._require_database().url, service.session_id

        def build() -> None:
            open_table_close_report(self.window, url, session_id, counted.value())

        dialog.set_attempt(build)
        self._open_dialog(dialog)

    def on_verify(self) -> None:
        """Every hash, event, hand and ledger row checked again, off the UI thread."""
        database = self._database_or_say()
        if database is None:
            return

        def verify() -> str:
            try:
                return verify_database(database).line()
            except VerifyFault as fault:
                return f"VERIFY FAILED: {fault}"

        def show(line: str) -> None:
            self._open_dialog(TextDialog("Verify the database", f"# Verify\n\n{line}\n", self.window))

        self.run_in_background("Verifying the database…", verify, show)

    # ------------------------------------------------------------------ records
    def on_history(self) -> None:
        self._browse("Hand history", HandHistoryModel, hand_history)

    def on_ledger(self) -> None:
        self._browse("Chip ledger", LedgerModel, chip_ledger)

    def on_audit(self) -> None:
        self._browse("Audit log", AuditModel, audit_log)

    def _browse(
        self,
        title: str,
        model_type: type[RecordTableModel[Any]],
        read: Callable[[Database, int], Sequence[Any]],
    ) -> None:
        service = self.controller.service
        if service is None:
            self.controller.show_refusal("open or resume a table first")
            return
        browser = self.browsers.get(title)
        if browser is None:
            browser = RecordBrowser(title, model_type(self), self.window)
            self.browsers[title] = browser
        database, session_id = self._require_database(), service.session_id

        def show(records: Sequence[Any]) -> None:
            model = browser.model
            assert isinstance(model, RecordTableModel)
            model.set_records(records)
            browser.show()
            browser.raise_()

        self.run_in_background(f"Reading the {title.lower()}…", lambda: read(database, session_id), show)

    # ------------------------------------------------------------------ display
    def apply_options(self, options: DisplayOptions) -> None:
        self.options = options
        self.store.save(options)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.setStyleSheet(application_stylesheet(options))
        self.window.felt.set_options(options)
        self.window.picker.set_options(options)
        for action, checked in (
            (self.window.action_four_colour, options.four_colour),
            (self.window.action_dark, options.theme is ThemeName.DARK),
        ):
            action.blockSignals(True)
            action.setChecked(checked)
            action.blockSignals(False)

    def on_four_colour_toggled(self, checked: bool) -> None:
        self.apply_options(replace(self.options, four_colour=checked))

    def on_dark_toggled(self, checked: bool) -> None:
        self.apply_options(replace(self.options, theme=ThemeName.DARK if checked else ThemeName.LIGHT))

    def on_settings(self) -> None:
        in_use = self.database.url if self.database else "(not open yet)"
        dialog = SettingsDialog(self.options, self.store.database_url(), in_use, self.window)

        def save() -> None:
            self.store.save_database_url(dialog.database_url.text().strip())
            self.apply_options(dialog.chosen_options())

        dialog.accepted.connect(save)
        self._open_dialog(dialog)

    def on_keyboard_reference(self) -> None:
        self._open_dialog(TextDialog("Keyboard reference", keyboard_markdown(), self.window))

    def on_about(self) -> None:
        text = ABOUT.format(
            version=__version__,
            database=self.database.url if self.database else "(not open yet)",
            account=self.account.name if self.account else "nobody",
        )
        self._open_dialog(TextDialog("About OFC Desk", text, self.window))

    # ------------------------------------------------------------------ plumbing
    def run_in_background(self, label: str, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        self.runner.run(label, work, done, self.on_background_failed)

    def on_busy_changed(self, label: str) -> None:
        self.busy.setVisible(bool(label))
        if label:
            self.window.statusBar().showMessage(label)
        else:
            self.window.statusBar().clearMessage()

    def on_background_failed(self, message: str) -> None:
        self.controller.show_refusal(message)
        self.window.statusBar().showMessage(message)

    def on_closing(self) -> None:
        self.runner.wait()
        if self.database is not None:
            self.database.dispose()

    def _open_dialog(self, dialog: QDialog) -> None:
        self.active_dialog = dialog
        dialog.finished.connect(lambda _result: self._forget_dialog(dialog))
        dialog.open()

    def _forget_dialog(self, dialog: QDialog) -> None:
        if self.active_dialog is dialog:
            self.active_dialog = None

    def _require_database(self) -> Database:
        if self.database is None:
            raise RuntimeError("the database is not open yet")
        return self.database

    def _database_or_say(self) -> Database | None:
        """For a menu action that needs the database: None, said to the dealer, rather than acting
        before it opened (a slow network server) or after it could not be opened."""
        if self.database is None:
            self.controller.show_refusal(
                "the database is not open yet: wait for it, or check its URL in Settings and start again"
            )
        return self.database

    def _actor(self) -> Account | str:
        """The signed-in dealer, whose key (unsealed at sign-in, held for the shift) signs."""
        return self.account if self.account else "dealer"


def _signed_in(database: Database, name: str, pin: str) -> Account | str:
    """The account, or the refusal sentence (runs on a worker thread: the PIN hash is slow)."""
    try:
        return sign_in(database, name, pin)
    except SignInError as error:
        return str(error)


def _first_accounts(database: Database, accounts: Sequence[tuple[str, str, str]]) -> Account | str:
    """Create the first floor supervisor (who signs their own account, and then the dealer's) and
    the dealer, skipping one made by an earlier try; sign the dealer in."""
    (dealer, _, dealer_pin), (boss, _, boss_pin) = accounts
    if dealer.strip() == boss.strip():
        return "the dealer and the floor supervisor need names of their own"
    existing = {account.name for account in list_users(database)}
    try:
        if boss.strip() in existing:
            supervisor = sign_in(database, boss, boss_pin, Role.SUPERVISOR)
        else:
            supervisor = create_user(database, boss, Role.SUPERVISOR, boss_pin)
        if dealer.strip() not in existing:
            create_user(database, dealer, Role.DEALER, dealer_pin, approver=supervisor)
    except SignInError as error:
        return str(error)
    return _signed_in(database, dealer, dealer_pin)
