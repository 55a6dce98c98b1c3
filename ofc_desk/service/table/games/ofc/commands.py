"""Open-face Chinese poker's entries as commands (`service.table.commands`): a street, and a Fantasyland
player's whole set."""

from __future__ import annotations

from dataclasses import dataclass

from ofc_desk.service.table.commands import Entry
from ofc_desk.service.terms.events import EventKind


@dataclass(frozen=True)
class Place(Entry):
    """A whole street for `player` (5 cards first; then 1, or 3 with one discard)."""

    kind = EventKind.PLACED


@dataclass(frozen=True)
class Reveal(Entry):
    """A Fantasyland player's whole set (13 kept, the extras discarded), after every other player
    has finished; a face-down reveal."""

    kind = EventKind.REVEALED
