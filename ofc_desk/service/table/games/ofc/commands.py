"""The entries that take open-face Chinese poker's kinds of turn (`view_parts.OfcTurn`), as commands
(`service.table.commands`): a street, and a Fantasyland player's whole set."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ofc_desk.service.table.commands import Entry
from ofc_desk.service.table.games.ofc.view_parts import OfcTurn
from ofc_desk.service.terms.events import EventKind


class Place(Entry):
    """A whole street for `player` (5 cards first; then 1, or 3 with one discard)."""

    kind = EventKind.PLACED


class Reveal(Entry):
    """A Fantasyland player's whole set (13 kept, the extras discarded), after every other player
    has finished; a face-down reveal."""

    kind = EventKind.REVEALED


OFC_TURN_ENTRIES: Final[Mapping[str, type[Entry]]] = {
    OfcTurn.STREET: Place,
    OfcTurn.FACE_DOWN_REVEAL: Place,  # the face-down cards of a regular hand are placed as a street
    OfcTurn.FANTASYLAND_SET: Reveal,
}
"""The command that enters each of OFC's kinds of turn (`choose.TURN_ENTRIES`)."""
