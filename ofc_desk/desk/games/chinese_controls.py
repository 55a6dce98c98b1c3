"""The card entry's Chinese poker controls (`ChineseControls`, built by `ChineseDesk.entry_controls`):
the Surrender button and the bar of the specials the staged cards make, each a button that declares
it. The entry panel lays them out; the game's `EntryForm` says when the Surrender button shows, and
the showdown's entry they follow (`chinese_showdown.ShowdownEntry`) what the bar offers and what a
button does."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QPushButton, QSizePolicy, QWidget

from ofc_desk.desk.games.base import EntryForm, TurnEntry
from ofc_desk.desk.games.chinese_showdown import ShowdownEntry
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
    under the buttons, both asking the showdown's entry they follow (none at another turn)."""

    def __init__(self, parent: QWidget) -> None:
        self.showdown: ShowdownEntry | None = None
        self.surrender_button = surrender_button(parent)
        self.surrender_button.clicked.connect(self._surrender)
        self.declare_bar = DeclareBar(parent)
        self.declare_bar.declare_requested.connect(self._declare)

    @property
    def beside_confirm(self) -> Sequence[QWidget]:
        return (self.surrender_button,)

    @property
    def below_buttons(self) -> Sequence[QWidget]:
        return (self.declare_bar,)

    def show_form(self, form: EntryForm) -> None:
        self.surrender_button.setVisible(form.extra_controls)  # where the table plays a surrender

    def follow(self, entry: TurnEntry | None) -> None:
        """A showdown's entry: the specials its staged cards make offered; any other turn's, none."""
        self.showdown = entry if isinstance(entry, ShowdownEntry) else None
        self.declare_bar.offer(*(self.showdown.specials() if self.showdown else ("", [])))

    def hide(self) -> None:
        self.showdown = None
        self.surrender_button.hide()
        self.declare_bar.offer("", [])

    def _surrender(self) -> None:
        """The Surrender button: as `s` then Enter."""
        if self.showdown is not None:
            self.showdown.surrender()

    def _declare(self, kind: str) -> None:
        """A special the dealer chose among those offered for the staged cards."""
        if self.showdown is not None:
            self.showdown.declare(kind)
