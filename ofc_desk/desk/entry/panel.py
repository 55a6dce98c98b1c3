"""The card entry: who is to act, the line the dealer types into, what is staged, and refusals.

Layout only. The controller reads the typed text, stages placements and shows the service's words.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ofc_desk.desk.refusals import refusal_label

ROW_BUTTONS = (("Front", "f"), ("Middle", "m"), ("Back", "b"), ("Discard", "x"), ("Unknown", "?"))


class EntryPanel(QWidget):
    confirm_requested = Signal()
    backspace_on_empty = Signal()
    undo_requested = Signal()
    redo_requested = Signal()
    key_text_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prompt = QLabel("", self)
        self.prompt.setObjectName("prompt")
        self.prompt.setAccessibleName("Whose turn")
        self.line = QLineEdit(self)
        self.line.setObjectName("cardEntry")
        self.line.setAccessibleName("Card entry")
        self.line.setPlaceholderText("card, then row: qh f · 10d m · 7c x · ? — Enter confirms")
        self.line.installEventFilter(self)
        self.staged = QLabel("", self)
        self.staged.setObjectName("staged")
        self.staged.setAccessibleName("Cards staged this street")
        self.staged.setWordWrap(True)
        self.refusal = refusal_label(self)
        self.confirm_button = QPushButton("Confirm street (Enter)", self)
        self.confirm_button.setAccessibleName("Confirm street")
        self.confirm_button.clicked.connect(self.confirm_requested)
        self.row_buttons: dict[str, QPushButton] = {}
        buttons = QHBoxLayout()
        for caption, key in ROW_BUTTONS:
            button = QPushButton(caption, self)
            button.setAccessibleName(f"Send to {caption.lower()}")
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.clicked.connect(lambda _=False, text=key: self.key_text_clicked.emit(text))
            buttons.addWidget(button)
            self.row_buttons[key] = button
        buttons.addWidget(self.confirm_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.prompt)
        layout.addWidget(self.line)
        layout.addWidget(self.staged)
        layout.addLayout(buttons)
        layout.addWidget(self.refusal)
        layout.addStretch(1)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.line and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.confirm_requested.emit()
                return True
            if event.matches(QKeySequence.StandardKey.Undo):
                self.undo_requested.emit()
                return True
            if event.matches(QKeySequence.StandardKey.Redo):
                self.redo_requested.emit()
                return True
            if event.key() == Qt.Key.Key_Backspace and not self.line.text():
                self.backspace_on_empty.emit()
                return True
        return super().eventFilter(watched, event)
