"""The dialog of every action with fields. It tries its action through a callback and shows a
refusal inline, staying open so the dealer can correct what was typed: never a second pop-up on
top of the first."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ofc_desk.desk import refusals
from ofc_desk.desk.dialogs.chip_amount import ChipAmountEdit
from ofc_desk.desk.refusals import refusal_label
from ofc_desk.desk.shell.worker import BackgroundRunner
from ofc_desk.i18n import LazyText, _

Attempt = Callable[[], str | None]
"""Try the action; return the refusal sentence, or None when it was done."""
Report = Callable[[str | None], None]
BackgroundAttempt = Callable[[Report], None]
"""Start the action off the UI thread; it calls the report back with a refusal or None."""
Outcome = TypeVar("Outcome")


def run_and_say(
    runner: BackgroundRunner,
    caption: str,
    work: Callable[[], Outcome],
    report: Report,
    said: Callable[[Outcome], None],
) -> None:
    """`work` off the UI thread: once done the dialog closes (`report(None)`) and what it gave (a
    sentence, a table taken over) is handed to `said`; a refusal is reported in the dialog, which
    stays open."""

    def done(outcome: Outcome) -> None:
        report(None)
        said(outcome)

    runner.run(caption, work, done, report)


class AttemptDialog(QDialog):
    def __init__(self, title: str, explanation: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        # Wide enough that a refusal wraps to a few lines, not a column of single words.
        self.setMinimumWidth(self.fontMetrics().averageCharWidth() * 52)
        self.form = QFormLayout()
        intro = QLabel(explanation, self)
        intro.setWordWrap(True)
        self.refusal = refusal_label(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setAccessibleName(_("OK"))
        self.ok_button.setDefault(True)  # Enter in any field does it, wherever the dealer tabbed before
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setAccessibleName(_("Cancel"))
        self.buttons.accepted.connect(self._try)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(self.form)
        layout.addWidget(self.refusal)
        layout.addWidget(self.buttons)
        self._attempt: Attempt = lambda: None
        self._background: BackgroundAttempt | None = None
        self.amounts: list[ChipAmountEdit] = []

    def showEvent(self, event: QShowEvent) -> None:
        # The buttons exist before the fields, so Qt would give the first focus to OK; the dealer
        # should be able to type into the first field at once.
        super().showEvent(event)
        fields = self.fields_in_order()
        self._order_keys(fields)
        if fields:
            fields[0].setFocus()
            if isinstance(fields[0], QLineEdit):
                fields[0].selectAll()  # as Tab would: typing replaces what it proposes ("Table 1")

    def fields_in_order(self) -> list[QWidget]:
        """The fields that take the keys, top to bottom."""
        fields = []
        for row in range(self.form.rowCount()):
            for role in (QFormLayout.ItemRole.FieldRole, QFormLayout.ItemRole.SpanningRole):
                item = self.form.itemAt(row, role)
                field = item.widget() if item is not None else None
                if (
                    field is not None
                    and field not in fields  # a row's one widget, across both columns, answers both roles
                    and field.focusPolicy() != Qt.FocusPolicy.NoFocus
                    and not field.isHidden()
                ):
                    fields.append(field)
        return fields

    def _order_keys(self, fields: list[QWidget]) -> None:
        """Tab goes down the fields as they are shown, then to OK (what the dialog is for), then
        to its other buttons and Cancel last: never from the last field to Cancel. (Qt's order is
        the order the widgets were made in: the buttons first, fields added later anywhere.)"""
        cancel = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        others = [button for button in self.buttons.buttons() if button not in (self.ok_button, cancel)]
        chain = [*fields, self.ok_button, *others, cancel]
        for before, after in itertools.pairwise(chain):
            QWidget.setTabOrder(before, after)

    def set_attempt(self, attempt: Attempt) -> None:
        self._attempt = attempt

    def set_background_attempt(self, start: BackgroundAttempt) -> None:
        """For slow attempts (a PIN hash takes a while on purpose): OK waits, the UI does not."""
        self._background = start

    def add_line(self, caption: str, *, secret: bool = False, text: str = "") -> QLineEdit:
        line = QLineEdit(text, self)
        line.setAccessibleName(caption)
        if secret:
            line.setEchoMode(QLineEdit.EchoMode.Password)
        self.form.addRow(caption, line)
        return line

    def add_choice(self, caption: str, choices: Sequence[str]) -> QComboBox:
        box = QComboBox(self)
        box.addItems(list(choices))
        box.setAccessibleName(caption)
        self.form.addRow(caption, box)
        return box

    def add_labelled_choice(
        self, caption: str, labels: Iterable[tuple[str, str | LazyText]], current: str | None = None
    ) -> QComboBox:
        """A choice of stored values, each shown by its label (`offer_labelled`)."""
        return offer_labelled(self.add_choice(caption, []), labels, current)

    def add_amount(self, caption: str, value: int = 0, minimum: int = 0) -> ChipAmountEdit:
        """A number of chips, up to the core's limit; checked before the attempt is made."""
        amount = ChipAmountEdit(caption, value, minimum=minimum, parent=self)
        self.amounts.append(amount)
        self.form.addRow(caption, amount)
        return amount

    def add_count(self, caption: str, value: int, minimum: int, maximum: int) -> QSpinBox:
        """A small whole number (a hand number), which a spin box holds."""
        spin = QSpinBox(self)
        spin.setRange(minimum, maximum)
        spin.setValue(value)
        spin.setAccessibleName(caption)
        self.form.addRow(caption, spin)
        return spin

    def _try(self) -> None:
        for amount in self.amounts:
            problem = amount.problem()
            if problem is not None:
                self._report(problem)
                amount.setFocus()
                return
        if self._background is not None:
            self.try_in_background(self._background)
            return
        self._report(self._attempt())

    def try_in_background(self, start: BackgroundAttempt) -> None:
        """An attempt the dialog waits for (OK's, or another button's) with its buttons off."""
        self.buttons.setEnabled(False)
        self.refusal.setText(_("Checking…"))  # not a refusal: what the dialog waits for
        start(self._report)

    def reject(self) -> None:
        # While a check runs (its buttons are off) Escape waits for it: the answer, say a sign-in,
        # would otherwise land on a closed dialog, acted on or said to nobody.
        if self.buttons.isEnabled():
            super().reject()

    def _report(self, refusal: str | None) -> None:
        self.buttons.setEnabled(True)
        if refusal is None:
            refusals.show_on(self.refusal, "")
            self.accept()
        else:
            refusals.show_on(self.refusal, refusal)
            self.field_to_correct(refusal)  # first: a focused field's mark may take room
            self.fit_height()

    def field_to_correct(self, refusal: str) -> None:
        """After a refusal, the keys go where it is corrected (a supervisor's PIN, say); by default
        they stay where they were."""

    def fit_height(self) -> None:
        """Taller, at the same width, by what a wrapped text needs (a refusal, a preset's
        description): a dialog keeps the size it opened with, so the sentence would squash the
        fields or hide behind the buttons."""
        layout = self.layout()
        if layout is None:
            return
        layout.activate()
        needed = layout.totalHeightForWidth(self.width()) if layout.hasHeightForWidth() else -1
        needed = max(needed, layout.totalMinimumSize().height())
        if needed > self.height():
            self.resize(self.width(), needed)


