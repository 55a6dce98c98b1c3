"""The parts of the main window built after it is first shown: the between-hands panel and menu
actions. Kept apart because importing the `Qt` namespace alone costs tens of milliseconds."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractButton, QHBoxLayout, QLabel, QMenu, QPushButton, QVBoxLayout, QWidget

from ofc_desk.desk.refusal import refusal_label


def press_focused_button(panel: QWidget) -> bool:
    """Enter on a panel's focused button presses that button, as a dealer who tabbed to it means:
    Qt leaves Enter to the panel outside a dialog, whose own meaning (deal, confirm) would win."""
    focused = panel.focusWidget()
    if isinstance(focused, QAbstractButton) and focused.isEnabled() and panel.isAncestorOf(focused):
        focused.click()
        return True
    return False


class BetweenHandsPanel(QWidget):
    """Between hands: deal the next one, or do the chip operations the menus also offer."""

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
        for caption in ("Join…", "Rebuy…", "Cash out…", "Sit out…", "Sit in…"):
            button = QPushButton(caption, self)
            button.setAccessibleName(caption.rstrip("…"))
            row.addWidget(button)
            self.chip_buttons[caption.rstrip("…")] = button
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.message)
        layout.addLayout(row)
        layout.addWidget(self.refusal)
        layout.addStretch(1)

    def keyPressEvent(self, event: object) -> None:
        key = getattr(event, "key", lambda: None)()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if not press_focused_button(self):
                self.deal_requested.emit()
            return
        super().keyPressEvent(event)  # type: ignore[arg-type]


def add_action(
    menu: QMenu,
    text: str,
    shortcut: str | QKeySequence.StandardKey | None = None,
    *,
    checkable: bool = False,
) -> QAction:
    action = QAction(text, menu)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
        action.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
    action.setCheckable(checkable)
    menu.addAction(action)
    return action
