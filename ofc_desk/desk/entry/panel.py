"""The card entry: who is to act, the line the dealer types into, what is staged, and refusals.

Layout only. The controller reads the typed text, stages placements and shows the service's words.
A game's own controls (Chinese poker's, for example) are its part's (`DeskGame.entry_controls`),
built the first time a table of that game is shown and laid out here; they follow the turn's entry
(`follow`), which the panel passes on without reading it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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

from ofc_desk.desk.actions import REDO_KEYS
from ofc_desk.desk.games import first_game
from ofc_desk.desk.games.base import DeskGame, EntryControls, EntryForm, TurnEntry
from ofc_desk.desk.refusals import notice_label, refusal_label
from ofc_desk.i18n import _, lazy_gettext, lazy_pgettext

if TYPE_CHECKING:
    from ofc_desk.core.presets import Game

HINT_ROOM = 12
"""Pixels the line keeps beside its hint: the cursor and the frame's padding."""
ROW_BUTTONS = (
    (lazy_pgettext("button", "Front"), lazy_gettext("Send to front"), "f"),
    (lazy_pgettext("button", "Middle"), lazy_gettext("Send to middle"), "m"),
    (lazy_pgettext("button", "Back"), lazy_gettext("Send to back"), "b"),
    (lazy_pgettext("button", "Discard"), lazy_gettext("Send to discard"), "x"),
    (lazy_pgettext("button", "Unknown"), lazy_gettext("Send to unknown"), "?"),
)
"""Each row button's caption, its accessible name and the key it types."""


class EntryPanel(QWidget):
    confirm_requested = Signal()
    backspace_on_empty = Signal()
    clear_requested = Signal()
    """Esc: take back every staged card."""
    undo_requested = Signal()
    redo_requested = Signal()
    key_text_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prompt = QLabel("", self)
        self.prompt.setObjectName("prompt")
        self.prompt.setAccessibleName(_("Whose turn"))
        self.prompt.setWordWrap(True)  # a Chinese showdown's prompt is long; never wider than the entry
        self.line = QLineEdit(self)
        self.line.setObjectName("cardEntry")
        self.line.setAccessibleName(_("Card entry"))
        self._form: EntryForm | None = None
        self.line.installEventFilter(self)
        self.staged = QLabel("", self)
        self.staged.setObjectName("staged")
        self.staged.setAccessibleName(_("Cards staged this street"))
        self.staged.setWordWrap(True)
        self.refusal = refusal_label(self)
        self.notice = notice_label(self)
        self.confirm_button = QPushButton(self)
        self.confirm_button.clicked.connect(self.confirm_requested)
        self.row_buttons: dict[str, QPushButton] = {}
        self._buttons = buttons = QHBoxLayout()
        for caption, name, key in ROW_BUTTONS:
            button = QPushButton(str(caption), self)
            button.setAccessibleName(str(name))
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.clicked.connect(lambda _checked=False, text=key: self.key_text_clicked.emit(text))
            buttons.addWidget(button)
            self.row_buttons[key] = button
        buttons.addWidget(self.confirm_button)
        self._layout = layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.prompt)
        layout.addWidget(self.line)
        layout.addWidget(self.staged)
        layout.addLayout(buttons)
        layout.addWidget(self.refusal)
        layout.addWidget(self.notice)
        layout.addStretch(1)
        self._controls: dict[Game, EntryControls] = {}
        self.controls: EntryControls
        """The own controls of the game shown (`set_form`)."""
        before = first_game()  # before any table, as at a table of the first game offered
        self.set_form(before, before.entry_form(None))

    def set_form(self, game: DeskGame, form: EntryForm) -> None:
        """The entry as the table's game takes it (`DeskGame.entry_form`): a street card by card,
        or a Chinese hand typed whole; the game's own controls shown, any other's hidden."""
        self._form = form
        shown = self._controls_of(game)
        for controls in self._controls.values():
            if controls is not shown:
                controls.hide()
        shown.show_form(form)
        self.controls = shown
        self.confirm_button.setText(str(form.confirm_caption))
        self.confirm_button.setAccessibleName(str(form.confirm_name))
        for key, button in self.row_buttons.items():
            button.setVisible(key not in form.hidden_keys)
        self._show_hint()

    def _controls_of(self, game: DeskGame) -> EntryControls:
        """The game's own controls, built and laid out the first time its table is shown: in the row
        of buttons before the confirm button, and under the row."""
        if (built := self._controls.get(game.game)) is not None:
            return built
        controls = self._controls[game.game] = game.entry_controls(self)
        for widget in controls.beside_confirm:
            self._buttons.insertWidget(self._buttons.indexOf(self.confirm_button), widget)
        for widget in controls.below_buttons:
            self._layout.insertWidget(self._layout.indexOf(self.refusal), widget)
        return controls

    def _show_hint(self) -> None:
        """The whole hint where the line has room for it, else its keys alone: never cut short."""
        if self._form is None:
            return  # events of the line while the panel is being built
        whole, keys = str(self._form.hint), self._form.hint_keys
        room = self.line.contentsRect().width() - HINT_ROOM
        fits = self.line.fontMetrics().horizontalAdvance(whole) <= room
        self.line.setPlaceholderText(whole if fits or not self.line.isVisible() else keys)

    def follow(self, entry: TurnEntry | None) -> None:
        """The turn's entry, for the game's own controls to ask and to show what it offers
        (`EntryControls.follow`); None where the street entry takes the turn."""
        self.controls.follow(entry)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.line and event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            self._show_hint()
        if watched is self.line and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.confirm_requested.emit()
                return True
            if event.matches(QKeySequence.StandardKey.Undo):
                self.undo_requested.emit()
                return True
            if _is_redo(event):
                self.redo_requested.emit()
                return True
            if event.key() == Qt.Key.Key_Backspace and not self.line.text():
                self.backspace_on_empty.emit()
                return True
            if event.key() == Qt.Key.Key_Escape:
                self.clear_requested.emit()
                return True
        return super().eventFilter(watched, event)


def _is_redo(event: QKeyEvent) -> bool:
    pressed = QKeySequence(event.keyCombination())
    exact = QKeySequence.SequenceMatch.ExactMatch
    return any(pressed.matches(QKeySequence(keys)) == exact for keys in REDO_KEYS)
