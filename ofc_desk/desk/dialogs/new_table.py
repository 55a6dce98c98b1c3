"""Opening a new table: name, rules, stakes, seats in clockwise order, and who has the button.

The rules and stakes fields also serve the supervisor's change of rules between hands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QStyle,
    QStyleOptionComboBox,
    QWidget,
)

from ofc_desk.core.games import most_seats
from ofc_desk.core.presets import Game, preset_names
from ofc_desk.core.settlement import SettleFrom, SettlementPolicy
from ofc_desk.desk.dialogs.attempt import AttemptDialog, choose_data
from ofc_desk.desk.dialogs.chip_amount import ChipAmountEdit
from ofc_desk.desk.dialogs.preset_pays import PaysDelegate, offer_pays_lines
from ofc_desk.desk.games import DESK_GAMES, chosen_game
from ofc_desk.desk.games.base import DeskGame, RulesOption
from ofc_desk.i18n import LazyText, _, lazy_gettext, lazy_pgettext
from ofc_desk.reports.spoken import data_words
from ofc_desk.service.terms.setup import SeatSetup, TableRules, TableSetup

TABLE_OWN_PRESET = lazy_gettext("(this table's own preset)")
GAMES: tuple[tuple[LazyText, str], ...] = tuple(
    choice for part in DESK_GAMES.values() for choice in part.choices
)
"""What the dealer reads in the game choice (`game_caption`), and the variant the rules name: each
game's choices (`DeskGame.choices`)."""
SETTLE_FROM_WORDS: dict[SettleFrom, LazyText] = {
    SettleFrom.LEFT_OF_DEALER: lazy_pgettext("settle from", "left-of-dealer"),
    SettleFrom.DEALER: lazy_pgettext("settle from", "dealer"),
}
"""Where a settlement starts, in the reader's words, for every `SettleFrom`."""
DEFAULT_PRESETS = {game: part.default_preset for game, part in DESK_GAMES.items()}
"""The preset a game starts with (`ofc-desk score`'s too) until the dealer picks another."""


def game_caption(caption: LazyText, variant: str) -> str:
    """ "OFC pineapple": a game of `GAMES` in the reader's words (Chinese poker has no {variant})."""
    return str(caption).format(variant=data_words(variant))


def _fit_widest_choice(box: QComboBox) -> None:
    """At least as wide as its widest choice in the style sheet's font (a box measures itself
    before the style sheet applies: "Mậu Binh", "开放式十三张（2-7 大菠萝）" were cut)."""
    box.ensurePolished()
    metrics = box.fontMetrics()
    widest = max((metrics.horizontalAdvance(box.itemText(row)) for row in range(box.count())), default=0)
    option = QStyleOptionComboBox()
    box.initStyleOption(option)
    field = box.style().subControlRect(
        QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, box
    )
    around = option.rect.width() - field.width()  # the frame, the padding and the arrow
    box.setMinimumWidth(max(box.sizeHint().width(), widest + around))


def _every_rules_option() -> tuple[RulesOption, ...]:
    """Every game's rules options, each once, in the order the New table offers the games."""
    return tuple(dict.fromkeys(option for part in DESK_GAMES.values() for option in part.rules_options))


def _option_box(dialog: AttemptDialog, option: RulesOption, current: TableRules) -> QCheckBox:
    """The check box of `option` in the dialog's form, as the `current` rules have it."""
    box = QCheckBox(str(option.caption), dialog)
    box.setAccessibleName(str(option.caption))
    box.setChecked(option.is_on(current))
    # The whole row: its size hint falls a few pixels short under the style sheet, which cut the
    # last letters of a longer language's words.
    box.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    dialog.form.addRow(box)
    return box


