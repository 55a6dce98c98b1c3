"""Chip operations and the supervisor-guarded actions: each a small dialog built from its
`ActionDialog` (`desk/actions.py`), whose OK asks the service, shows a refusal inline in the dialog,
and redraws the table when the service accepts."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QComboBox, QLineEdit, QSpinBox

from ofc_desk.core.settlement import MAX_CHIPS
from ofc_desk.desk.action_parts import (
    ActionDialog,
    CommandOf,
    Field,
    FieldKind,
    FloorAsk,
    Said,
    Seated,
    Values,
)
from ofc_desk.desk.actions import DESK_ACTIONS
from ofc_desk.desk.dialogs.attempt import AttemptDialog, SupervisorDialog
from ofc_desk.desk.dialogs.chip_amount import ChipAmountEdit
from ofc_desk.desk.entry.staging import seat_map
from ofc_desk.desk.refusals import SERVICE_FAILURES, dealer_sentence
from ofc_desk.desk.table.controller import TableController
from ofc_desk.i18n import _
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.table.commands import Request
from ofc_desk.service.terms.snapshot import Phase, TableSnapshot

if TYPE_CHECKING:  # the New table's dialog loads when a change of rules is first asked for
    from ofc_desk.desk.dialogs.new_table import RulesFields

SETTLED_PHASES = (Phase.SETTLED, Phase.BETWEEN_HANDS, Phase.CLOSED)
ReadValues = Callable[[], Values]
"""What the dialog's fields hold now."""


class ChipActions(QObject):
    def __init__(self, controller: TableController) -> None:
        super().__init__(controller)
        self.controller = controller
        self.active_dialog: AttemptDialog | None = None
        for action in DESK_ACTIONS:
            if action.dialog is not None:
                opened = controller.window.action(action.key)
                opened.triggered.connect(lambda _checked=False, form=action.dialog: self.open(form))

    def open(self, form: ActionDialog) -> None:
        """The action's dialog, its fields filled from the table as it is now."""
        controller = self.controller
        service = controller.service
        if service is None:
            controller.show_refusal(_("open or resume a table first"))
            return
        kind = SupervisorDialog if form.supervised else AttemptDialog
        dialog = kind(str(form.title), str(form.explanation), controller.window)
        read = self._add_fields(dialog, form.fields, service)
        if isinstance(dialog, SupervisorDialog) and form.ask_the_floor is not None:
            self._ask_the_floor(dialog, form.command, form.ask_the_floor, read)
        dialog.set_attempt(self._attempt(form.command, form.said, read))
        dialog.finished.connect(lambda _result: self._forget(dialog))
        self.active_dialog = dialog
        dialog.open()

    def _add_fields(
        self, dialog: AttemptDialog, fields: tuple[Field, ...], service: TableService
    ) -> ReadValues:
        """Each field, top to bottom; and how to read them all when the dialog is done."""
        snapshot = self.controller.snapshot
        shown = _ShownFields(dialog)
        for field in fields:
            caption = str(field.label or "")  # only the rules fields have none: they have their own
            if field.kind is FieldKind.TEXT:
                shown.texts[field.key] = dialog.add_line(caption)
            elif field.kind in (FieldKind.CHIPS, FieldKind.SIGNED_CHIPS):
                minimum = -MAX_CHIPS if field.kind is FieldKind.SIGNED_CHIPS else 0
                shown.numbers[field.key] = dialog.add_amount(caption, field.default, minimum=minimum)
            elif field.kind is FieldKind.PLAYER:
                shown.players[field.key] = dialog.add_choice(caption, _players(snapshot, field.seated))
            elif field.kind is FieldKind.FREE_SEAT:
                shown.seat = dialog.add_choice(caption, [])
                for number in service.free_seats():
                    shown.seat.addItem(empty_seat_words(number, seat_map(snapshot)), number)
            elif field.kind is FieldKind.SETTLED_HAND:
                last = max(1, _last_settled_hand(snapshot))
                shown.numbers[field.key] = dialog.add_count(caption, last, minimum=1, maximum=last)
            else:
                from ofc_desk.desk.dialogs.new_table import RulesFields

                shown.rules = RulesFields(dialog, service.rules, keep_game=True)
        return shown.read

    def _attempt(self, command: CommandOf, said: Said, read: ReadValues) -> Callable[[], str | None]:
        def attempt() -> str | None:
            service = self.controller.service
            if service is None:
                return _("no table is open")
            values = read()
            before = service.snapshot()
            try:
                snapshot = service.do(command(values))
            except SERVICE_FAILURES as failure:
                self.controller.refresh()
                return dealer_sentence(failure)
            self.controller.show_snapshot(snapshot)
            self.controller.show_notice(said(values, before, snapshot))
            return None

        return attempt

    def _ask_the_floor(
        self, dialog: SupervisorDialog, command: CommandOf, ask: FloorAsk, read: ReadValues
    ) -> None:
        """The dialog's "Ask the floor": the same action as a request, with the dialog's reason."""

        def request(values: Values) -> Request:
            return Request(command(values), values.text(ask.reason))

        def said(_values: Values, _before: TableSnapshot, after: TableSnapshot) -> str:
            number = after.open_requests[-1].number if after.open_requests else 0
            return _(
                "Asked the floor (request #{number}): deal on; once approved it is done between hands"
            ).format(number=number)

        dialog.offer_floor_request(self._attempt(request, said, read))

    def _forget(self, dialog: AttemptDialog) -> None:
        if self.active_dialog is dialog:
            self.active_dialog = None
        dialog.deleteLater()


