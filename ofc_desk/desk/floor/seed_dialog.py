"""Table → Seed the jackpot… in the floor view: a floor supervisor adds the house's chips to the
room's jackpot pool (docs/rules.md §11), with their name and PIN. The seed is recorded between hands
in the chain of the open table chosen, signed with the supervisor's key; every table that pays an
award pays it from the same pool.

The PIN check and the write run off the UI thread; a refusal (a wrong PIN, a table in the middle of
a hand) is the service's sentence, said in the dialog, which stays open."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtWidgets import QWidget

from ofc_desk.desk.actions import DEFAULT_SEED
from ofc_desk.desk.dialogs.attempt import Report, SupervisorDialog, run_and_say
from ofc_desk.desk.shell.worker import BackgroundRunner
from ofc_desk.i18n import _
from ofc_desk.service.oversight.floor_decisions import seed_at_the_floor
from ofc_desk.service.oversight.floor_kept import FloorTable
from ofc_desk.storage.database import Database


def seed_dialog(
    database: Database,
    tables: Sequence[FloorTable],
    runner: BackgroundRunner,
    parent: QWidget,
    said: Callable[[str], None],
) -> SupervisorDialog:
    dialog = SupervisorDialog(
        _("Seed the jackpot"),
        _(
            "The house's chips go into the room's jackpot pool at once, for every table that pays an"
            " award from it. The seed is recorded between hands at the table chosen and signed with"
            " your key."
        ),
        parent,
    )
    choice = dialog.add_choice(_("Recorded at"), [table.snapshot.table for table in tables])
    chips = dialog.add_amount(_("Chips from the house"), DEFAULT_SEED, minimum=1)

    def begin(report: Report) -> None:
        if not tables:
            report(_("no table is open: a seed is recorded at an open table, between hands"))
            return
        session_id = tables[choice.currentIndex()].session_id
        amount, name, code = chips.value(), dialog.supervisor.text().strip(), dialog.pin.text()

        def seed() -> str:
            return seed_at_the_floor(database, session_id, amount, name, code)

        run_and_say(runner, _("Recording the seed…"), seed, report, said)

    dialog.set_background_attempt(begin)
    return dialog
