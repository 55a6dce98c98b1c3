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

from ofc_desk.desk.actions import REDO_KEYS
from ofc_desk.desk.games.base import EntryForm
from ofc_desk.desk.games.chinese_controls import DeclareBar, surrender_button
from ofc_desk.desk.games.ofc import STREET_FORM
from ofc_desk.desk.refusals import notice_label, refusal_label
from ofc_desk.i18n import _, lazy_gettext, lazy_pgettext

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
    surrender_requested = Signal()
    declare_requested = Signal(str)
    """A special hand's kind, chosen by the dealer from the ones offered."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prompt = QLabel("", self)
        self.prompt.setObjectName("prompt")
        self.prompt.setAccessibleName(_("Whose turn"))
        self.prompt.setWordWrap(True)  # a Chinese showdown's prompt is long; never wider than the entry
        self.line = QLineEdit(self)
        self.line.setObjectName("cardEntry")
        self.line.setAccessibleName(_("Card entry"))
        self._form = STREET_FORM
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
        buttons = QHBoxLayout()
        for caption, name, key in ROW_BUTTONS:
            button = QPushButton(str(caption), self)
            button.setAccessibleName(str(name))
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.clicked.connect(lambda _checked=False, text=key: self.key_text_clicked.emit(text))
            buttons.addWidget(button)
            self.row_buttons[key] = button
        self.surrender_button = surrender_button(self)
        self.surrender_button.clicked.connect(self.surrender_requested)
        buttons.addWidget(self.surrender_button)
        buttons.addWidget(self.confirm_button)
        self.declare_bar = DeclareBar(self)
        self.declare_bar.declare_requested.connect(self.declare_requested)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.prompt)
        layout.addWidget(self.line)
        layout.addWidget(self.staged)
        layout.addLayout(buttons)
        layout.addWidget(self.declare_bar)
        layout.addWidget(self.refusal)
        layout.addWidget(self.notice)
        layout.addStretch(1)
        self.set_form(STREET_FORM)  # before any table, as at an OFC street

    def set_form(self, form: EntryForm) -> None:
        """The entry as the table's game takes it (`DeskGame.entry_form`): a street card by card,
        or a hand typed whole with a surrender."""
        self._form = form
        self.confirm_button.setText(str(form.confirm_caption))
        self.confirm_button.setAccessibleName(str(form.confirm_name))
        for key, button in self.row_buttons.items():
            button.setVisible(key not in form.hidden_keys)
        self.surrender_button.setVisible(form.surrender)
        self._show_hint()

    def _show_hint(self) -> None:
        """The whole hint where the line has room for it, else its keys alone: never cut short."""
        whole, keys = str(self._form.hint), self._form.hint_keys
        room = self.line.contentsRect().width() - HINT_ROOM
        fits = self.line.fontMetrics().horizontalAdvance(whole) <= room
        self.line.setPlaceholderText(whole if fits or not self.line.isVisible() else keys)

    @property
    def declare_buttons(self) -> list[QPushButton]:
        return self.declare_bar.buttons

    def offer_declarations(self, player: str, specials: list[tuple[str, str]]) -> None:
        """The specials the staged cards make, each a button (`DeclareBar.offer`)."""
        self.declare_bar.offer(player, specials)

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
