"""A settled hand's entries as the supervisor edits them to correct it (docs/rules.md §12), one
line an entry, in the keys the dealer deals with (`key_syntax`): the player's seat or the first
letters of their name, a colon, then the cards with their rows (``ann: ah b kh b qh b``). In the
closed game a line may say ``surrender=true``, or ``declare=KIND`` before the cards. Syntax only: the
service checks the hand (`service.table.correction_view`), as when dealing. Qt-free.

>>> line = entry_line({"player": "Ann", "cards": ["Ah", "Kd"], "rows": ["back", "front"]})
>>> line
'Ann: Ah back Kd front'
>>> ann, bob = read_entry_lines(line + "\\n\\nbo: ?? qh m", {1: "Ann", 2: "Bob"})
>>> ann == {"player": "Ann", "cards": ["Ah", "Kd"], "rows": ["back", "front"]}
True
>>> bob == {"player": "Bob", "cards": [None, "Qh"], "rows": ["discard", "middle"]}
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ofc_desk.core.cards import CardError, parse_cards
from ofc_desk.desk.entry.key_syntax import KeyedPlacement, keyed_text, read_keyed_text, seat_named
from ofc_desk.i18n import _

ENTRY_KEYS = ("player", "cards", "rows")
"""What every entry says; anything else a game's entry says (the closed game's surrender or
declared special) is written as `key=value` before the cards, and read back the same way."""


def entry_line(entry: Mapping[str, Any]) -> str:
    """A stored entry (a street, a Fantasyland set, a showdown) as its line."""
    said = [f"{key}={_word(value)}" for key, value in entry.items() if key not in ENTRY_KEYS and value]
    rows = entry.get("rows")
    cards = entry.get("cards") or []
    if rows is None:
        said += list(cards)
    else:
        said.append(keyed_text(KeyedPlacement(_card(c), row) for c, row in zip(cards, rows, strict=True)))
    return f"{entry['player']}: {' '.join(said)}".rstrip()


def _word(value: object) -> str:
    return "true" if value is True else str(value)


def _card(text: str | None) -> Any:
    return None if text is None else parse_cards(text)[0]


def read_entry_lines(text: str, seats: Mapping[int, str]) -> list[dict[str, Any]]:
    """Each non-empty line as an entry; `ValueError` names the line and what is wrong in it."""
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entries.append(_read_line(line, seats))
        except ValueError as problem:
            raise ValueError(_("line {number}: {problem}").format(number=number, problem=problem)) from None
    return entries


def _read_line(line: str, seats: Mapping[int, str]) -> dict[str, Any]:
    keyed = read_keyed_text(line, list(seats.values()))
    if not keyed.seat:
        raise ValueError(_("name the player first: their seat or name, then a colon (ann: ah b)"))
    entry: dict[str, Any] = {"player": seat_named(keyed.seat, seats)}
    words = line[keyed.seat_end :].split()
    while words and "=" in words[0]:
        key, value = words.pop(0).split("=", 1)
        entry[key] = True if value == "true" else value
    rest = " ".join(words)
    return {**entry, **_cards_of(rest)} if rest else entry


def _cards_of(text: str) -> dict[str, Any]:
    """Cards with their rows, or (a declared special) the cards alone."""
    keyed = read_keyed_text(text)
    if keyed.placements and keyed.complete:
        cards = [None if p.card is None else str(p.card) for p in keyed.placements]
        return {"cards": cards, "rows": [p.placement for p in keyed.placements]}
    try:
        return {"cards": [str(card) for card in parse_cards(text)]}
    except CardError:
        raise ValueError(
            keyed.problem or _("a card needs its row: f, m, b (or 1, 2, 3), x to discard")
        ) from None