class RulesFields:
    """The rules and stakes a dealer picks, starting from `current`; what the fields do not show
    (house options, pair units, scoring, face-down cards) is kept as it is. The presets offered
    are the chosen game's (`presets` lists a game's). The preset never changes by itself: another
    OFC variant keeps it, another game offers its default (or the one the dealer picked for it
    earlier in the dialog), and coming back finds the one left. The settlement and where it starts
    go with the game too: a game met for the first time proposes its preset's (when it says), and
    coming back finds them as they were left, so no change of game changes a setting the dealer
    did not touch."""

    def __init__(
        self,
        dialog: AttemptDialog,
        current: TableRules,
        presets: Callable[[Game], list[str]] = preset_names,
        *,
        keep_game: bool = False,
    ) -> None:
        """`keep_game`: a table's change of rules, which never turns OFC into Chinese poker or back."""
        self.current = current
        self._presets = presets
        offered = chosen_game(current.variant).choices if keep_game else GAMES
        self.variant = dialog.add_labelled_choice(
            _("Game"),
            ((variant, game_caption(caption, variant)) for caption, variant in offered),
            current.variant,
        )
        _fit_widest_choice(self.variant)
        # A preset pinned from a file is offered by that file's name: keeping it keeps the numbers
        # pinned (the service decides), choosing another pins that file as it is now.
        self._own = current.preset if isinstance(current.preset, str) else current.preset_name
        self.preset = dialog.add_choice(_("Rules preset"), [])
        self.preset.setItemDelegate(PaysDelegate(self.preset))
        self._fit_every_preset_name(offered)
        self.pays = QLabel(dialog)
        self.pays.setAccessibleName(_("How the preset pays"))
        self.pays.setWordWrap(True)  # a longer language's line takes two rather than widen the dialog
        dialog.form.addRow(self.pays)
        self.options = {option: _option_box(dialog, option, current) for option in _every_rules_option()}
        """Each game's rules options (`DeskGame.rules_options`), enabled for the chosen game's."""
        self.unit = dialog.add_amount(_("Chips per point"), current.unit, minimum=1)
        self.settlement = dialog.add_labelled_choice(
            _("Settlement"), ((p, data_words(p)) for p in SettlementPolicy), current.settlement
        )
        self.settle_from = dialog.add_labelled_choice(
            _("Settle from"), SETTLE_FROM_WORDS.items(), current.settle_from
        )
        self._own_words = str(TABLE_OWN_PRESET)
        self._game = self.game()
        self._picked = {**DEFAULT_PRESETS, self._game: self._own or self._own_words}
        self._settling: dict[Game, tuple[str, str]] = {}
        """Each game's settlement and where it starts, as the dealer left them there."""
        self._offer_presets()
        self.preset.setCurrentText(self._picked[self._game])
        self.variant.currentIndexChanged.connect(self._on_game_changed)
        self.preset.textActivated.connect(self._on_preset_picked)
        self.preset.currentTextChanged.connect(self._say_how_it_pays)
        self._say_how_it_pays(self.preset.currentText())
        # The description wraps: a longer one (a jackpot's hands) makes the dialog taller, not
        # squeezed over the fields around it.
        self.preset.currentTextChanged.connect(lambda _text: dialog.fit_height())

    def _fit_every_preset_name(self, offered: tuple[tuple[LazyText, str], ...]) -> None:
        """Wide enough for the longest preset name of every game offered ("pusoy-single-winner"
        was cut): the list is filled again at each change of game, and the box sized at first."""
        games = {chosen_game(variant).game for _caption, variant in offered}
        names = [name for game in sorted(games) for name in self._presets(game)]
        self.preset.addItems([*names, self._own or str(TABLE_OWN_PRESET)])
        _fit_widest_choice(self.preset)
        self.preset.clear()

    def game(self) -> Game:
        return self.part().game

    def part(self) -> DeskGame:
        """The chosen game's part of the desk."""
        return chosen_game(str(self.variant.currentData()))

    def _on_preset_picked(self, preset: str) -> None:
        self._picked[self.game()] = preset
        self._propose_settlement(preset)

    def _offer_presets(self) -> None:
        names = self._presets(self.game())
        self.preset.clear()
        self.preset.addItems(names if self._own else [self._own_words, *names])
        offer_pays_lines(self.preset, self.part())
        for option, box in self.options.items():
            box.setEnabled(option in self.part().rules_options)

    def _say_how_it_pays(self, preset: str) -> None:
        self.pays.setText(self.part().pays_line(preset))

    def _on_game_changed(self) -> None:
        if self.game() is self._game:
            return  # another OFC variant: the same presets, and the one picked stays
        self._picked[self._game] = self.preset.currentText()
        self._settling[self._game] = (str(self.settlement.currentData()), str(self.settle_from.currentData()))
        self._game = self.game()
        self._offer_presets()
        self.preset.setCurrentText(self._picked[self._game])
        left = self._settling.get(self._game)
        if left is None:
            self._propose_settlement(self.preset.currentText())
        else:
            choose_data(self.settlement, left[0])
            choose_data(self.settle_from, left[1])

    def _propose_settlement(self, preset: str) -> None:
        """How the game's preset proposes its tables settle (`DeskGame.proposed_settlement`), if
        it says: proposed, and the dealer may still change it."""
        proposed = self.part().proposed_settlement(preset)
        if proposed is not None:
            choose_data(self.settlement, proposed.policy.value)
            choose_data(self.settle_from, proposed.settle_from.value)

    def rules(self) -> TableRules:
        preset = self.preset.currentText()
        rules = replace(
            self.current,
            preset=self.current.preset if preset == self._own_words else preset,
            preset_name=self.current.preset_name if preset == self._own_words else None,
            variant=str(self.variant.currentData()),
            unit=self.unit.value(),
            settlement=str(self.settlement.currentData()),
            settle_from=str(self.settle_from.currentData()),
        )
        offered = self.part().rules_options
        for option, box in self.options.items():
            rules = option.turned(rules, box.isChecked() and option in offered)
        return rules


