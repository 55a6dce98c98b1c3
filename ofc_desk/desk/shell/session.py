"""One run of the desk: the database, the signed-in dealer, the open table and the menus.

Database work that can take longer than a frame (opening and migrating, resuming a table, reading
records) runs on a worker thread with a busy indicator; the window never freezes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QProgressBar

from ofc_desk import __version__
from ofc_desk.desk import refusals
from ofc_desk.desk.action_parts import Handler, Menu
from ofc_desk.desk.actions import Command
from ofc_desk.desk.entry.drafts import DraftStore
from ofc_desk.desk.hand_end.chip_actions import ChipActions
from ofc_desk.desk.records.actions import RecordActions
from ofc_desk.desk.records.report_folder import keep_report_folder_in
from ofc_desk.desk.refusals import SERVICE_FAILURES, dealer_sentence
from ofc_desk.desk.shell.collector import LaunchHold
from ofc_desk.desk.shell.language import DESK_KEY, add_language_menu, draw_dialogs_ourselves
from ofc_desk.desk.shell.main_window import MainWindow
from ofc_desk.desk.shell.menus import connect_commands, handlers_of
from ofc_desk.desk.shell.opening import SignInAhead, checked_sign_in, open_when_ready
from ofc_desk.desk.shell.sign_in import hand_over_dialog, sign_in_dialog
from ofc_desk.desk.shell.take_over import needs_take_over, open_table_label, take_over_dialog
from ofc_desk.desk.shell.theme import DisplayOptions, DisplaySettingsStore, ThemeName, use_stylesheet
from ofc_desk.desk.shell.worker import BackgroundRunner
from ofc_desk.desk.table.controller import TableController
from ofc_desk.i18n import _, lazy_gettext
from ofc_desk.service import TableSetup, list_open_tables, open_table, resume_table
from ofc_desk.service.front.queries import read_table, take_up_table
from ofc_desk.service.front.table_service import FoldedTable, TableService
from ofc_desk.service.room.desk_holds import ThisDesk
from ofc_desk.service.store.records import OpenTable
from ofc_desk.service.table.commands import HandOver
from ofc_desk.service.terms.snapshot import TableSnapshot
from ofc_desk.storage.database import Database
from ofc_desk.storage.room_schema import RoomNotReady
from ofc_desk.storage.users import Account

ROOM_RETRY_SECONDS = 5.0
"""How often a desk whose room waits for an upgrade tries the database again."""

ABOUT = lazy_gettext(
    """# OFC Desk {version}

The dealer's desk for a live Open-Face Chinese Poker table.

