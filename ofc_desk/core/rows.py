"""The three rows of an OFC hand and the words that name where a card goes."""

from __future__ import annotations

from enum import StrEnum
from typing import Final, Literal

from ofc_desk.i18n import LazyText, _, lazy_pgettext

DISCARD: Final = "discard"


class Row(StrEnum):
    FRONT = "front"
    MIDDLE = "middle"
    BACK = "back"

    @property
    def size(self) -> int:
        return ROW_SIZE[self]

    @property
    def label(self) -> LazyText:
        """The row's word in the reader's language (its value is the stored English)."""
        return _ROW_LABELS[self]


Placement = Row | Literal["discard"]
"""Where one entered card goes: a row, or the discards."""

ROWS: Final[tuple[Row, ...]] = (Row.FRONT, Row.MIDDLE, Row.BACK)
"""The rows front to back (iterating the enum itself costs a call per row)."""
ROW_SIZE: Final[dict[Row, int]] = {Row.FRONT: 3, Row.MIDDLE: 5, Row.BACK: 5}
HAND_SIZE: Final = sum(ROW_SIZE.values())
_ROW_LABELS: Final[dict[Row, LazyText]] = {
    Row.FRONT: lazy_pgettext("row", "front"),
    Row.MIDDLE: lazy_pgettext("row", "middle"),
    Row.BACK: lazy_pgettext("row", "back"),
}

_ROW_WORDS: Final[dict[str, Placement]] = {
    "front": Row.FRONT, "f": Row.FRONT, "top": Row.FRONT, "1": Row.FRONT,
    "middle": Row.MIDDLE, "m": Row.MIDDLE, "mid": Row.MIDDLE, "2": Row.MIDDLE,
    "back": Row.BACK, "b": Row.BACK, "bottom": Row.BACK, "3": Row.BACK,
    "discard": DISCARD, "x": DISCARD,
}  # fmt: skip


def parse_row_word(word: str) -> Placement:
    """`front`/`f`/`1`, `middle`/`m`/`2`, `back`/`b`/`3`, `discard`/`x`.

    >>> parse_row_word("M")
    <Row.MIDDLE: 'middle'>
    """
    try:
        return _ROW_WORDS.get(word) or _ROW_WORDS[word.strip().lower()]
    except KeyError:
        raise ValueError(
            _("'{word}' is not a row: use front, middle, back or discard").format(word=word)
        ) from None


DISCARD_LABEL: Final = lazy_pgettext("row", "discard")


def placement_label(stored: str) -> LazyText | str:
    """A stored placement ("front", "discard") in the reader's words; an unknown one as stored."""
    if stored == DISCARD:
        return DISCARD_LABEL
    return Row(stored).label if stored in _ROW_LABELS else stored


class EntryRefused(ValueError):
    """An entry the rules refuse, in either game's hand; the message says why, in words for the
    dealer."""


def already_in(card: object, player: str, place: Placement | None) -> str:
    """The refusal for a card met a second time, wherever it was met: "Qs is already in Ann's
    middle"; `place` None for a declared Chinese hand's cards, which lie in no row."""
    if place is None:
        return _("{card} is already in {player}'s cards").format(card=card, player=player)
    if place == DISCARD:
        return _("{card} is already in {player}'s discards").format(card=card, player=player)
    return _("{card} is already in {player}'s {row}").format(card=card, player=player, row=Row(place).label)
