"""Menu actions of the main window, built after it is first shown: importing the `Qt` namespace
alone costs tens of milliseconds."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QMenu, QMenuBar, QWidget


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


def give_keys_back_when_closed(menu_bar: QMenuBar) -> None:
    """Escape on an open menu (Alt+F, Escape) gives the keys back to where the dealer was typing.
    Qt would leave the menu bar holding them until a second Escape: the next card typed would go
    to the menu's letters instead of the entry."""
    _KeysBack(menu_bar)


class _KeysBack(QObject):
    def __init__(self, menu_bar: QMenuBar) -> None:
        super().__init__(menu_bar)
        self._menu_bar = menu_bar
        self._typing_in: QWidget | None = None
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus_changed)
        for action in menu_bar.actions():
            menu = action.menu()
            if isinstance(menu, QMenu):
                menu.aboutToHide.connect(lambda: QTimer.singleShot(0, self._leave_menu_bar))

    def _on_focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if new is self._menu_bar and old is not None and not isinstance(old.window(), QMenu):
            self._typing_in = old

    def _leave_menu_bar(self) -> None:
        menu_bar, typing_in = self._menu_bar, self._typing_in
        if not menu_bar.hasFocus() or QApplication.activePopupWidget() is not None:
            return  # an action was chosen, or the dealer moved on to the next menu
        escape = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(menu_bar, escape)
        if menu_bar.hasFocus() and typing_in is not None:
            try:
                if typing_in.isVisible():
                    typing_in.setFocus(Qt.FocusReason.MenuBarFocusReason)
            except RuntimeError:  # that widget is gone (its dialog closed): the menu bar keeps focus
                self._typing_in = None
