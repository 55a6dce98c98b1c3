"""How a rules preset pays, in one line (each game's part says it from the preset's data,
`DeskGame.pays_line`): the New table dialog's preset list shows it after each preset's name, and
under the preset chosen."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtWidgets import QComboBox, QStyledItemDelegate, QStyleOptionViewItem

from ofc_desk.desk.games.base import DeskGame

PAYS_ROLE = Qt.ItemDataRole.UserRole + 1
"""The item role that holds a preset's line in the preset list."""
SEPARATOR = " — "


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


def offer_pays_lines(box: QComboBox, game: DeskGame) -> None:
    """Give each preset of `box` its line, in `game`'s words (`DeskGame.pays_line`; shown by
    `PaysDelegate`, and as the item's tooltip)."""
    for row in range(box.count()):
        pays = game.pays_line(box.itemText(row))
        box.setItemData(row, pays, PAYS_ROLE)
        box.setItemData(row, pays, Qt.ItemDataRole.ToolTipRole)
    # The open list as wide as its widest line (a combo box's list is only as wide as its names),
    # but never wider than the screen: a longer line (a jackpot's hands) ends in "…" there, and
    # shows whole under the box once chosen.
    view = box.view()
    room = box.screen().availableGeometry().width() - 4 * box.fontMetrics().averageCharWidth()
    view.setMinimumWidth(min(view.sizeHintForColumn(0), room))
