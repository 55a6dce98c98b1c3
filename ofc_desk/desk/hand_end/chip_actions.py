"""Chip operations and the supervisor-guarded actions: each a small dialog whose OK asks the
service, shows a refusal inline in the dialog, and redraws the table when the service accepts."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLineEdit

from ofc_desk.core.settlement import MAX_CHIPS
from ofc_desk.desk.dialogs.attempt import AttemptDialog, SupervisorDialog
from ofc_desk.desk.dialogs.new_table import RulesFields
from ofc_desk.desk.entry.staging import seat_map
from ofc_desk.desk.refusals import SERVICE_FAILURES, dealer_sentence
from ofc_desk.desk.shell.main_window import MainWindow
from ofc_desk.desk.table.controller import TableController
from ofc_desk.service.events import EventKind
from ofc_desk.service.payloads import RawPayload
from ofc_desk.service.setup import TableRules
from ofc_desk.service.snapshot import Phase, TableSnapshot
from ofc_desk.service.table_service import TableService

Said = Callable[[TableSnapshot, TableSnapshot], str]
"""What was done, in words, from the table before and after: the confirmation line."""
SETTLED_PHASES = (Phase.SETTLED, Phase.BETWEEN_HANDS, Phase.CLOSED)
ServiceCall = Callable[[TableService], TableSnapshot]


class ChipActions(QObject):
    def __init__(self, controller: TableController) -> None:
        super().__init__(controller)
        self.controller = controller
        self.active_dialog: AttemptDialog | None = None
        window = controller.window
        for action, handler in (
            (window.action_join, self.on_join),
            (window.action_rebuy, self.on_rebuy),
            (window.action_cash_out, self.on_cash_out),
            (window.action_sit_out, self.on_sit_out),
            (window.action_sit_in, self.on_sit_in),
            (window.action_void, self.on_void),
            (window.action_correct, self.on_correct),
            (window.action_change_rules, self.on_change_rules),
            (window.action_close_table, self.on_close_table),
        ):
            action.triggered.connect(handler)
        buttons = window.between_hands.chip_buttons
        buttons["Join"].clicked.connect(self.on_join)
        buttons["Rebuy"].clicked.connect(self.on_rebuy)
        buttons["Cash out"].clicked.connect(self.on_cash_out)
        buttons["Sit out"].clicked.connect(self.on_sit_out)
        buttons["Sit in"].clicked.connect(self.on_sit_in)

    # ------------------------------------------------------------------ chip operations
    def on_join(self) -> None:
        dialog = AttemptDialog("Join the table", "A new player buys in to an empty seat.", self._parent())
        name = dialog.add_line("Player name")
        buy_in = dialog.add_amount("Buy-in (chips)", 100)
        seat = dialog.add_choice("Seat", [])
        service, snapshot = self.controller.service, self.controller.snapshot
        for number in service.free_seats() if service else ():
            seat.addItem(empty_seat_words(number, seat_map(snapshot)), number)

        def join(service: TableService) -> TableSnapshot:
            return service.join(name.text().strip(), buy_in.value(), seat=seat.currentData())

        self._open(
            dialog,
            join,
            lambda _b, _a: (
                f"{name.text().strip()} joined at seat {seat.currentData()} with {buy_in.value()} chips"
            ),
        )

    def on_rebuy(self) -> None:
        dialog = AttemptDialog("Rebuy", "A rebuy or top-up, between hands.", self._parent())
        player = dialog.add_choice("Player", self._players())
        amount = dialog.add_amount("Chips", 100)
        self._open(
            dialog,
            lambda service: service.rebuy(player.currentText(), amount.value()),
            lambda _before, after: (
                f"{player.currentText()} rebought {amount.value()} chips: "
                f"stack now {after.seat(player.currentText()).stack}"
            ),
        )

    def on_cash_out(self) -> None:
        dialog = AttemptDialog("Cash out", "The player leaves with their whole stack.", self._parent())
        player = dialog.add_choice("Player", self._players())
        self._open(
            dialog,
            lambda service: service.cash_out(player.currentText()),
            lambda before, _after: (
                f"{player.currentText()} cashed out "
                f"{before.seat(player.currentText()).stack} chips and left the table"
            ),
        )

    def on_sit_out(self) -> None:
        dialog = AttemptDialog("Sit out", "The player keeps the seat but is not dealt in.", self._parent())
        player = dialog.add_choice("Player", self._players(sitting_out=False))
        self._open(
            dialog,
            lambda service: service.sit_out(player.currentText()),
            lambda _before, _after: f"{player.currentText()} sits out: not dealt in from the next hand",
        )

    def on_sit_in(self) -> None:
        dialog = AttemptDialog("Sit in", "The player is dealt in again from the next hand.", self._parent())
        player = dialog.add_choice("Player", self._players(sitting_out=True))
        self._open(
            dialog,
            lambda service: service.sit_in(player.currentText()),
            lambda _before, _after: f"{player.currentText()} sits in: dealt in from the next hand",
        )

    # ------------------------------------------------------------------ supervisor actions
    def on_void(self) -> None:
        dialog = SupervisorDialog(
            "Void a settled hand",
            "The hand's transfers are reversed by a new record; nothing is erased. "
            "A floor supervisor must authorise it.",
            self._parent(),
        )
        last = _last_settled_hand(self.controller.snapshot)
        number = dialog.add_count("Hand number", max(1, last), minimum=1, maximum=max(1, last))
        reason = dialog.add_line("Reason")

        def details() -> RawPayload:
            return {"hand": number.value(), "reason": reason.text().strip()}

        self._ask_the_floor(dialog, EventKind.HAND_VOIDED, details, reason)
        self._open(
            dialog,
            lambda service: service.void_hand(
                number.value(), dialog.supervisor.text().strip(), dialog.pin.text(), reason.text().strip()
            ),
            lambda _before, _after: (
                f"Hand {number.value()} voided by {dialog.supervisor.text().strip()}:"
                " its chip transfers are reversed"
            ),
        )

    def on_correct(self) -> None:
        dialog = SupervisorDialog(
            "Correct chips",
            "Add (positive) or remove (negative) chips from a stack, with a reason.",
            self._parent(),
        )
        player = dialog.add_choice("Player", self._players())
        amount = dialog.add_amount("Chips (+/−)", 0, minimum=-MAX_CHIPS)
        reason = dialog.add_line("Reason")

        def details() -> RawPayload:
            return {"player": player.currentText(), "amount": amount.value(), "reason": reason.text().strip()}

        self._ask_the_floor(dialog, EventKind.CHIPS_CORRECTED, details, reason)
        self._open(
            dialog,
            lambda service: service.correct_chips(
                player.currentText(), amount.value(), reason.text().strip(),
                dialog.supervisor.text().strip(), dialog.pin.text(),
            ),
            lambda _before, after: f"{player.currentText()}'s stack corrected by {amount.value():+}: "
            f"now {after.seat(player.currentText()).stack}",
        )  # fmt: skip

    def on_change_rules(self) -> None:
        dialog = SupervisorDialog(
            "Change rules or stakes",
            "The new rules and stakes apply from the next hand; they can be changed only between "
            "hands. A floor supervisor must authorise it.",
            self._parent(),
        )
        service = self.controller.service
        fields = RulesFields(dialog, service.rules if service else TableRules(), keep_game=True)
        reason = dialog.add_line("Reason (asked of the floor)")

        def details() -> RawPayload:
            current = self.controller.service
            return {"rules": fields.rules().pinned(current.rules if current else TableRules()).to_json()}

        self._ask_the_floor(dialog, EventKind.RULES_CHANGED, details, reason)
        self._open(
            dialog,
            lambda service: service.change_rules(
                fields.rules(), dialog.supervisor.text().strip(), dialog.pin.text()
            ),
            lambda _before, _after: "New rules and stakes: they apply from the next hand",
        )

    def on_close_table(self) -> None:
        dialog = SupervisorDialog(
            "Close the table",
            "Nothing can be entered at this table afterwards. A floor supervisor must authorise it.",
            self._parent(),
        )
        self._open(
            dialog,
            lambda service: service.close_session(dialog.supervisor.text().strip(), dialog.pin.text()),
            lambda _before, _after: "The table is closed",
        )

    # ------------------------------------------------------------------ plumbing
    def _open(self, dialog: AttemptDialog, call: ServiceCall, said: Said) -> None:
        if self.controller.service is None:
            self.controller.show_refusal("open or resume a table first")
            dialog.deleteLater()
            return
        dialog.set_attempt(self._attempt(call, said))
        dialog.finished.connect(lambda _result: self._forget(dialog))
        self.active_dialog = dialog
        dialog.open()

    def _attempt(self, call: ServiceCall, said: Said) -> Callable[[], str | None]:
        def attempt() -> str | None:
            service = self.controller.service
            if service is None:
                return "no table is open"
            before = service.snapshot()
            try:
                snapshot = call(service)
            except SERVICE_FAILURES as failure:
                self.controller.refresh()
                return dealer_sentence(failure)
            self.controller.show_snapshot(snapshot)
            self.controller.show_notice(said(before, snapshot))
            return None

        return attempt

    def _ask_the_floor(
        self,
        dialog: SupervisorDialog,
        action: EventKind,
        details: Callable[[], RawPayload],
        reason: QLineEdit,
    ) -> None:
        """The dialog's "Ask the floor": the same action as a request, with the dialog's reason."""

        def request(service: TableService) -> TableSnapshot:
            return service.request(action, details(), reason.text().strip())

        def said(_before: TableSnapshot, after: TableSnapshot) -> str:
            number = after.open_requests[-1].number if after.open_requests else 0
            return f"Asked the floor (request #{number}): deal on; once approved it is done between hands"

        dialog.offer_floor_request(self._attempt(request, said))

    def _forget(self, dialog: AttemptDialog) -> None:
        if self.active_dialog is dialog:
            self.active_dialog = None
        dialog.deleteLater()

    def _players(self, *, sitting_out: bool | None = None) -> list[str]:
        """The seated players; with `sitting_out`, only those who are (or are not) sitting out."""
        snapshot = self.controller.snapshot
        seats = snapshot.seats if snapshot else ()
        return [seat.name for seat in seats if sitting_out is None or seat.sitting_out is sitting_out]

    def _parent(self) -> MainWindow:
        return self.controller.window


def empty_seat_words(number: int, seats: dict[int, str]) -> str:
    """ "Seat 2, between Ann and Cy": where a newcomer at that seat sits, clockwise."""
    players = [(n, name) for n, name in sorted(seats.items()) if name and n != number]
    if not players:
        return f"Seat {number}"
    before = [name for n, name in players if n < number] or [players[-1][1]]
    after = [name for n, name in players if n > number] or [players[0][1]]
    if before[-1] == after[0]:
        return f"Seat {number}, beside {after[0]}"
    return f"Seat {number}, between {before[-1]} and {after[0]}"


def _last_settled_hand(snapshot: TableSnapshot | None) -> int:
    """The hand a void most likely means: the one just settled (the hand on the felt between
    hands), else the one before the hand being dealt."""
    if snapshot is None:
        return 0
    return snapshot.hand_number if snapshot.phase in SETTLED_PHASES else snapshot.hand_number - 1
