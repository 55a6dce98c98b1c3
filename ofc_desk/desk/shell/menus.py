"""Menu actions of the main window, built after it is first shown: importing the `Qt` namespace
alone costs tens of milliseconds."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu


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
