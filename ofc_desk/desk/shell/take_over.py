"""Taking over a table live at another desk (issue 34): the Open a table list says where each
table is live, since when and by whom, and resuming one held at another machine asks a floor
supervisor's PIN; the service records the takeover as a hand-over and the other desk goes
read-only (`service.room.desk_holds`). The PIN is checked on the worker thread (it is slow on purpose)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QWidget

from ofc_desk.desk.dialogs.attempt import AttemptDialog, Report, run_and_say
from ofc_desk.desk.shell.worker import BackgroundRunner
from ofc_desk.i18n import _, ngettext
from ofc_desk.service.front.table_service import Dealer, TableService
from ofc_desk.service.room.desk_holds import ThisDesk
from ofc_desk.service.store.records import OpenTable
from ofc_desk.storage.database import Database

Taken = Callable[[TableService], None]


def open_table_label(table: OpenTable, desk: ThisDesk) -> str:
    """A table offered for resuming, in the chooser's list: where it is live, if at another desk."""
    settled = ngettext("{count} hand settled", "{count} hands settled", table.hands_settled)
    label = _("{table} — {settled}, last action {when}").format(
        table=table.table, settled=settled.format(count=table.hands_settled), when=table.last_event_at
    )
    if table.holder is None or not table.holder.is_elsewhere(desk):
        return label
    return _("{table} ({holder}: a floor supervisor takes it over)").format(
        table=label, holder=table.holder.words()
    )


def needs_take_over(table: OpenTable, desk: ThisDesk) -> bool:
    return table.holder is not None and table.holder.is_elsewhere(desk)


def take_over_dialog(
    database: Database,
    runner: BackgroundRunner,
    parent: QWidget,
    table: OpenTable,
    dealer: Dealer,
    desk: ThisDesk,
    taken: Taken,
) -> AttemptDialog:
    """A floor supervisor's name and PIN take `table` over to this desk for `dealer`."""
    assert table.holder is not None
    dialog = AttemptDialog(
        _("Take the table over"),
        _(
            "{table} is {holder}. A floor supervisor takes it over to deal it here: it is recorded as"
            " a hand-over, and that desk can no longer record anything at this table."
        ).format(table=table.table, holder=table.holder.words()),
        parent,
    )
    supervisor = dialog.add_line(_("Supervisor"))
    pin = dialog.add_line(_("Supervisor PIN"), secret=True)

    def work() -> TableService:
        # A refusal (`ActionRefused`) reaches the dialog in its own words (`background_sentence`).
        return TableService.take_over(database, table.session_id, dealer, desk, supervisor.text(), pin.text())

    def start(report: Report) -> None:
        run_and_say(runner, _("Checking the PIN…"), work, report, taken)

    dialog.set_background_attempt(start)
    return dialog
