"""Corrected entries for a settled OFC hand (docs/rules.md §12), made from its entries as stored."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def swap_rows(entries: Sequence[Any], player: str) -> list[dict[str, Any]]:
    """The entries with two of `player`'s cards in each other's rows (the first two of different
    rows): a row keyed wrong. Every row keeps its count, so the hand stays legal street by street."""
    corrected = [{**entry, "rows": list(entry["rows"])} for entry in entries]
    spots = [
        (index, position)
        for index, entry in enumerate(corrected)
        if entry["player"] == player
        for position, row in enumerate(entry["rows"])
        if row != "discard"
    ]
    first = spots[0]

    def row_of(spot: tuple[int, int]) -> str:
        return str(corrected[spot[0]]["rows"][spot[1]])

    second = next(spot for spot in spots if row_of(spot) != row_of(first))
    a, b = row_of(first), row_of(second)
    corrected[first[0]]["rows"][first[1]] = b
    corrected[second[0]]["rows"][second[1]] = a
    return corrected
