"""How a rules preset pays, in one line, read from the preset's data (docs/rules.md §10–§11): pair by
pair, the pool or a single winner, and the jackpot award, if it has one. The New table dialog's
preset list shows it after each preset's name, and under the preset chosen."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtWidgets import QComboBox, QStyledItemDelegate, QStyleOptionViewItem

from ofc_desk.core.chinese.payment import Payment
from ofc_desk.core.chinese.presets import load_chinese_preset
from ofc_desk.core.jackpot import JackpotAward
from ofc_desk.core.ofc.presets import load_preset
from ofc_desk.core.presets import Game, PresetError
from ofc_desk.i18n import _, ngettext

PAYS_ROLE = Qt.ItemDataRole.UserRole + 1
"""The item role that holds a preset's line in the preset list."""
SEPARATOR = " — "


def pays_line(game: Game, name: str) -> str:
    """ "pool: each row's winner collects 1 unit from each other player; all three rows, 3 more";
    empty for a name that is no preset file (the table's own preset)."""
    try:
        if game is Game.OFC:
            return " · ".join([_("pays pair by pair"), *_award_words(load_preset(name).jackpot_award)])
        preset = load_chinese_preset(name)
    except PresetError:
        return ""
    rules = preset.payment
    if rules.payment is Payment.POOL:
        pays = _("pool: {terms}").format(terms=rules.pool_terms())
    elif rules.payment is Payment.SINGLE_WINNER:
        pays = ngettext(
            "single winner: who beats everyone on two rows collects {units} unit from each other player",
            "single winner: who beats everyone on two rows collects {units} units from each other player",
            rules.stake,
        ).format(units=rules.stake)
    else:
        pays = _("pays pair by pair")
    return " · ".join([pays, *_award_words(preset.jackpot_award)])


def _award_words(award: JackpotAward | None) -> list[str]:
    if award is None:
        return []
    return [
        _("jackpot award: loser {loser}%, winner {winner}%, table {table}%").format(
            loser=award.loser, winner=award.winner, table=award.table
        )
    ]


class PaysDelegate(QStyledItemDelegate):
    """Each preset of the open list on one line: its name, then how it pays."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        pays = index.data(PAYS_ROLE)
        if pays:
            option.text = f"{option.text}{SEPARATOR}{pays}"

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        """As wide as the name and its line: the list opens wide enough not to cut the line short."""
        size = super().sizeHint(option, index)
        pays = index.data(PAYS_ROLE)
        if not pays:
            return size
        metrics = option.fontMetrics
        wide = metrics.horizontalAdvance(f"{index.data()}{SEPARATOR}{pays}") + 4 * metrics.averageCharWidth()
        return QSize(max(size.width(), wide), size.height())


def offer_pays_lines(box: QComboBox, game: Game) -> None:
    """Give each preset of `box` its line (shown by `PaysDelegate`, and as the item's tooltip)."""
    for row in range(box.count()):
        pays = pays_line(game, box.itemText(row))
        box.setItemData(row, pays, PAYS_ROLE)
        box.setItemData(row, pays, Qt.ItemDataRole.ToolTipRole)
    # The open list as wide as its widest line (a combo box's list is only as wide as its names).
    view = box.view()
    view.setMinimumWidth(view.sizeHintForColumn(0))
