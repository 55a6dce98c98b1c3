"""The three rows of a hand (both games': `SetHand`, and the order their high hands keep) and the
words that name where a card goes."""

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Final, Literal, NamedTuple, cast

from ofc_desk.core.cards import Card, parse_cards
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


class SetHand(NamedTuple):
    """A finished hand: 3 cards in front, 5 in the middle, 5 in the back."""

    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]

    @classmethod
    def parse(cls, front: str, middle: str, back: str) -> "SetHand":
        return cls(tuple(parse_cards(front)), tuple(parse_cards(middle)), tuple(parse_cards(back)))

    def row(self, row: Row) -> tuple[Card, ...]:
        cards: tuple[Card, ...] = getattr(self, row.value)
        return cards

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.front + self.middle + self.back


HIGH_ROW_ORDER: Final[tuple[tuple[int, int], ...]] = ((0, 1), (1, 2), (0, 2))
"""The rows (by place, front to back) whose high hands may not go down, each pair lower first:
both games' foul (OFC's, docs/rules.md §3) and misset (closed Chinese poker's, §10)."""


def rows_out_of_order(values: Sequence[int | None], order: Sequence[tuple[int, int]] = HIGH_ROW_ORDER) -> str:
    """Why rows of these strengths (front, middle, back; None for a row not yet full) are out of
    order, as stored ("the middle is weaker than the front"), or "" while they are not."""
    for lower, upper in order:
        weaker, stronger = values[lower], values[upper]
        if weaker is not None and stronger is not None and stronger < weaker:
            return f"the {ROWS[upper].value} is weaker than the {ROWS[lower].value}"
    return ""


_ROW_WORDS: Final[dict[str, Placement]] = {
    "front": Row.FRONT, "f": Row.FRONT, "top": Row.FRONT, "1": Row.FRONT,
    "middle": Row.MIDDLE, "m": Row.MIDDLE, "mid": Row.MIDDLE, "2": Row.MIDDLE,
    "back": Row.BACK, "b": Row.BACK, "bottom": Row.BACK, "3": Row.BACK,
    "discard": DISCARD, "x": DISCARD,
}  # fmt: skip


_LOOK_UP_ROW_WORD: Final = cast(Callable[[object], Placement], _ROW_WORDS.__getitem__)
"""A word that is not text is looked up too: it is no key (KeyError) or cannot be one (TypeError).
Made once: the cast's `Callable[...]` is built when it runs, a tenth of the call."""


def parse_row_words(words: Sequence[object]) -> tuple[Placement, ...]:
    """`parse_row_word` of each word (each as text), in one lookup each for the words as the
    desk stores them (`verify` reads every entry of a long session); any other is read as
    `parse_row_word` reads it, or refused with its sentence.

    >>> parse_row_words(["front", "M", 3])
    (<Row.FRONT: 'front'>, <Row.MIDDLE: 'middle'>, <Row.BACK: 'back'>)
    """
    try:
        return tuple(map(_LOOK_UP_ROW_WORD, words))
    except (KeyError, TypeError):  # another spelling, or not text
        return tuple([parse_row_word(str(word)) for word in words])


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
