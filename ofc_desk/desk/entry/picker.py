"""The clickable 52-card picker: one button per card; cards already in play are greyed out."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QToolButton, QWidget

from ofc_desk.core.cards import SUIT_SYMBOLS
from ofc_desk.desk.shell.theme import DisplayOptions
from ofc_desk.i18n import _, lazy_pgettext

PICKER_RANKS = "AKQJT98765432"
PICKER_SUITS = "shdc"
_RANK_WORDS = {
    "A": lazy_pgettext("rank", "ace"),
    "K": lazy_pgettext("rank", "king"),
    "Q": lazy_pgettext("rank", "queen"),
    "J": lazy_pgettext("rank", "jack"),
    "T": lazy_pgettext("rank", "ten"),
    "9": lazy_pgettext("rank", "nine"),
    "8": lazy_pgettext("rank", "eight"),
    "7": lazy_pgettext("rank", "seven"),
    "6": lazy_pgettext("rank", "six"),
    "5": lazy_pgettext("rank", "five"),
    "4": lazy_pgettext("rank", "four"),
    "3": lazy_pgettext("rank", "three"),
    "2": lazy_pgettext("rank", "two"),
}
_SUIT_WORDS = {
    "s": lazy_pgettext("suit", "spades"),
    "h": lazy_pgettext("suit", "hearts"),
    "d": lazy_pgettext("suit", "diamonds"),
    "c": lazy_pgettext("suit", "clubs"),
}


def spoken_card(label: str) -> str:
    """A card as a screen reader says it: "ace of spades"."""
    return _("{rank} of {suit}").format(rank=_RANK_WORDS[label[0]], suit=_SUIT_WORDS[label[1]])


class CardPicker(QWidget):
    card_picked = Signal(str)

    def __init__(self, options: DisplayOptions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(_("Card picker"))
        self._buttons: dict[str, QToolButton] = {}
        self._options: DisplayOptions | None = None
        layout = QGridLayout(self)
        layout.setSpacing(2)
        layout.setContentsMargins(0, 0, 0, 0)
        for row, suit in enumerate(PICKER_SUITS):
            for column, rank in enumerate(PICKER_RANKS):
                label = rank + suit
                button = QToolButton(self)
                button.setText(("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit])
                button.setAccessibleName(spoken_card(label))
                button.setToolTip(label)
                button.clicked.connect(lambda _checked=False, text=label: self.card_picked.emit(text))
                layout.addWidget(button, row, column)
                self._buttons[label] = button
        self.set_options(options)

    def button(self, label: str) -> QToolButton:
        return self._buttons[label]

    def set_in_play(self, labels: set[str]) -> None:
        for label, button in self._buttons.items():
            button.setEnabled(label not in labels)

    def set_options(self, options: DisplayOptions) -> None:
        """Each button sized and coloured for `options`; the options it has already are left alone:
        the session applies the window's options again as it starts, and each button's style sheet
        set again is a repolish (about 5 ms for the 52 of them)."""
        if options == self._options:
            return
        self._options = options
        size = options.scaled(34)
        for label, button in self._buttons.items():
            colour = options.suit_colours[label[1]]
            button.setFixedSize(size + options.scaled(8), size)
            button.setStyleSheet(
                f"QToolButton {{ background: #fbfbf7; color: {colour}; font-weight: 700;"
                f" font-size: {options.scaled(15)}px; border: 1px solid #888; padding: 0; }}"
                "QToolButton:disabled { background: #555a60; color: #8a9096; }"
            )
