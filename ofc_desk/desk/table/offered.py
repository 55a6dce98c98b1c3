"""What the desk offers now: every menu action and button of a table enabled exactly when the
service would take it (its `can_x`) for some player or hand; what it would refuse is greyed out
(and looks it: the theme's disabled ink), and the reason is on screen when the dealer tries."""

from __future__ import annotations

from ofc_desk.desk.entry.staging import fantasyland_set_due
from ofc_desk.desk.shell.main_window import MainWindow
from ofc_desk.desk.table.floor_requests import may_change_rules, may_correct, may_void
from ofc_desk.service.snapshot import Phase, TableSnapshot
from ofc_desk.service.table_service import TableService


def offer_actions(
    window: MainWindow, service: TableService | None, snapshot: TableSnapshot | None, *, staged: bool
) -> None:
    can_deal = service is not None and service.can_start_next_hand()
    window.action_deal.setEnabled(can_deal)
    window.between_hands.deal_button.setEnabled(can_deal)
    can_settle = service is not None and service.can_confirm_settlement()
    window.settlement.confirm_button.setEnabled(can_settle)
    window.settlement.hold_button.setEnabled(can_settle)
    # A staged card is taken back by the desk itself, without the service.
    window.action_undo.setEnabled(staged or (service is not None and service.can_undo()))
    # F6 at a set's turn opens it; earlier in the hand it says when it comes.
    window.action_fantasyland_set.setEnabled(service is not None and fantasyland_set_due(snapshot))
    open_table = service is not None and snapshot is not None and snapshot.phase is not Phase.CLOSED
    window.action_hand_over.setEnabled(open_table)
    _offer_chip_actions(window, service, snapshot)


def _offer_chip_actions(
    window: MainWindow, service: TableService | None, snapshot: TableSnapshot | None
) -> None:
    """Join, rebuy, cash-out, sit out and in, and the supervisor's actions (before the PIN is
    asked): offered when the service's `can_x` would take them for some player or hand now."""
    names = [seat.name for seat in snapshot.seats] if snapshot and service else []
    offered = {
        "Join": service is not None and service.can_join(),
        "Rebuy": service is not None and any(service.can_rebuy(name) for name in names),
        "Cash out": service is not None and any(service.can_cash_out(name) for name in names),
        "Sit out": service is not None and any(service.can_sit_out(name) for name in names),
        "Sit in": service is not None and any(service.can_sit_in(name) for name in names),
    }
    actions = {
        "Join": window.action_join,
        "Rebuy": window.action_rebuy,
        "Cash out": window.action_cash_out,
        "Sit out": window.action_sit_out,
        "Sit in": window.action_sit_in,
    }
    for caption, enabled in offered.items():
        actions[caption].setEnabled(enabled)
        window.between_hands.chip_buttons[caption].setEnabled(enabled)
    # Offered with a PIN between hands, or to be asked of the floor while a hand is dealt.
    supervised = {
        window.action_void: service is not None and snapshot is not None and may_void(service, snapshot),
        window.action_correct: service is not None
        and snapshot is not None
        and may_correct(service, snapshot),
        window.action_change_rules: service is not None and may_change_rules(service),
        window.action_close_table: service is not None and service.can_close_session(),
    }
    for action, enabled in supervised.items():
        action.setEnabled(enabled)
