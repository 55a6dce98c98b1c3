"""The card entry: who is to act, the line the dealer types into, what is staged, and refusals.

Layout only. The controller reads the typed text, stages placements and shows the service's words.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ofc_desk.desk.actions import REDO_KEYS
from ofc_desk.desk.refusals import notice_label, refusal_label
from ofc_desk.i18n import _, lazy_gettext, lazy_pgettext

STREET_PLACEHOLDER = lazy_gettext("qh f · 10d m · 7c x · ? — Enter confirms")
SHOWDOWN_PLACEHOLDER = lazy_gettext("qh f · 10d m · 7c b … 13 cards — Enter confirms")
"""Whole beside the picker at 1366 px; the prompt above says that s surrenders."""
STREET_KEYS, SHOWDOWN_KEYS = "qh f · 10d m · 7c x · ?", "qh f · 10d m · 7c b …"
"""The hints' keys alone, the same in every language: shown when a longer language's hint would be
cut at the end of the line (the confirm button says Enter too)."""
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
DECLARE_COLUMNS = 2
"""The specials a hand makes, two a line: five of them never widen the window off the screen."""


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
        # Short enough to be read whole beside the picker at 1366 px; F1 has the rest.
        self._hints = (STREET_PLACEHOLDER, STREET_KEYS)
        self._show_hint()
        self.line.installEventFilter(self)
        self.staged = QLabel("", self)
        self.staged.setObjectName("staged")
        self.staged.setAccessibleName(_("Cards staged this street"))
        self.staged.setWordWrap(True)
        self.refusal = refusal_label(self)
        self.notice = notice_label(self)
        self.confirm_button = QPushButton(_("Confirm street (Enter)"), self)
        self.confirm_button.setAccessibleName(_("Confirm street"))
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
        self.surrender_button = QPushButton(_("Surrender (s, Enter)"), self)
        self.surrender_button.setAccessibleName(_("Surrender"))
        self.surrender_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.surrender_button.clicked.connect(self.surrender_requested)
        self.surrender_button.hide()
        buttons.addWidget(self.surrender_button)
        buttons.addWidget(self.confirm_button)
        self.declare_bar = QWidget(self)
        self.declare_bar.setAccessibleName(_("Specials the cards make"))
        self._declare_layout = QGridLayout(self.declare_bar)
        self._declare_layout.setContentsMargins(0, 0, 0, 0)
        self.declare_buttons: list[QPushButton] = []
        self.declare_bar.hide()
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

    def set_chinese(self, chinese: bool) -> None:
        """A Chinese hand is entered whole at showdown: no discards, no unknown cards, a surrender."""
        self.confirm_button.setText(_("Confirm hand (Enter)") if chinese else _("Confirm street (Enter)"))
        self.confirm_button.setAccessibleName(_("Confirm hand") if chinese else _("Confirm street"))
        for key in ("x", "?"):
            self.row_buttons[key].setVisible(not chinese)
        self.surrender_button.setVisible(chinese)
        self._hints = (SHOWDOWN_PLACEHOLDER, SHOWDOWN_KEYS) if chinese else (STREET_PLACEHOLDER, STREET_KEYS)
        self._show_hint()

    def _show_hint(self) -> None:
        """The whole hint where the line has room for it, else its keys alone: never cut short."""
        whole, keys = str(self._hints[0]), self._hints[1]
        room = self.line.contentsRect().width() - HINT_ROOM
        fits = self.line.fontMetrics().horizontalAdvance(whole) <= room
        self.line.setPlaceholderText(whole if fits or not self.line.isVisible() else keys)

    def offer_declarations(self, player: str, specials: list[tuple[str, str]]) -> None:
        """One button a special the cards make, most valuable first (`specials` holds each kind and
        its words); Alt with the button's number chooses it. None: the bar is hidden."""
        while self._declare_layout.count():
            item = self._declare_layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.declare_buttons = []
        for number, (kind, words) in enumerate(specials, start=1):
            # TRANSLATORS: {key} is "&1", "&2"…: the Alt key that chooses the button; {special}: "six pairs".
            caption = _("{key} Declare {player}'s {special}").format(
                key=f"&{number}", player=player, special=words
            )
            button = QPushButton(caption, self.declare_bar)
            button.setAccessibleName(_("Declare {special}").format(special=words))
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.clicked.connect(lambda _checked=False, chosen=kind: self.declare_requested.emit(chosen))
            # As wide as the bar gives it, never asking for more: the entry stays beside the picker.
            button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            row, column = divmod(number - 1, DECLARE_COLUMNS)
            self._declare_layout.addWidget(button, row, column)
            self.declare_buttons.append(button)
        self.declare_bar.setVisible(bool(specials))

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
