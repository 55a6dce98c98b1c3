"""The main window's menus, built from `DESK_ACTIONS` after the window is first shown (importing
the `Qt` namespace alone costs tens of milliseconds); the between-hands buttons tied to their
entries; and the controllers' command handlers connected, every command with one."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractButton, QApplication, QMenu, QMenuBar, QWidget

from ofc_desk.desk.action_parts import Handler, Menu, StandardShortcut
from ofc_desk.desk.actions import DESK_ACTIONS, ActionKey, Command, DeskAction, Submenu


@dataclass(frozen=True)
class BuiltMenus:
    """The menus built, and each entry by its key."""

    menus: dict[Menu, QMenu]
    actions: dict[ActionKey, QAction]
    """Every entry but the submenus, by its key."""
    submenus: dict[Submenu, QMenu]


def build_menus(menu_bar: QMenuBar, rows: Sequence[DeskAction] = DESK_ACTIONS) -> BuiltMenus:
    """One menu per `Menu`, left to right, each with its rows in the table's order. An entry the
    table offers only now and then (`enabled`) starts disabled: no table is open yet."""
    menus = {menu: menu_bar.addMenu(str(menu.label)) for menu in Menu}
    actions: dict[ActionKey, QAction] = {}
    submenus: dict[Submenu, QMenu] = {}
    for row in rows:
        menu = menus[row.menu]
        if row.separator_before:
            menu.addSeparator()
        if isinstance(row.key, Submenu):
            submenus[row.key] = menu.addMenu(str(row.caption()))
            continue
        action = add_action(menu, str(row.caption()), row.shortcuts, checkable=row.checkable)
        action.setChecked(row.checked)
        action.setEnabled(row.enabled is None)
        actions[row.key] = action
    return BuiltMenus(menus, actions, submenus)


def add_action(
    menu: QMenu, text: str, shortcuts: Iterable[str | StandardShortcut] = (), *, checkable: bool = False
) -> QAction:
    action = QAction(text, menu)
    keys = [_key_sequence(shortcut) for shortcut in shortcuts]
    if keys:
        action.setShortcuts(keys)
        action.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
    action.setCheckable(checkable)
    menu.addAction(action)
    return action


def _key_sequence(shortcut: str | StandardShortcut) -> QKeySequence:
    if isinstance(shortcut, StandardShortcut):
        return QKeySequence(QKeySequence.StandardKey[shortcut.value])
    return QKeySequence(shortcut)


def tie_buttons(buttons: Mapping[ActionKey, QAbstractButton], actions: Mapping[ActionKey, QAction]) -> None:
    """Each button does what its menu entry does, and is offered exactly when the entry is."""
    for key, button in buttons.items():
        action = actions[key]
        button.clicked.connect(action.trigger)
        button.setEnabled(action.isEnabled())
        action.enabledChanged.connect(button.setEnabled)


def handlers_of(*registries: Mapping[Command, Handler]) -> dict[Command, Handler]:
    """The controllers' handlers together; a command two of them claim is a mistake in the desk."""
    merged: dict[Command, Handler] = {}
    for registry in registries:
        twice = sorted(merged.keys() & registry.keys())
        if twice:
            raise ValueError(f"commands with two handlers: {', '.join(twice)}")
        merged.update(registry)
    return merged


def connect_commands(actions: Mapping[ActionKey, QAction], handlers: Mapping[Command, Handler]) -> None:
    """Every command's entry connected to its handler; a command without one is a mistake in the
    desk (a menu entry that would do nothing), refused before the window is used."""
    missing = [command.value for command in Command if command not in handlers]
    if missing:
        raise LookupError(f"commands without a handler: {', '.join(missing)}")
    for command, handler in handlers.items():
        actions[command].triggered.connect(handler)


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
