"""Small dialogs. Each tries its action through a callback and shows a refusal inline, staying
open so the dealer can correct what was typed: never a second pop-up on top of the first."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ofc_desk.desk.refusal import refusal_label

Attempt = Callable[[], str | None]
"""Try the action; return the refusal sentence, or None when it was done."""
Report = Callable[[str | None], None]
BackgroundAttempt = Callable[[Report], None]
"""Start the action off the UI thread; it calls the report back with a refusal or None."""

MAX_CHIPS = 10_000_000


class AttemptDialog(QDialog):
    def __init__(self, title: str, explanation: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        self.form = QFormLayout()
        intro = QLabel(explanation, self)
        intro.setWordWrap(True)
        self.refusal = refusal_label(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setAccessibleName("OK")
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setAccessibleName("Cancel")
        self.buttons.accepted.connect(self._try)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(self.form)
        layout.addWidget(self.refusal)
        layout.addWidget(self.buttons)
        self._attempt: Attempt = lambda: None
        self._background: BackgroundAttempt | None = None

    def showEvent(self, event: QShowEvent) -> None:
        # The buttons exist before the fields, so Qt would give the first focus to OK; the dealer
        # should be able to type into the first field at once.
        super().showEvent(event)
        for row in range(self.form.rowCount()):
            item = self.form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            field = item.widget() if item is not None else None
            if field is not None and field.focusPolicy() != Qt.FocusPolicy.NoFocus:
                field.setFocus()
                return

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

    def add_amount(self, caption: str, value: int = 0, minimum: int = 0) -> QSpinBox:
        spin = QSpinBox(self)
        spin.setRange(minimum, MAX_CHIPS)
        spin.setValue(value)
        spin.setAccessibleName(caption)
        self.form.addRow(caption, spin)
        return spin

    def _try(self) -> None:
        if self._background is not None:
            self.buttons.setEnabled(False)
            self.refusal.setText("Checking…")
            self._background(self._report)
            return
        self._report(self._attempt())

    def reject(self) -> None:
        # While a check runs (its buttons are off) Escape waits for it: the answer, say a sign-in,
        # would otherwise land on a closed dialog, acted on or said to nobody.
        if self.buttons.isEnabled():
            super().reject()

    def _report(self, refusal: str | None) -> None:
        self.buttons.setEnabled(True)
        if refusal is None:
            self.refusal.setText("")
            self.accept()
        else:
            self.refusal.setText(refusal)


class SupervisorDialog(AttemptDialog):
    """Asked only for the actions the service guards with a floor supervisor's PIN."""

    def __init__(self, title: str, explanation: str, parent: QWidget | None = None) -> None:
        super().__init__(title, explanation, parent)
        self.supervisor = self.add_line("Supervisor")
        self.pin = self.add_line("Supervisor PIN", secret=True)


class FantasylandSetDialog(AttemptDialog):
    """A Fantasyland player's whole set at the reveal: three rows kept, the rest discarded."""

    def __init__(self, player: str, take: int, parent: QWidget | None = None) -> None:
        extra = take - 13
        discards = f"and the {extra} discard{'s' if extra > 1 else ''}" if extra > 0 else "(no discard)"
        super().__init__(
            f"Fantasyland set — {player}",
            f"{player} was dealt {take} cards. Type each row {discards} in any spelling "
            "(qh 10d Q♥); '??' is a discard nobody saw.",
            parent,
        )
        self.player = player
        self.front = self.add_line("Front (3)")
        self.middle = self.add_line("Middle (5)")
        self.back = self.add_line("Back (5)")
        self.discards = self.add_line("Discards")
        for _, line in self.fields():
            line.setObjectName("setEntry")
        self.setMinimumWidth(640)

    def fields(self) -> tuple[tuple[str, QLineEdit], ...]:
        return (
            ("front", self.front), ("middle", self.middle),
            ("back", self.back), ("discard", self.discards),
        )  # fmt: skip


class TextDialog(QDialog):
    def __init__(self, title: str, markdown: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        self.browser = QTextBrowser(self)
        self.browser.setAccessibleName(title)
        self.browser.setOpenExternalLinks(False)
        self.browser.setMarkdown(markdown)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.button(QDialogButtonBox.StandardButton.Close).setAccessibleName("Close")
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.resize(760, 620)


class ChooseTableDialog(QDialog):
    """Offer to resume an open table, or open a new one."""

    def __init__(self, tables: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Open a table")
        self.setAccessibleName("Open a table")
        self.tables = QListWidget(self)
        self.tables.setAccessibleName("Open tables")
        self.tables.addItems(list(tables))
        if tables:
            self.tables.setCurrentRow(0)
        self.tables.itemActivated.connect(lambda _item: self.accept())
        self.wants_new_table = False
        buttons = QDialogButtonBox(self)
        resume = buttons.addButton("Resume", QDialogButtonBox.ButtonRole.AcceptRole)
        resume.setAccessibleName("Resume table")
        resume.setEnabled(bool(tables))
        new = buttons.addButton("New table…", QDialogButtonBox.ButtonRole.ActionRole)
        new.setAccessibleName("New table")
        new.clicked.connect(self._choose_new)
        cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        cancel.setAccessibleName("Cancel")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        caption = "Resume an open table, or open a new one:" if tables else "No open table yet."
        layout.addWidget(QLabel(caption, self))
        layout.addWidget(self.tables)
        layout.addWidget(buttons)

    def _choose_new(self) -> None:
        self.wants_new_table = True
        self.accept()
