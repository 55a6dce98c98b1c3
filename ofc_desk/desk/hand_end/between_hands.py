"""Between hands: deal the next one, or do the chip operations the menus also offer (the actions
of `desk/actions.py` that have a button, each tied to its menu entry)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractButton, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ofc_desk.desk.actions import DESK_ACTIONS, ActionKey, Command
from ofc_desk.desk.refusals import notice_label, refusal_label


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
        self.notice = notice_label(self)
        self.buttons: dict[ActionKey, QPushButton] = {}
        """By the key of the action each does (the window ties each to its menu entry)."""
        row = QHBoxLayout()
        for action in DESK_ACTIONS:
            if action.button is not None:
                button = QPushButton(str(action.button.caption), self)
                button.setAccessibleName(str(action.button.name))
                row.addWidget(button)
                self.buttons[action.key] = button
        self.deal_button = self.buttons[Command.DEAL]
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.message)
        layout.addLayout(row)
        layout.addWidget(self.refusal)
        layout.addWidget(self.notice)
        layout.addStretch(1)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if not press_focused_button(self):
                self.deal_requested.emit()
            return
        super().keyPressEvent(event)
