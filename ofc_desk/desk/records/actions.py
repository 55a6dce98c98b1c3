"""File → Session report, Table-close report and Verify; View → Hand history, Chip ledger, Audit
log. Reading the records runs on the worker thread; the windows stay open between readings."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog

from ofc_desk.desk import refusals
from ofc_desk.desk.action_parts import Handler
from ofc_desk.desk.actions import Command, Submenu
from ofc_desk.desk.dialogs.attempt import SupervisorDialog
from ofc_desk.desk.shell.main_window import MainWindow
from ofc_desk.i18n import Language, _, lazy_gettext
from ofc_desk.service import audit_log, chip_ledger, hand_history
from ofc_desk.service.front.table_service import TableService
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, SignInError, sign_in

if TYPE_CHECKING:  # the record views and verify load when first asked for, not at the desk's start
    from ofc_desk.desk.records.browser import Details, RecordBrowser
    from ofc_desk.desk.records.models import RecordTableModel

NO_TABLE = lazy_gettext("open or resume a table first")


class SessionServices(Protocol):
    """What the record actions need of the desk's session (`DeskSession`)."""

    @property
    def window(self) -> MainWindow: ...

    def require_database(self) -> Database: ...

    def database_or_say(self) -> Database | None:
        """The database, or None said to the dealer (not open yet)."""
        ...

    def open_dialog(self, dialog: QDialog) -> None: ...

    def run_in_background(self, label: str, work: Callable[[], Any], done: Callable[[Any], None]) -> None: ...

    def service(self) -> TableService | None:
        """The table open now, if any."""
        ...


class RecordActions(QObject):
    def __init__(self, session: SessionServices) -> None:
        super().__init__(session.window)
        self.session = session
        self.browsers: dict[str, RecordBrowser] = {}
        report_language = session.window.submenus[Submenu.REPORT_LANGUAGE]
        for language in (Language.EN, Language.RU, Language.VI, Language.ZH_CN):
            in_language = report_language.addAction(language.native_name)
            in_language.triggered.connect(lambda checked=False, chosen=language: self.on_report(chosen))

    def handlers(self) -> dict[Command, Handler]:
        """The menu commands the records answer: reports, verify, the record views."""
        return {
            Command.REPORT: lambda: self.on_report(),
            Command.CLOSE_REPORT: self.on_close_report,
            Command.VERIFY: self.on_verify,
            Command.HISTORY: self.on_history,
            Command.LEDGER: self.on_ledger,
            Command.AUDIT: self.on_audit,
        }

    def on_report(self, language: Language | None = None) -> None:
        """The session report, in `language` if one was chosen from File → Session report in."""
        service = self._service_or_say()
        if service is None:
            return
        try:
            from ofc_desk.desk.records.report_actions import open_session_report
        except ImportError:
            self._refuse(_("session reports are not available in this build"))
            return
        url = self.session.require_database().url
        open_session_report(
            self.session.window,
            url,
            service.session_id,
            refuse=self._refuse,
            language=language,
            table=service.snapshot().table,
        )

    def on_close_report(self) -> None:
        """The one-page chip reconciliation: the supervisor enters the chips counted on the table."""
        service = self._service_or_say()
        if service is None:
            return
        from ofc_desk.desk.records.report_actions import open_table_close_report

        window = self.session.window
        dialog = SupervisorDialog(
            _("Table-close report"),
            _(
                "Count the chips on the table; the report sets them against the chips the session says "
                "should be there and flags any difference. The floor supervisor who counted signs with "
                "their PIN."
            ),
            window,
        )
        counted = dialog.add_amount(_("Chips counted on the table"))
        database = self.session.require_database()
        url, session_id = database.url, service.session_id

        def build() -> str | None:
            try:
                supervisor = sign_in(database, dialog.supervisor.text(), dialog.pin.text(), Role.SUPERVISOR)
            except SignInError as error:
                return str(error)
            open_table_close_report(
                window,
                url,
                session_id,
                counted.value(),
                refuse=self._refuse,
                counted_by=supervisor.name,
                table=service.snapshot().table,
            )
            return None

        dialog.set_attempt(build)
        self.session.open_dialog(dialog)

    def on_verify(self) -> None:
        """Every hash, event, hand and ledger row checked again, off the UI thread."""
        from ofc_desk.service.audit.verify import VerifyFault, verify_database

        database = self.session.database_or_say()
        if database is None:
            return

        def verify() -> str:
            try:
                return verify_database(database).line()
            except VerifyFault as fault:
                return _("VERIFY FAILED: {fault}").format(fault=fault)

        def show(line: str) -> None:
            from ofc_desk.desk.dialogs.text import TextDialog

            heading = _("Verify")
            text = f"# {heading}\n\n{line}\n"
            self.session.open_dialog(TextDialog(_("Verify the database"), text, self.session.window))

        self.session.run_in_background(_("Verifying the database…"), verify, show)

    def on_history(self) -> None:
        from ofc_desk.desk.records.models import HandHistoryModel

        self._browse(_("Hand history"), HandHistoryModel, hand_history)

    def on_ledger(self) -> None:
        from ofc_desk.desk.records.models import LedgerModel

        self._browse(_("Chip ledger"), LedgerModel, chip_ledger)

    def on_audit(self) -> None:
        from ofc_desk.desk.records.models import AuditModel, raw_event_text

        self._browse(_("Audit log"), AuditModel, audit_log, raw_event_text)

    def _browse(
        self,
        title: str,
        model_type: type[RecordTableModel[Any]],
        read: Callable[[Database, int], Sequence[Any]],
        details: Details | None = None,
    ) -> None:
        from ofc_desk.desk.records.browser import RecordBrowser
        from ofc_desk.desk.records.models import RecordTableModel

        service = self._service_or_say()
        if service is None:
            return
        browser = self.browsers.get(title)
        if browser is None:
            browser = RecordBrowser(title, model_type(self), self.session.window, details)
            self.browsers[title] = browser
        database, session_id = self.session.require_database(), service.session_id

        def show(records: Sequence[Any]) -> None:
            model = browser.model
            assert isinstance(model, RecordTableModel)
            model.set_records(records)
            browser.show()
            browser.raise_()

        label = _("Reading the {records}…").format(records=title.lower())
        self.session.run_in_background(label, lambda: read(database, session_id), show)

    def _service_or_say(self) -> TableService | None:
        service = self.session.service()
        if service is None:
            self._refuse(str(NO_TABLE))
        return service

    def _refuse(self, sentence: str) -> None:
        refusals.show_in_window_and_status(self.session.window, sentence)