- Licence: MIT
- Database in use: `{database}`
- Signed in: {account}
"""
)


class DeskSession(QObject):
    def __init__(self, window: MainWindow, database_url: str | None, store: DisplaySettingsStore) -> None:
        super().__init__(window)
        draw_dialogs_ourselves()
        self.window = window
        self.database_url = database_url
        self.store = store
        self.options = store.load()
        self.database: Database | None = None
        self.account: Account | None = None
        self.open_tables: list[OpenTable] = []
        self.desk = ThisDesk.here()
        """This desk: the tables it opens or resumes are held by it (`service.room.desk_holds`)."""
        self.controller = TableController(window, DraftStore(store.settings))
        keep_report_folder_in(store.settings)
        self.chip_actions = ChipActions(self.controller)
        self.runner = BackgroundRunner(self)
        self.table_reader = BackgroundRunner(self)
        """A second worker: a table read while the dealer's PIN is checked on the first."""
        self.read_ahead: dict[int, FoldedTable] = {}
        """The table read while the dealer signed in (`read_ahead_of_sign_in`), until resumed."""
        self.launch = LaunchHold(held=False)
        """The collector's hold through the launch (`app.start_session`), ended where it ends."""
        self.ahead: SignInAhead | None = None
        """The launch's database and dealer's PIN, begun before this desk loaded (`app.start_session`):
        taken by the first `start_signed_in` for that dealer."""
        self.active_dialog: QDialog | None = None
        self.closed = False
        """The window is closing or closed: answers still given attach no table and open no dialog."""
        self.busy = QProgressBar(window)
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(160)
        self.busy.setAccessibleName(_("Working"))
        self.busy.hide()
        window.statusBar().addPermanentWidget(self.busy)
        self.runner.busy_changed.connect(self.on_busy_changed)
        self.table_reader.busy_changed.connect(self.on_busy_changed)
        self.records = RecordActions(self)
        self.commands = handlers_of(
            window.handlers(), self.controller.handlers(), self.records.handlers(), self.handlers()
        )
        connect_commands(window.menu_actions, self.commands)
        add_language_menu(
            window.menus[Menu.SETTINGS],
            self.store.settings,
            DESK_KEY,
            partial(refusals.show_notice_in_window, window),
        )
        window.closing.connect(self.on_closing)
        self.apply_options(self.options)

    def handlers(self) -> dict[Command, Handler]:
        """The menu commands the session answers: tables, accounts, display, help."""
        window = self.window
        return {
            Command.NEW_TABLE: self.on_new_table,
            Command.RESUME: self.offer_tables,
            Command.HAND_OVER: self.on_hand_over,
            Command.CORRECT_HAND: self.on_correct_hand,
            Command.ADD_ACCOUNT: lambda: self.on_account_task("ADD"),
            Command.CHANGE_ROLE: lambda: self.on_account_task("ROLE"),
            Command.CHANGE_PIN: lambda: self.on_account_task("PIN"),
            Command.QUIT: window.close,
            Command.ZOOM_IN: lambda: self.apply_options(self.options.zoomed(+1)),
            Command.ZOOM_OUT: lambda: self.apply_options(self.options.zoomed(-1)),
            Command.FOUR_COLOUR: self.on_four_colour_toggled,
            Command.DARK: self.on_dark_toggled,
            Command.SETTINGS: self.on_settings,
            Command.KEYBOARD: self.on_keyboard_reference,
            Command.ABOUT: self.on_about,
        }

    def service(self) -> TableService | None:
        """The table open now, if any."""
        return self.controller.service

    # ------------------------------------------------------------------ start-up
    def start(self) -> None:
        """Open (and migrate) the database off the UI thread, then ask the dealer to sign in; a
        room waiting for its owner's upgrade is tried again until it is ready."""
        url = self.database_url
        self.run_in_background(
            _("Opening the database…"), lambda: open_when_ready(url), self.on_database_open
        )

    def start_signed_in(self, dealer: tuple[str, str], session_id: int) -> None:
        """Open the database, sign `dealer` (name, PIN) in and resume `session_id`: no dialogs. The
        launch's sign-in begun ahead for this dealer is waited for rather than done again."""
        url = self.database_url
        ahead, self.ahead = self.ahead, None
        if ahead is not None and ahead.dealer != dealer:
            ahead.let_go()
            ahead = None

        def ready(database: Database | RoomNotReady) -> None:
            if isinstance(database, RoomNotReady):
                self.wait_for_the_room(database, lambda: self.start_signed_in(dealer, session_id))
                return
            self.database = database
            self.sign_in_beside_resume(dealer, session_id, ahead)

        opening = ahead.opened if ahead is not None else lambda: open_when_ready(url)
        self.run_in_background(_("Opening the database…"), opening, ready)

    def sign_in_beside_resume(
        self, dealer: tuple[str, str], session_id: int, ahead: SignInAhead | None = None
    ) -> None:
        """The dealer's PIN checked on one worker (its scrypt lets the other thread run) while the
        table is read and folded on the other (`read_table`: no hold taken, nothing recorded).
        Only once the dealer is in is the table held and shown (`take_up_table`): a wrong PIN
        holds nothing, shows nothing, and says why. Until then the window has no table and takes
        no key for one."""
        database = self.require_database()
        outcomes: dict[str, Account | str | FoldedTable] = {}

        def arrived(part: str, outcome: Account | str | FoldedTable) -> None:
            outcomes[part] = outcome
            signed_in, folded = outcomes.get("dealer"), outcomes.get("table")
            if isinstance(signed_in, str):
                if part == "dealer":
                    self.on_background_failed(signed_in)
                return
            if isinstance(signed_in, Account) and isinstance(folded, tuple):
                self.account = signed_in
                actor, desk = self._actor(), self.desk
                self.run_in_background(
                    _("Resuming the table…"),
                    lambda: take_up_table(folded, actor, desk, entries_now=False),
                    self.attach_resumed,
                )

        checking = ahead.checked if ahead is not None else lambda: checked_sign_in(database, *dealer)
        self.run_in_background(_("Checking the PIN…"), checking, partial(arrived, "dealer"))
        self.table_reader.run(
            _("Resuming the table…"),
            lambda: read_table(database, session_id),
            partial(arrived, "table"),
            self.on_background_failed,
        )

    def on_database_open(self, database: Database | RoomNotReady) -> None:
        if isinstance(database, RoomNotReady):
            self.wait_for_the_room(database, self.start)
            return
        refusals.clear_in_window(self.window)  # a wait for the room said before is over
        self.database = database
        self.window.status_line.setText(_("Database: {url} — sign in to continue").format(url=database.url))
        self.offer_sign_in()
        self.read_ahead_of_sign_in()

    def read_ahead_of_sign_in(self) -> None:
        """While the dealer types their PIN, the table they will most likely resume is read and
        folded on the second worker (nothing held, nothing recorded): the one this machine's desk
        still held when it stopped, else the only table open. Resumed after signing in, it is
        then only taken up (`resume`)."""
        database, desk = self.require_database(), self.desk

        def likely() -> tuple[int, FoldedTable] | None:
            tables = list_open_tables(database)
            here = [t for t in tables if t.holder is not None and t.holder.machine == desk.machine]
            chosen = here if len(here) == 1 else tables if len(tables) == 1 else []
            return (chosen[0].session_id, read_table(database, chosen[0].session_id)) if chosen else None

        def read(found: tuple[int, FoldedTable] | None) -> None:
            if found is not None and self.controller.service is None:
                self.read_ahead[found[0]] = found[1]

        # A read that fails says nothing: the table is read again when it is resumed.
        self.table_reader.run(_("Reading the open tables…"), likely, read, lambda _failure: None)

    def wait_for_the_room(self, not_ready: RoomNotReady, again: Callable[[], None]) -> None:
        """The schema is not this desk's yet (an upgrade its owner has still to run): said, and
        tried again by itself, as the floor does, until the room is ready."""
        said = _("{reason} — this desk tries again every {seconds} seconds by itself").format(
            reason=not_ready, seconds=f"{ROOM_RETRY_SECONDS:g}"
        )
        self.window.status_line.setText(said)
        refusals.show_in_window_and_status(self.window, said)
        self.launch.end()
        QTimer.singleShot(round(ROOM_RETRY_SECONDS * 1000), self, again)

    def offer_sign_in(self) -> None:
        self.launch.end()  # the dealer types their PIN
        database = self.database_or_say()
        if database is None:
            return
        dialog = sign_in_dialog(database, self.runner, self.window, self.on_signed_in)
        dialog.accepted.connect(self.offer_tables)
        self.open_dialog(dialog)

    def on_signed_in(self, account: Account) -> None:
        self.account = account
        self.window.statusBar().showMessage(_("Signed in: {name}").format(name=account.name), 5000)
        if self.controller.service is None:
            self.window.status_line.setText(
                _("Signed in: {name} — no table open yet").format(name=account.name)
            )

    def on_hand_over(self) -> None:
        database, service = self.database_or_say(), self.controller.service
        if database is None or service is None or self.account is None:
            refusals.show_in_window(
                self.window, _("a table is handed over once it is open and a dealer is in")
            )
            return
        outgoing = self.account.name
        self.open_dialog(hand_over_dialog(database, self.runner, self.window, outgoing, self.on_taken_over))

    def on_correct_hand(self) -> None:
        """Table → Correct a settled hand… (docs/rules.md §12)."""
        from ofc_desk.desk.dialogs.correct_hand import CorrectHandDialog

        service = self.controller.service
        if service is None:
            refusals.show_in_window(self.window, _("open or resume a table first"))
            return

        def done(snapshot: TableSnapshot, said: str) -> None:
            self.controller.show_snapshot(snapshot)
            self.controller.show_notice(said)

        self.open_dialog(CorrectHandDialog(service, done, self.window))

    def on_account_task(self, task: str) -> None:
        """Settings → Add an account…, Change an account's role… or PIN…: `task` names the
        `AccountTask` (its dialogs load only when one is first opened)."""
        from ofc_desk.desk.dialogs.accounts import AccountTask, account_dialog

        database = self.database_or_say()
        if database is None:
            return
        done = partial(refusals.show_notice_in_window, self.window)
        self.open_dialog(account_dialog(AccountTask[task], database, self.runner, self.window, done))

    def on_taken_over(self, account: Account) -> None:
        service = self.controller.service
        if service is None:
            return
        outgoing = self.account.name if self.account else _("the dealer")
        try:
            snapshot = service.do(HandOver(account))
        except SERVICE_FAILURES as failure:
            refusals.show_in_window(self.window, dealer_sentence(failure))
            return
        self.account = account
        self.controller.show_snapshot(snapshot)  # the status line names the dealer on duty
        refusals.show_notice_in_window(
            self.window,
            _("{incoming} took over the table from {outgoing}").format(
                incoming=account.name, outgoing=outgoing
            ),
        )

    def offer_tables(self) -> None:
        from ofc_desk.desk.dialogs.text import ChooseTableDialog

        database = self.database_or_say()
        if database is None:
            return
        # The table at this desk last, and chosen only when no other is open: Ctrl+O, Enter must
        # not resume the table the dealer is at (the next Enter would deal a stray hand).
        here = self.controller.service.session_id if self.controller.service is not None else None
        tables = list_open_tables(database)
        self.open_tables = [t for t in tables if t.session_id != here] + [
            t for t in tables if t.session_id == here
        ]
        labels = [open_table_label(table, self.desk) for table in self.open_tables]
        others = any(table.session_id != here for table in self.open_tables)
        dialog = ChooseTableDialog(labels, self.window, selected=0 if others else None)

        def chosen() -> None:
            row = dialog.tables.currentRow()
            if dialog.wants_new_table or row < 0:
                self.on_new_table()
            elif needs_take_over(table := self.open_tables[row], self.desk):
                self.offer_take_over(table)
            else:
                self.resume(table.session_id)

        dialog.accepted.connect(chosen)
        self.open_dialog(dialog)

    # ------------------------------------------------------------------ tables
    def resume(self, session_id: int) -> None:
        """The table resumed off the UI thread: only taken up when it was read ahead."""
        database, actor, desk = self.require_database(), self._actor(), self.desk
        folded = self.read_ahead.pop(session_id, None)
        self.run_in_background(
            _("Resuming the table…"),
            lambda: (
                take_up_table(folded, actor, desk, entries_now=False)
                if folded is not None
                else resume_table(database, session_id, actor, desk, entries_now=False)
            ),
            self.attach_resumed,
        )

    def attach_resumed(self, service: TableService) -> None:
        """A resumed table is shown at once; its entries' marks are checked after, off the UI
        thread (a long session's take a second), and a fault said when found."""
        self.launch.end()
        self.attach(service)
        if self.closed:
            return  # let go, not shown: nothing to check

        def checked(fault: str | None) -> None:
            if fault and self.controller.service is service:
                refusals.show_in_window_and_status(self.window, fault)

        self.run_in_background(_("Resuming the table…"), service.find_foreign_entry, checked)

    def offer_take_over(self, table: OpenTable) -> None:
        """A table live at another desk: a floor supervisor's PIN takes it over to this one."""
        database = self.require_database()
        dialog = take_over_dialog(
            database, self.runner, self.window, table, self._actor(), self.desk, self.attach
        )
        self.open_dialog(dialog)

    def open_new_table(self, setup: TableSetup) -> str | None:
        try:
            service = open_table(self.require_database(), setup, self._actor(), self.desk)
        except SERVICE_FAILURES as failure:
            return dealer_sentence(failure)
        self.attach(service)
        return None

    def attach(self, service: TableService) -> None:
        """The table this desk deals now; the one it held before is let go. A table taken up by
        work answered as the desk closes is let go at once: a closed desk holds nothing."""
        if self.closed:
            release(service)
            return
        self.read_ahead.clear()  # read before signing in: from now on a resume reads anew
        self.let_go()
        self.controller.attach(service)

    def let_go(self) -> None:
        """Let the table held here go (another opened, or the desk closed)."""
        service = self.controller.service
        if service is not None:
            release(service)

    def on_new_table(self) -> None:
        from ofc_desk.desk.dialogs.new_table import NewTableDialog

        if self.account is None:
            self.offer_sign_in()
            return
        dialog = NewTableDialog(self.window)
        dialog.set_attempt(lambda: self.open_new_table(dialog.setup()))
        self.open_dialog(dialog)

    # ------------------------------------------------------------------ display
    def apply_options(self, options: DisplayOptions) -> None:
        self.options = options
        self.store.save(options)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            use_stylesheet(app, options)
        self.window.felt.set_options(options)
        self.window.picker.set_options(options)
        self.window.settlement.set_options(options)
        for command, checked in (
            (Command.FOUR_COLOUR, options.four_colour),
            (Command.DARK, options.theme is ThemeName.DARK),
        ):
            action = self.window.action(command)
            action.blockSignals(True)
            action.setChecked(checked)
            action.blockSignals(False)

    def on_four_colour_toggled(self, checked: bool) -> None:
        self.apply_options(replace(self.options, four_colour=checked))

    def on_dark_toggled(self, checked: bool) -> None:
        self.apply_options(replace(self.options, theme=ThemeName.DARK if checked else ThemeName.LIGHT))

    def on_settings(self) -> None:
        from ofc_desk.desk.dialogs.settings import SettingsDialog

        in_use = self.database.url if self.database else _("(not open yet)")
        dialog = SettingsDialog(self.options, self.store.database_url(), in_use, self.window)

        def save() -> None:
            self.store.save_database_url(dialog.database_url.text().strip())
            self.apply_options(dialog.chosen_options())

        dialog.accepted.connect(save)
        self.open_dialog(dialog)

    def on_keyboard_reference(self) -> None:
        from ofc_desk.desk.dialogs.text import TextDialog
        from ofc_desk.desk.entry.keyboard_help import keyboard_markdown
        from ofc_desk.desk.games import game_at

        snapshot = self.controller.snapshot
        game = None if snapshot is None else game_at(snapshot)
        reference = keyboard_markdown(game, self.service())
        self.open_dialog(TextDialog(_("Keyboard reference"), reference, self.window))

    def on_about(self) -> None:
        from ofc_desk.desk.dialogs.text import TextDialog

        text = str(ABOUT).format(
            version=__version__,
            database=self.database.url if self.database else _("(not open yet)"),
            account=self.account.name if self.account else _("nobody"),
        )
        self.open_dialog(TextDialog(_("About OFC Desk"), text, self.window))

    # ------------------------------------------------------------------ plumbing
    def run_in_background(self, label: str, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        self.runner.run(label, work, done, self.on_background_failed)

    def on_busy_changed(self, label: str) -> None:
        busy = bool(label) or self.runner.busy or self.table_reader.busy
        self.busy.setVisible(busy)
        if label:
            self.window.statusBar().showMessage(label)
        elif not busy:
            self.window.statusBar().clearMessage()

    def on_background_failed(self, message: str) -> None:
        self.launch.end()
        refusals.show_in_window_and_status(self.window, message)

    def on_closing(self) -> None:
        """The workers' answers given now (their runners closed: nothing more starts), then the
        table let go: one they took up meanwhile is not left held by a closed desk."""
        self.closed = True
        self.launch.end()
        self.runner.close()
        self.table_reader.close()
        self.let_go()
        if self.database is not None:
            self.database.dispose()

    def open_dialog(self, dialog: QDialog) -> None:
        if self.closed:
            return  # an answer given as the desk closes (a sign-in offered) asks nothing
        self.active_dialog = dialog
        dialog.finished.connect(lambda _result: self._forget_dialog(dialog))
        dialog.open()

    def _forget_dialog(self, dialog: QDialog) -> None:
        if self.active_dialog is dialog:
            self.active_dialog = None

    def require_database(self) -> Database:
        if self.database is None:
            raise RuntimeError("the database is not open yet")
        return self.database

    def database_or_say(self) -> Database | None:
        """For a menu action that needs the database: None, said to the dealer, rather than acting
        before it opened (a slow network server) or after it could not be opened."""
        if self.database is None:
            refusals.show_in_window(
                self.window,
                _("the database is not open yet: wait for it, or check its URL in Settings and start again"),
            )
        return self.database

    def _actor(self) -> Account | str:
        """The signed-in dealer, whose key (unsealed at sign-in, held for the shift) signs."""
        return self.account if self.account else "dealer"  # an identifier the record keeps, not a word


def release(service: TableService) -> None:
    """The table let go: resumed elsewhere without a supervisor. A database that does not answer
    keeps it held, which a supervisor's takeover ends."""
    with contextlib.suppress(*SERVICE_FAILURES):
        service.release()
