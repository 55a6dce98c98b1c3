"""Between hands: deal the next one, or do the chip operations the menus also offer."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractButton, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ofc_desk.desk.refusals import refusal_label

CHIP_BUTTONS = ("Join", "Rebuy", "Cash out", "Sit out", "Sit in")


def press_focused_button(panel: QWidget) -> bool:
    """Enter on a panel's focused button presses that button, as a dealer who tabbed to it means:
    Qt leaves Enter to the panel outside a dialog, whose own meaning (deal, confirm) would win."""
    focused = panel.focusWidget()
    if isinstance(focused, QAbstractButton) and focused.isEnabled() and panel.isAncestorOf(focused):
        focused.click()
        return True
    return False


class BetweenHandsPanel(QWidget):
    deal_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.message = QLabel("", self)
        self.message.setObjectName("prompt")
        self.message.setWordWrap(True)
        self.refusal = refusal_label(self)
        self.deal_button = QPushButton("Deal next hand (Enter)", self)
        self.deal_button.setAccessibleName("Deal next hand")
        self.deal_button.clicked.connect(self.deal_requested)
        self.chip_buttons: dict[str, QPushButton] = {}
        row = QHBoxLayout()
        row.addWidget(self.deal_button)
        for caption in CHIP_BUTTONS:
            button = QPushButton(f"{caption}…", self)
            button.setAccessibleName(caption)
            row.addWidget(button)
            self.chip_buttons[caption] = button
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.message)
        layout.addLayout(row)
        layout.addWidget(self.refusal)
        layout.addStretch(1)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if not press_focused_button(self):
                self.deal_requested.emit()
            return
        super().keyPressEvent(event)
