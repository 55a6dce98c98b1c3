"""The card entry's Chinese poker controls (`ChineseControls`, built by `ChineseDesk.entry_controls`):
the Surrender button and the bar of the specials the staged cards make, each a button that declares
it. The entry panel lays them out; the game's `EntryForm` says when the Surrender button shows, and
the showdown (`chinese_showdown`) what the bar offers."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QPushButton, QSizePolicy, QWidget

from ofc_desk.desk.games.base import EntryForm, EntryRequests
from ofc_desk.i18n import _

DECLARE_COLUMNS = 2
"""The specials a hand makes, two a line: five of them never widen the window off the screen."""


def surrender_button(parent: QWidget) -> QPushButton:
    """Surrender, as `s` then Enter: hidden until the table's form offers it."""
    button = QPushButton(_("Surrender (s, Enter)"), parent)
    button.setAccessibleName(_("Surrender"))
    button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    button.hide()
    return button


class DeclareBar(QWidget):
    """One button a special the staged cards make; hidden while they make none."""

    declare_requested = Signal(str)
    """A special hand's kind, chosen by the dealer from the ones offered."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(_("Specials the cards make"))
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self.buttons: list[QPushButton] = []
        self.hide()

    def offer(self, player: str, specials: list[tuple[str, str]]) -> None:
        """One button a special the cards make, most valuable first (`specials` holds each kind and
        its words); Alt with the button's number chooses it. None: the bar is hidden."""
        while self._grid.count():
            item = self._grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.buttons = []
        for number, (kind, words) in enumerate(specials, start=1):
            # TRANSLATORS: {key} is "&1", "&2"…: the Alt key that chooses the button; {special}: "six pairs".
            caption = _("{key} Declare {player}'s {special}").format(
                key=f"&{number}", player=player, special=words
            )
            button = QPushButton(caption, self)
            button.setAccessibleName(_("Declare {special}").format(special=words))
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.clicked.connect(lambda _checked=False, chosen=kind: self.declare_requested.emit(chosen))
            # As wide as the bar gives it, never asking for more: the entry stays beside the picker.
            button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            row, column = divmod(number - 1, DECLARE_COLUMNS)
            self._grid.addWidget(button, row, column)
            self.buttons.append(button)
        self.setVisible(bool(specials))


class ChineseControls:
    """`EntryControls` of Chinese poker: the Surrender button beside Confirm, the bar of specials
    under the buttons."""

    def __init__(self, parent: QWidget, requests: EntryRequests) -> None:
        self.surrender_button = surrender_button(parent)
        self.surrender_button.clicked.connect(lambda _checked=False: requests.surrender())
        self.declare_bar = DeclareBar(parent)
        self.declare_bar.declare_requested.connect(requests.declare)

    @property
    def beside_confirm(self) -> Sequence[QWidget]:
        return (self.surrender_button,)

    @property
    def below_buttons(self) -> Sequence[QWidget]:
        return (self.declare_bar,)

    def show_form(self, form: EntryForm) -> None:
        self.surrender_button.setVisible(form.surrender)

    def offer(self, player: str, specials: list[tuple[str, str]]) -> None:
        self.declare_bar.offer(player, specials)

    def hide(self) -> None:
        self.surrender_button.hide()
        self.declare_bar.offer("", [])
