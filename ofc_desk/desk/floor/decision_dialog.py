"""Table → Decide a request… in the floor view: the supervisor picks a table's request, gives
their name and PIN and a note, and approves or declines it. The decision goes into that table's
chain, signed with the supervisor's key; the desk carries out an approved action between hands.

The PIN check and the write run off the UI thread; a refusal (a wrong PIN, a request the desk's
supervisor decided first) is said in the dialog, which stays open."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtWidgets import QDialogButtonBox, QWidget

from ofc_desk.desk.dialogs.attempt import AttemptDialog, Report, run_and_say
from ofc_desk.desk.shell.worker import BackgroundRunner
from ofc_desk.i18n import _, lazy_gettext
from ofc_desk.service.oversight.floor_decisions import decide_at_the_floor
from ofc_desk.service.oversight.floor_kept import FloorTable
from ofc_desk.storage.database import Database

NOTHING_WAITING = lazy_gettext("(no request is waiting for the floor)")


def waiting_requests(tables: Sequence[FloorTable]) -> list[tuple[str, int, int]]:
    """Each request waiting for a decision: what the list shows, its table's session and number."""
    return [
        (f"{table.snapshot.table} · {request.line}", table.session_id, request.number)
        for table in tables
        for request in table.open_requests
        if request.waiting
    ]


def decision_dialog(
    database: Database,
    tables: Sequence[FloorTable],
    runner: BackgroundRunner,
    parent: QWidget,
    said: Callable[[str], None],
) -> AttemptDialog:
    dialog = AttemptDialog(
        _("Decide a request"),
        _(
            "Approve or decline a request a desk sent. An approved void, correction or rules change is"
            " carried out by the desk between hands; the decision is signed with your key."
        ),
        parent,
    )
    waiting = waiting_requests(tables)
    choice = dialog.add_choice(
        _("Request"), [label for label, _session, _number in waiting] or [str(NOTHING_WAITING)]
    )
    supervisor = dialog.add_line(_("Supervisor"))
    pin = dialog.add_line(_("Supervisor PIN"), secret=True)
    note = dialog.add_line(_("Note (optional)"))
    approve = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    approve.setText(_("Approve"))
    approve.setAccessibleName(_("Approve"))
    decline = dialog.buttons.addButton(_("Decline"), QDialogButtonBox.ButtonRole.ActionRole)
    decline.setAccessibleName(_("Decline"))

    def begin(approved: bool, report: Report) -> None:
        if not waiting:
            report(_("no request is waiting for the floor"))
            return
        _label, session_id, number = waiting[choice.currentIndex()]
        name, code, words = supervisor.text().strip(), pin.text(), note.text().strip()

        def decide() -> str:
            return decide_at_the_floor(database, session_id, number, approved, name, code, words)

        run_and_say(runner, _("Recording the decision…"), decide, report, said)

    dialog.set_background_attempt(lambda report: begin(True, report))
    decline.clicked.connect(lambda: dialog.try_in_background(lambda report: begin(False, report)))
    return dialog