class NewTableDialog(AttemptDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            _("New table"),
            _("Seats in clockwise order; leave a name empty for an empty seat."),
            parent,
        )
        self.table_name = self.add_line(_("Table name"), text=_("Table 1"))
        self.rules = RulesFields(self, TableRules())
        self.seats: list[tuple[QLineEdit, ChipAmountEdit]] = []
        for number in range(1, most_seats() + 1):
            name = self.add_line(_("Seat {number} player").format(number=number))
            buy_in = self.add_amount(_("Seat {number} buy-in").format(number=number), 100)
            self.seats.append((name, buy_in))
        self.button: QComboBox = self.add_choice(_("Button (dealer)"), [])
        self.button.setEditable(True)
        self._button_chosen = False
        """Until the dealer picks the button, it is the last seat's, whatever was typed first."""
        self.button.activated.connect(self._on_button_chosen)
        self.button.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)  # a name typed is not a new seat
        line = self.button.lineEdit()
        if line is not None:
            line.textEdited.connect(self._on_button_chosen)
            # Enter does what OK does, as in every other field: an editable box keeps the key for
            # itself (Qt's QComboBox takes it to add the typed text) and the first Enter was lost.
            line.returnPressed.connect(self.ok_button.click)
        for name, _buy_in in self.seats:
            name.textChanged.connect(self._refresh_button_choices)

    def _on_button_chosen(self) -> None:
        self._button_chosen = True

    def _refresh_button_choices(self) -> None:
        current = self.button.currentText()
        names = [name.text().strip() for name, _buy_in in self.seats if name.text().strip()]
        self.button.clear()
        self.button.addItems(names)
        if current in names and self._button_chosen:
            self.button.setCurrentText(current)
        elif names:
            self.button.setCurrentIndex(len(names) - 1)

    def setup(self) -> TableSetup:
        seats = tuple(
            SeatSetup(name.text().strip(), buy_in.value())
            for name, buy_in in self.seats
            if name.text().strip()
        )
        return TableSetup(
            self.table_name.text().strip(), seats, self.button.currentText().strip(), self.rules.rules()
        )