class _ShownFields:
    """A dialog's fields by key, as they were added, read into `Values` when it is done."""

    def __init__(self, dialog: AttemptDialog) -> None:
        self.dialog = dialog
        self.texts: dict[str, QLineEdit] = {}
        self.players: dict[str, QComboBox] = {}
        self.numbers: dict[str, ChipAmountEdit | QSpinBox] = {}
        self.seat: QComboBox | None = None
        self.rules: RulesFields | None = None

    def read(self) -> Values:
        dialog = self.dialog
        return Values(
            texts={key: line.text().strip() for key, line in self.texts.items()}
            | {key: box.currentText() for key, box in self.players.items()},
            numbers={key: number.value() for key, number in self.numbers.items()},
            seat=self.seat.currentData() if self.seat is not None else None,
            rules=self.rules.rules() if self.rules is not None else None,
            supervisor=dialog.supervisor.text().strip() if isinstance(dialog, SupervisorDialog) else "",
            pin=dialog.pin.text() if isinstance(dialog, SupervisorDialog) else "",
        )


def _players(snapshot: TableSnapshot | None, seated: Seated) -> list[str]:
    """The seated players; only those who are (or are not) sitting out, if `seated` says so."""
    seats = snapshot.seats if snapshot else ()
    wanted = {Seated.PLAYING: False, Seated.SITTING_OUT: True}.get(seated)
    return [seat.name for seat in seats if wanted is None or seat.sitting_out is wanted]


def empty_seat_words(number: int, seats: dict[int, str]) -> str:
    """ "Seat 2, between Ann and Cy": where a newcomer at that seat sits, clockwise."""
    players = [(n, name) for n, name in sorted(seats.items()) if name and n != number]
    if not players:
        return _("Seat {number}").format(number=number)
    before = [name for n, name in players if n < number] or [players[-1][1]]
    after = [name for n, name in players if n > number] or [players[0][1]]
    if before[-1] == after[0]:
        return _("Seat {number}, beside {player}").format(number=number, player=after[0])
    return _("Seat {number}, between {left} and {right}").format(
        number=number, left=before[-1], right=after[0]
    )


def _last_settled_hand(snapshot: TableSnapshot | None) -> int:
    """The hand a void most likely means: the one just settled (the hand on the felt between
    hands), else the one before the hand being dealt."""
    if snapshot is None:
        return 0
    return snapshot.hand_number if snapshot.phase in SETTLED_PHASES else snapshot.hand_number - 1
