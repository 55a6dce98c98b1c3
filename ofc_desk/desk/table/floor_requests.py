"""The desk's side of requests to the floor: the line that lists the open requests, and the watch
that folds in the floor's decisions (once a second, one cheap query) and carries out an approved
action between hands. Which supervisor's actions may at least be asked of the floor now is said
with each action (`desk/actions.py`).

The desk deals on while a request waits; nothing here decides a rule: the service says what may be
asked, what the floor decided, and records what was approved (`TableService.carry_out_approved`).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

from ofc_desk.desk.refusals import SERVICE_FAILURES, dealer_sentence
from ofc_desk.desk.table.table_view import ServiceGetter, TableView
from ofc_desk.i18n import _, lazy_gettext
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.terms.snapshot import TableSnapshot

WATCH_MS = 1000
BACK = lazy_gettext(
    "the database answers again: the table shows what is stored — do again what was not recorded"
)


def requests_text(snapshot: TableSnapshot) -> str:
    if not snapshot.open_requests:
        return ""
    lines = "  ·  ".join(request.line for request in snapshot.open_requests)
    return _("Requests to the floor: {requests}").format(requests=lines)


class FloorRequestWatch(QObject):
    """Folds in what the floor decided at this table and carries out approved actions between
    hands; says each in the notice line."""

    def __init__(self, service: ServiceGetter, view: TableView, parent: QObject) -> None:
        super().__init__(parent)
        self.service = service
        self.view = view
        self.timer = QTimer(self)
        self.timer.setInterval(WATCH_MS)
        self.timer.timeout.connect(self.on_tick)
        self.timer.start()
        self.unanswered = False
        """The last tick's reading failed: the next one that succeeds says the database is back."""

    def on_tick(self) -> None:
        service = self.service()
        if service is None:
            return
        decided_before, taken_before = _decided(service), service.taken_elsewhere
        try:
            changed = service.catch_up()
        except SERVICE_FAILURES as failure:
            self.unanswered = True
            self.view.show_refusal(dealer_sentence(failure))
            return
        if self.unanswered:
            self.unanswered = False
            self.view.refresh()
            self.view.show_notice(str(BACK))
        if service.taken_elsewhere is not None:  # another desk took the table: shown read-only
            if changed or taken_before is None:
                self.view.refresh()
            return
        if not changed:
            return
        decided = [
            request
            for request in service.machine.requests.values()
            if request.number not in decided_before and not request.waiting
        ]
        approved = [_decision(request.number, request.status()) for request in decided if request.approved]
        self.view.refresh()
        done = self.carry_out()
        if approved or done:
            self.view.show_notice("; ".join([*approved, *done]))
        declined = [
            _decision(request.number, request.status()) for request in decided if not request.approved
        ]
        if declined:  # a no from the floor is not a success: in the refusal's red, with its note
            self.view.show_refusal("; ".join(declined))

    def carry_out(self) -> list[str]:
        """Between hands, what the floor approved is recorded now (said, and on the table)."""
        service = self.service()
        if service is None:
            return []
        try:
            done = service.carry_out_approved()
        except SERVICE_FAILURES as failure:
            self.view.show_refusal(dealer_sentence(failure))
            return []
        if done:
            self.view.refresh()
        return done


def _decision(number: int, status: str) -> str:
    """ "Request #2 approved by Sue, done": the floor's decision, as the service words it."""
    return _("Request #{number} {status}").format(number=number, status=status)


def _decided(service: TableService) -> set[int]:
    return {number for number, request in service.machine.requests.items() if not request.waiting}
