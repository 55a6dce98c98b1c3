"""What the dealer types into the card entry, read into placements (syntax only, no game rule).

A placement is a card followed by its row key: ``qh f``, ``10d2``, ``Q♥b``, ``7c x``; a lone ``?``
(or ``??``) is a discard nobody saw. Several placements may follow each other in one line. The
text left over after the complete placements is either the start of the next one (still being
typed) or a mistake, which is named in the dealer's words and kept on screen to be corrected.

>>> keyed = read_keyed_text("qh f 10d2 ? 7c")
>>> [(str(p.card), p.placement) for p in keyed.placements]
[('Qh', 'front'), ('Td', 'middle'), ('None', 'discard')]
>>> keyed.rest, keyed.waiting_for_row, keyed.problem
('7c', True, '')

A line may start by naming the seat its cards are for: the seat number or the first letters of the
player's name, then a colon. Which player that is, and whether it is their turn, is not decided
here: the desk looks the name up among the seats and the service says whose turn it is.

>>> keyed = read_keyed_text("bo: qh f")
>>> keyed.seat, [(str(p.card), p.placement) for p in keyed.placements], keyed.problem
('bo', [('Qh', 'front')], '')
>>> read_keyed_text("2:10d m").seat
'2'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ofc_desk.core.cards import UNKNOWN_TOKEN, Card, CardError, parse_card
from ofc_desk.core.rows import DISCARD, parse_row_word, placement_label
from ofc_desk.i18n import _, pgettext

UNKNOWN_KEYS = (UNKNOWN_TOKEN, "?")
_WORD = re.compile(r"[A-Za-z]+")
_SEAT = re.compile(r"\s*([^\s:]+)\s*:")


@dataclass(frozen=True, slots=True)
class KeyedPlacement:
    """One card and where the dealer sent it; `card` is None for an unknown discard."""

    card: Card | None
    placement: str

    @property
    def label(self) -> str:
        return UNKNOWN_TOKEN if self.card is None else str(self.card)


def entry_lists(placements: Sequence[KeyedPlacement]) -> tuple[list[str], list[str]]:
    """Placements as the service takes them: the cards, and their rows."""
    return [p.label for p in placements], [p.placement for p in placements]


@dataclass(frozen=True, slots=True)
class KeyedText:
    """What the dealer typed, read: its placements and what is left."""

    placements: tuple[KeyedPlacement, ...]
    ends: tuple[int, ...]
    """Where each placement's text ends in what was typed."""
    rest: str
    waiting_for_row: bool
    problem: str
    seat: str = ""
    """The seat named before the cards (`2` or `bo` in `2:` or `bo:`), or "" for the player on turn."""
    seat_end: int = 0
    """Where the seat's name and its colon end in what was typed."""

    @property
    def complete(self) -> bool:
        """True when nothing is left half typed or wrong."""
        return not self.rest and not self.problem


def read_keyed_text(text: str, names: Sequence[str] = ()) -> KeyedText:
    """`names` are the seated players': the start of one ("bo" of "bo:") is no mistake yet.

    >>> read_keyed_text("bo", ["Ann", "Bob"]).problem, read_keyed_text("bo").problem[:20]
    ('', "'bo' is not a card: ")
    """
    placements: list[KeyedPlacement] = []
    ends: list[int] = []
    seat_match = _SEAT.match(text)
    seat, seat_end = (seat_match.group(1), seat_match.end()) if seat_match else ("", 0)
    rest = text[seat_end:].lstrip()
    while rest:
        step = _read_one(rest)
        if step is None:
            break
        placement, rest = step
        placements.append(placement)
        ends.append(len(text) - len(rest))
        rest = rest.lstrip()
    rest = rest.rstrip()
    waiting_for_row, problem = _judge_rest(rest)
    if problem and not placements and not seat and _could_become_seat(rest, names):
        problem = ""
    return KeyedText(tuple(placements), tuple(ends), rest, waiting_for_row, problem, seat, seat_end)


def keyed_text(placements: Iterable[KeyedPlacement]) -> str:
    """Placements written back in the entry's own syntax, which `read_keyed_text` reads again.

    >>> text = keyed_text(read_keyed_text("qh f 10d2 ? kc x").placements)
    >>> text
    'Qh front Td middle ?? Kc discard'
    >>> keyed_text(read_keyed_text(text).placements) == text
    True
    """
    return " ".join(UNKNOWN_TOKEN if p.card is None else f"{p.card} {p.placement}" for p in placements)


