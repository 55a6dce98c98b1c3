"""The Fantasyland player's whole set, typed row by row at the reveal."""

from __future__ import annotations

from PySide6.QtWidgets import QLineEdit, QWidget

from ofc_desk.desk.dialogs.attempt import AttemptDialog


class FantasylandSetDialog(AttemptDialog):
    """A Fantasyland player's whole set at the reveal: three rows kept, the rest discarded."""

    def __init__(self, player: str, take: int, parent: QWidget | None = None) -> None:
        extra = take - 13
        discards = f"and the {extra} discard{'s' if extra > 1 else ''}" if extra > 0 else "(no discard)"
        super().__init__(
            f"Fantasyland set — {player}",
            f"{player} was dealt {take} cards. Type each row {discards} in any spelling "
            "(qh 10d Q♥); '??' is a discard nobody saw.",
            parent,
        )
        self.player = player
        self.front = self.add_line("Front (3)")
        self.middle = self.add_line("Middle (5)")
        self.back = self.add_line("Back (5)")
        self.discards = self.add_line("Discards")
        for _, line in self.fields():
            line.setObjectName("setEntry")
        self.setMinimumWidth(640)

    def fields(self) -> tuple[tuple[str, QLineEdit], ...]:
        return (
            ("front", self.front), ("middle", self.middle),
            ("back", self.back), ("discard", self.discards),
        )  # fmt: skip
