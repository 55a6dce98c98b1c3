"""What one seat shows, already in words and labels: the controller fills it from the service.

The seat widget paints exactly this; nothing here is decided by the desk.
"""

from dataclasses import dataclass, field
from typing import NamedTuple

from ofc_desk.desk.entry.key_syntax import row_word
from ofc_desk.i18n import _, ngettext

ROW_LETTERS = {"front": "F", "middle": "M", "back": "B"}
"""The row keys the dealer types (f m b), the same in every language (docs/glossary.md)."""


class SeatMark(NamedTuple):
    """A game's own mark on a seat, in each place the desk shows the seat: the game's part of the
    desk makes it from its part of the seat's view (`DeskGame.seat_marks`)."""

    badge: str
    """On the felt, in the seat's header ("SURRENDERED")."""
    spoken: str
    """What a screen reader says of it ("surrendered")."""
    floor_badge: str = ""
    """After the player's chips in the floor's players column ("": not shown there)."""
    floor_note: str = ""
    """In the players column's detail, among the seat's notes ("": none)."""


class SeatMarks(NamedTuple):
    """A game's own marks on a seat, each where it stands among the marks every game has."""

    dealt: SeatMark | None = None
    """How the game deals the seat this hand or the next, after the button (OFC's FL badge)."""
    shown: SeatMark | None = None
    """What the seat's hand shows besides rows, after its foul (a Chinese surrender, a special)."""


NO_MARKS = SeatMarks()
"""A seat its game marks with nothing of its own."""


@dataclass(frozen=True, slots=True)
class RowFace:
    """A row as a seat draws it."""

    name: str
    size: int
    cards: tuple[str, ...] = ()
    pending: tuple[str, ...] = ()
    hand_name: str = ""
    worth: str = ""
    """What the row is worth, beside its hand's name (`DeskGame.row_worth`: "+6"), or ""."""


@dataclass(frozen=True, slots=True)
class SeatFace:
    """A seat as it is drawn."""

    seat_number: int
    name: str
    stack: int
    rows: tuple[RowFace, ...]
    is_button: bool = False
    marks: SeatMarks = NO_MARKS
    """The game's own marks (`DeskGame.seat_marks`)."""
    to_act: bool = False
    cards_to_take: int = 0
    sitting_out: bool = False
    fouled: bool = False
    foul_word: str = "FOUL"
    """What a fouled hand is called at this game: FOUL, or MISSET at Chinese poker."""
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
        if self.marks.dealt:
            parts.append(self.marks.dealt.spoken)
        if self.sitting_out:
            parts.append(_("sitting out"))
        if self.to_act:
            count = self.cards_to_take
            parts.append(ngettext("to act, {count} card", "to act, {count} cards", count).format(count=count))
        if self.fouled:
            parts.append(self.foul_word.lower())
        if self.marks.shown:
            parts.append(self.marks.shown.spoken)
        if self.voided:
            parts.append(_("hand voided"))
        if self.note:
            parts.append(self.note)
        for row in self.rows:
            cards = " ".join(row.cards) or _("empty")
            parts.append(_("{row}: {cards}").format(row=row_word(row.name), cards=cards))
        return "; ".join(parts)