def row_word(placement: str) -> str:
    """A row as the reader says it; one without a label, as stored."""
    return str(placement_label(placement))


def _read_one(text: str) -> tuple[KeyedPlacement, str] | None:
    for key in UNKNOWN_KEYS:
        if text.startswith(key):
            after = text[len(key) :].lstrip()
            if after[:1].lower() == "x":
                after = after[1:]
            return KeyedPlacement(None, DISCARD), after
    card_and_after = _read_card(text)
    if card_and_after is None:
        return None
    card, after = card_and_after
    after = after.lstrip()
    row_and_after = _read_row(after)
    if row_and_after is None:
        return None
    row, remaining = row_and_after
    return KeyedPlacement(card, row), remaining


def _read_card(text: str) -> tuple[Card, str] | None:
    for length in (3, 2):
        try:
            return parse_card(text[:length]), text[length:]
        except CardError:
            continue
    return None


def _read_row(text: str) -> tuple[str, str] | None:
    word = _WORD.match(text)
    if word:
        try:
            return str(parse_row_word(word.group())), text[word.end() :]
        except ValueError:
            pass
    if not text:
        return None
    try:
        return str(parse_row_word(text[0])), text[1:]
    except ValueError:
        return None


def _judge_rest(rest: str) -> tuple[bool, str]:
    """(waiting for a row key, problem) for the text after the last complete placement."""
    if not rest:
        return False, ""
    card_and_after = _read_card(rest)
    if card_and_after is not None:
        card, after = card_and_after
        if not after.strip():
            return True, ""
        return False, _(
            "'{typed}' after {card} is not a row:"
            " use f, m, b (or 1, 2, 3), x to discard, ? for an unknown discard"
        ).format(typed=after.strip(), card=card)
    if _could_become_card(rest):
        return False, ""
    first = rest.split()[0]
    return False, _(
        "'{typed}' is not a card: type a rank (2-9, T or 10, J, Q, K, A) then a suit (s, h, d, c)"
    ).format(typed=first)


def _could_become_seat(text: str, names: Sequence[str]) -> bool:
    return _read_card(text) is None and any(name.casefold().startswith(text.casefold()) for name in names)


def _could_become_card(text: str) -> bool:
    for completion in ("s", "0s"):
        try:
            parse_card(text + completion)
        except CardError:
            continue
        return True
    return False


def seat_named(seat: str, seats: Mapping[int, str]) -> str:
    """The player a seat prefix means: a seat's number (seats keep theirs all session; `seats`
    maps each number shown to its player, "" for an empty seat) or the first letters of one name,
    in any case. Raises ValueError with the sentence the dealer reads.

    >>> seat_named("3", {1: "Ann", 2: "", 3: "Cy"}), seat_named("cy", {1: "Ann", 2: "", 3: "Cy"})
    ('Cy', 'Cy')
    >>> seat_named("2", {1: "Ann", 2: "", 3: "Cy"})
    Traceback (most recent call last):
    ValueError: seat 2 is empty: name a seat with a player (1 Ann, 3 Cy)
    >>> seat_named("a", {1: "Ann", 2: "Al"})
    Traceback (most recent call last):
    ValueError: 'a:' could be Ann or Al: type more of the name, or the seat number
    """
    names = [name for name in seats.values() if name]
    if seat.isdigit():
        number = int(seat)
        if seats.get(number):
            return seats[number]
        held = ", ".join(f"{n} {name}" for n, name in sorted(seats.items()) if name)
        if number in seats:
            raise ValueError(
                _("seat {number} is empty: name a seat with a player ({held})").format(
                    number=number, held=held
                )
            )
        raise ValueError(
            _("there is no seat {number} at this table (seats {held})").format(number=number, held=held)
        )
    matching = [name for name in names if name.casefold().startswith(seat.casefold())]
    whole = [name for name in matching if name.casefold() == seat.casefold()]
    if len(matching) == 1 or len(whole) == 1:
        return (whole or matching)[0]
    if not matching:
        raise ValueError(
            _("no player's name starts with '{seat}': name a seat by its number or its player").format(
                seat=seat
            )
        )
    # TRANSLATORS: between two players' names, spaces included: "Ann or Al".
    either = pgettext("between names", " or ").join(matching)
    raise ValueError(
        _("'{seat}:' could be {names}: type more of the name, or the seat number").format(
            seat=seat, names=either
        )
    )