class SupervisorDialog(AttemptDialog):
    """Asked only for the actions the service guards with a floor supervisor's PIN. What is done
    comes first, who approves it last: the supervisor types their name and PIN and presses Enter."""

    def __init__(self, title: str, explanation: str, parent: QWidget | None = None) -> None:
        super().__init__(title, explanation, parent)
        self.supervisor = self.add_line(_("Supervisor"))
        self.pin = self.add_line(_("Supervisor PIN"), secret=True)
        self.ask_floor: QPushButton | None = None
        self._supervisor_moved = False

    def showEvent(self, event: QShowEvent) -> None:
        self._supervisor_last()
        super().showEvent(event)

    def _supervisor_last(self) -> None:
        """The supervisor's rows, made first, move below the fields the dialog added after them."""
        if self._supervisor_moved:
            return
        self._supervisor_moved = True
        for line in (self.supervisor, self.pin):
            label = self.form.takeRow(line).labelItem.widget()
            if label is not None:
                label.hide()
                label.deleteLater()
            self.form.addRow(line.accessibleName(), line)

    def field_to_correct(self, refusal: str) -> None:
        """A refused PIN is typed again: the PIN field, its text selected."""
        if "PIN" in refusal:  # "PIN" in every language's refusal (docs/glossary.md)
            self.pin.setFocus()
            self.pin.selectAll()

    def offer_floor_request(self, attempt: Attempt) -> None:
        """A second way: no PIN here, the request goes to the floor view with the dealer's reason,
        and the desk carries on dealing while it waits."""
        self.ask_floor = self.buttons.addButton(_("Ask the floor"), QDialogButtonBox.ButtonRole.ActionRole)
        self.ask_floor.setAccessibleName(_("Ask the floor"))
        self.ask_floor.setToolTip(
            _("Send this to the floor supervisor's view instead of entering a PIN here")
        )
        self.ask_floor.clicked.connect(lambda: self._report(attempt()))


def offer_labelled(
    box: QComboBox, labels: Iterable[tuple[str, str | LazyText]], current: str | None = None
) -> QComboBox:
    """Each stored value of `labels` (value, label) shown by its label; the value is the item's
    data. `current`: the value chosen, if the box offers it (otherwise the first stays chosen)."""
    for value, label in labels:
        box.addItem(str(label), str(value))
    if current is not None:
        choose_data(box, current)
    return box


def choose_data(box: QComboBox, value: str) -> None:
    """The item whose data is `value`; one the box does not offer leaves the choice as it is."""
    if (index := box.findData(value)) >= 0:
        box.setCurrentIndex(index)


def _takes_keys(widget: QWidget) -> bool:
    return widget.focusPolicy() & Qt.FocusPolicy.TabFocus == Qt.FocusPolicy.TabFocus and not widget.isHidden()
