"""What the desk offers now: every menu action of a table (and its between-hands button, tied to it)
enabled exactly when the service would take it (`can` of its command, said with each action in
`desk/actions.py`) for some player or hand; what it would refuse is greyed out (and looks it: the
theme's disabled ink), and the reason is on screen when the dealer tries."""

from __future__ import annotations

from ofc_desk.desk.action_parts import TableNow
from ofc_desk.desk.actions import DESK_ACTIONS
from ofc_desk.desk.shell.main_window import MainWindow
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.table.commands import Settle
from ofc_desk.service.terms.snapshot import TableSnapshot


def offer_actions(
    window: MainWindow, service: TableService | None, snapshot: TableSnapshot | None, *, staged: bool
) -> None:
    can_settle = service is not None and service.can(Settle())
    window.settlement.confirm_button.setEnabled(can_settle)
    window.settlement.hold_button.setEnabled(can_settle)
    now = TableNow(service, snapshot, staged)
    for action in DESK_ACTIONS:
        if action.enabled is not None:
            window.action(action.key).setEnabled(action.enabled(now))
