"""What one seat shows, already in words and labels: the controller fills it from the service.

The seat widget paints exactly this; nothing here is decided by the desk.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ofc_desk.desk.entry.key_syntax import row_word
from ofc_desk.i18n import _, ngettext

ROW_LETTERS = {"front": "F", "middle": "M", "back": "B"}
"""The row keys the dealer types (f m b), the same in every language (docs/glossary.md)."""


@dataclass(frozen=True, slots=True)
class RowFace:
    name: str
    size: int
    cards: tuple[str, ...] = ()
    pending: tuple[str, ...] = ()
    hand_name: str = ""
    royalty: int = 0


@dataclass(frozen=True, slots=True)
class SeatFace:
    seat_number: int
    name: str
    stack: int
    rows: tuple[RowFace, ...]
    is_button: bool = False
    fantasyland_cards: int = 0
    to_act: bool = False
    cards_to_take: int = 0
    sitting_out: bool = False
    fouled: bool = False
    foul_word: str = "FOUL"
    """What a fouled hand is called at this game: FOUL, or MISSET at Chinese poker."""
    showdown: str = ""
    """A Chinese poker entry that is not set rows: "surrendered", "declared dragon"."""
    discards: int = 0
    pending_discards: tuple[str, ...] = field(default=())
    note: str = ""
    voided: bool = False
    """The hand on the felt was voided after it was settled: it does not count."""
    empty: bool = False
    """Nobody sits here now (a player cashed out): the seat keeps its number."""

    def spoken(self) -> str:
        """The seat as a screen reader says it."""
        if self.empty:
            return _("empty seat")
        parts = [_("{player}, stack {stack}").format(player=self.name, stack=self.stack)]
        if self.is_button:
            parts.append(_("dealer button"))
        if self.fantasyland_cards:
            count = self.fantasyland_cards
            parts.append(
                ngettext("Fantasyland, {count} card", "Fantasyland, {count} cards", count).format(count=count)
            )
        if self.sitting_out:
            parts.append(_("sitting out"))
        if self.to_act:
            count = self.cards_to_take
            parts.append(ngettext("to act, {count} card", "to act, {count} cards", count).format(count=count))
        if self.fouled:
            parts.append(self.foul_word.lower())
        if self.showdown:
            parts.append(self.showdown)
        if self.voided:
            parts.append(_("hand voided"))
        if self.note:
            parts.append(self.note)
        for row in self.rows:
            cards = " ".join(row.cards) or _("empty")
            parts.append(_("{row}: {cards}").format(row=row_word(row.name), cards=cards))
        return "; ".join(parts)
