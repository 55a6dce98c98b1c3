"""A game registry whose shipped games' parts load the first time they are asked for (issue 39.3): a
table of one game never imports another game's modules, and a desk resuming an OFC table is ready
the sooner for not loading the closed Chinese game's.

A `Registry` is a mapping like the plain dict each registry was, in the order its games were given;
an entry given as `OnFirstUse(load)` is replaced by what `load()` gives (its game's modules
imported) the first time that entry is read. Asking which games it has (its keys, `in`, `len`) loads
nothing; reading its values or items loads each as it comes, so a reader that stops at the first
game it wants loads no other. A game registered at run time (`core.games.register_game`) is added as
a plain entry, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, MutableMapping
from typing import Generic, TypeVar

Key = TypeVar("Key")
Part = TypeVar("Part")


class OnFirstUse(Generic[Part]):
    """An entry of a `Registry` loaded when first read: `load` imports its game's part and gives it."""

    __slots__ = ("load",)

    def __init__(self, load: Callable[[], Part]) -> None:
        self.load = load


class Registry(MutableMapping[Key, Part]):
    """A game registry whose entries given as `OnFirstUse` load on first reading."""

    def __init__(self, entries: Mapping[Key, Part | OnFirstUse[Part]]) -> None:
        self._entries: dict[Key, Part | OnFirstUse[Part]] = dict(entries)

    def __getitem__(self, key: Key) -> Part:
        entry = self._entries[key]
        if isinstance(entry, OnFirstUse):
            # Two threads reading it first both load it: the same part, imported once.
            entry = self._entries[key] = entry.load()
        return entry

    def __setitem__(self, key: Key, part: Part) -> None:
        self._entries[key] = part

    def __delitem__(self, key: Key) -> None:
        del self._entries[key]

    def __iter__(self) -> Iterator[Key]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries
