"""The Fantasyland player's whole set, typed row by row at the reveal."""

from __future__ import annotations

from PySide6.QtWidgets import QLineEdit, QWidget

from ofc_desk.desk.dialogs.attempt import AttemptDialog
from ofc_desk.i18n import _, ngettext


class FantasylandSetDialog(AttemptDialog):
    """A Fantasyland player's whole set at the reveal: three rows kept, the rest discarded."""

    def __init__(self, player: str, take: int, parent: QWidget | None = None) -> None:
        super().__init__(
            _("Fantasyland set — {player}").format(player=player), _set_explanation(player, take), parent
        )
        self.player = player
        self.front = self.add_line(_("Front (3)"))
        self.middle = self.add_line(_("Middle (5)"))
        self.back = self.add_line(_("Back (5)"))
        self.discards = self.add_line(_("Discards"))
        for _row, line in self.fields():
            line.setObjectName("setEntry")
        self.setMinimumWidth(640)

    def fields(self) -> tuple[tuple[str, QLineEdit], ...]:
        return (
            ("front", self.front), ("middle", self.middle),
            ("back", self.back), ("discard", self.discards),
        )  # fmt: skip


def _set_explanation(player: str, take: int) -> str:
    extra = take - 13
    if extra > 0:
        typed = ngettext(
            "{player} was dealt {take} cards. Type each row and the {extra} discard in any spelling"
            " (qh 10d Q♥); '??' is a discard nobody saw.",
            "{player} was dealt {take} cards. Type each row and the {extra} discards in any spelling"
            " (qh 10d Q♥); '??' is a discard nobody saw.",
            extra,
        )
    else:
        typed = _(
            "{player} was dealt {take} cards. Type each row (no discard) in any spelling"
            " (qh 10d Q♥); '??' is a discard nobody saw."
        )
    return typed.format(player=player, take=take, extra=extra)
