"""Table → Correct a settled hand… (docs/rules.md §12): the supervisor picks a settled hand, sees it
as entered, one line an entry in the keys the dealer deals with (`entry.correction_lines`), changes
what was keyed wrong, and sees at once the recorded and corrected settlements side by side with each
player's difference, what is paid now and what is not covered (or the service's refusal, as when
dealing). Approved with the supervisor's PIN, or asked of the floor with the reason. Keyboard first:
the hand, the entries (Tab leaves them), the reason, the supervisor, the PIN, Enter."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QPlainTextEdit,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from ofc_desk.desk import refusals
from ofc_desk.desk.dialogs.attempt import SupervisorDialog
from ofc_desk.desk.entry.correction_lines import entry_line, read_entry_lines
from ofc_desk.desk.refusals import SERVICE_FAILURES, dealer_sentence
from ofc_desk.i18n import _, formatting, lazy_gettext
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.table.commands import CorrectHand, Request
from ofc_desk.service.table.correction_view import (
    CorrectionPreview,
    correctable_hands,
    hand_to_correct,
    preview,
)
from ofc_desk.service.terms.snapshot import TableSnapshot

Done = Callable[[TableSnapshot, str], None]
"""What the desk does once the correction is recorded or asked: the table redrawn, a notice said."""

HEADINGS = (
    lazy_gettext("Player"),
    lazy_gettext("As recorded"),
    lazy_gettext("As corrected"),
    lazy_gettext("Difference"),
    lazy_gettext("Paid now"),
    lazy_gettext("Not covered"),
    lazy_gettext("Stack after"),
)


class CorrectHandDialog(SupervisorDialog):
    def __init__(self, service: TableService, done: Done, parent: QWidget | None = None) -> None:
        super().__init__(
            _("Correct a settled hand"),
            _(
                "Change what was keyed wrong, one line an entry, with the keys used when dealing."
                " The hand is scored and settled again from the stacks it began with; each"
                " player's difference is paid now from the stacks as they are."
            ),
            parent,
        )
        self.service, self.on_done = service, done
        hands = correctable_hands(service.machine)
        self.hand = self.add_labelled_choice(
            _("Hand"), [(str(n), _("Hand {number}").format(number=n)) for n in hands]
        )
        self.entries = QPlainTextEdit(self)
        self.entries.setTabChangesFocus(True)  # Tab goes on to the reason, as in every dialog
        self.entries.setAccessibleName(_("Entries"))
        self.entries.setMinimumHeight(self.fontMetrics().height() * 12)
        self.form.addRow(_("Entries"), self.entries)
        self.table = QTableWidget(0, len(HEADINGS), self)
        self.table.setHorizontalHeaderLabels([str(heading) for heading in HEADINGS])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setAccessibleName(_("Recorded and corrected settlements"))
        self.form.addRow(self.table)
        self.words = QLabel(self)
        self.words.setWordWrap(True)
        self.form.addRow(self.words)
        self.reason = self.add_line(_("Reason"))
        self.preview: CorrectionPreview | None = None
        self.hand.currentIndexChanged.connect(self._show_hand)
        self.entries.textChanged.connect(self._check)
        self.set_attempt(self._approve)
        self.offer_floor_request(self._ask_the_floor)
        self.setMinimumWidth(self.fontMetrics().averageCharWidth() * 130)
        self._show_hand()

    def number(self) -> int:
        return int(self.hand.currentData() or 0)

    def _show_hand(self) -> None:
        if not self.number():
            refusals.show_on(self.refusal, _("no settled hand to correct"))
            return
        shown = hand_to_correct(self.service.machine, self.number())
        self.entries.setPlainText("\n".join(entry_line(entry) for entry in shown.entries))

    def _typed(self) -> list[dict[str, object]]:
        players = hand_to_correct(self.service.machine, self.number()).players
        return read_entry_lines(self.entries.toPlainText(), players)

    def _check(self) -> None:
        """The correction as typed so far, or what is wrong with it, as the service says."""
        self.preview = None
        try:
            self.preview = preview(self.service.machine, self.number(), self._typed(), self.reason.text())
        except ValueError as problem:
            self._refused(str(problem))
            return
        except SERVICE_FAILURES as failure:
            self._refused(dealer_sentence(failure))
            return
        refusals.show_on(self.refusal, "")
        self._fill(self.preview)

    def _refused(self, sentence: str) -> None:
        refusals.show_on(self.refusal, sentence)
        self.table.setRowCount(0)
        self.words.setText("")

    def _fill(self, shown: CorrectionPreview) -> None:
        self.table.setRowCount(len(shown.lines))
        for row, line in enumerate(shown.lines):
            after = (
                formatting.number(line.stack_after) if line.stack_after is not None else _("left the table")
            )
            cells = (
                line.player,
                formatting.signed_number(line.recorded),
                formatting.signed_number(line.corrected),
                formatting.signed_number(line.difference),
                formatting.signed_number(line.paid),
                formatting.signed_number(line.not_covered),
                after,
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, column, item)
        self.table.resizeColumnsToContents()
        self._fit_table()
        self.words.setText(shown.words)

    def _fit_table(self) -> None:
        """Every column and player in sight, no scroll bar: the dialog grows to the table."""
        table, frame = self.table, 2 * self.table.frameWidth()
        width = sum(table.columnWidth(column) for column in range(table.columnCount()))
        height = table.horizontalHeader().height() + sum(table.rowHeight(r) for r in range(table.rowCount()))
        table.setMinimumSize(width + frame, height + frame)
        layout = self.layout()
        if layout is not None:
            layout.activate()
            self.resize(self.size().expandedTo(self.minimumSizeHint()))

    def _correction(self) -> CorrectHand:
        supervisor, pin = self.supervisor.text().strip(), self.pin.text()
        reason = self.reason.text().strip()
        return CorrectHand(self.number(), self._typed(), reason, supervisor=supervisor, pin=pin)

    def _approve(self) -> str | None:
        try:
            snapshot = self.service.do(self._correction())
        except ValueError as problem:
            return str(problem)
        except SERVICE_FAILURES as failure:
            return dealer_sentence(failure)
        said = _("Hand {number} corrected by {supervisor}").format(
            number=self.number(), supervisor=self.supervisor.text().strip()
        )
        self.on_done(snapshot, said)
        return None

    def _ask_the_floor(self) -> str | None:
        reason = self.reason.text().strip()
        try:
            snapshot = self.service.do(Request(self._correction(), reason))
        except ValueError as problem:
            return str(problem)
        except SERVICE_FAILURES as failure:
            return dealer_sentence(failure)
        number = snapshot.open_requests[-1].number if snapshot.open_requests else 0
        said = _("Asked the floor (request #{number}): deal on; once approved it is done between hands")
        self.on_done(snapshot, said.format(number=number))
        return None
