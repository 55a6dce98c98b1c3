"""Each settled hand's trace by its number (`TableMachine.hand_traces`, `corrections.HandTrace`),
read from a checkpoint only when first asked for (issue 39, point 3: ready to type).

A long session's traces are nearly all of its checkpoint: of a 2,000-hand table's 2.85 MB pickle,
all but about 80 KB, and nearly all the time it takes to thaw. Only a correction of a settled hand
reads them (`correction_view`, `actions.hand_corrections`); a resume, an entry, a settle (which adds
its hand's trace) and keeping the next checkpoint do not. So a checkpoint keeps them as parts of
their own, pickled apart from the rest of the table (`store.kept_file`), and a table thawed from it
holds those parts as they are, and the numbers of the hands in them, until one of those traces is
asked for: then every part is thawed at once, the traces added since over them. Keeping the next
checkpoint keeps the parts not read as they are, beside the traces added since. What a trace says
is the same either way; this module knows nothing of how a part is pickled (its `thaw` is given
with it), nor of any rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ofc_desk.service.table.corrections import HandTrace

Thaw = Callable[[bytes], dict[int, "HandTrace"]]
"""Makes a kept part's traces again."""


class HandTraces(MutableMapping[int, "HandTrace"]):
    """The traces of a table's settled hands, by hand number; those kept in a checkpoint's parts
    are thawed when one of them is first read. Which hands they are is known without thawing: the
    desk asks at every table state whether any settled hand may be corrected."""

    def __init__(self) -> None:
        self._traces: dict[int, HandTrace] = {}
        self._parts: tuple[bytes, ...] = ()
        self._kept: dict[int, None] = {}
        """The hands the parts hold, in their order (a dict: ordered, and quick to ask)."""
        self._thaw: Thaw | None = None

    @classmethod
    def kept(cls, parts: tuple[bytes, ...], numbers: tuple[int, ...], thaw: Thaw) -> HandTraces:
        """The traces of hands `numbers` kept in `parts` (the older first), each part made again by
        `thaw` when a trace is first read."""
        traces = cls()
        traces._parts, traces._kept, traces._thaw = parts, dict.fromkeys(numbers), thaw
        return traces

    def kept_parts(self) -> tuple[bytes, ...]:
        """The parts not thawed yet, as they were kept."""
        return self._parts

    def kept_numbers(self) -> tuple[int, ...]:
        """The hands those parts hold."""
        return tuple(self._kept)

    def added(self) -> dict[int, HandTrace]:
        """The traces read or added since the parts were kept (every trace once they are read)."""
        return self._traces

    def _read(self) -> dict[int, HandTrace]:
        if self._parts and self._thaw is not None:
            traces: dict[int, HandTrace] = {}
            for part in self._parts:
                traces.update(self._thaw(part))
            traces.update(self._traces)  # a trace added or corrected since stands
            self._traces, self._parts, self._kept, self._thaw = traces, (), {}, None
        return self._traces

    def __getitem__(self, number: int) -> HandTrace:
        if number in self._traces or number not in self._kept:
            return self._traces[number]
        return self._read()[number]

    def __setitem__(self, number: int, trace: HandTrace) -> None:
        self._traces[number] = trace

    def __delitem__(self, number: int) -> None:
        del self._read()[number]

    def __contains__(self, number: object) -> bool:
        return number in self._traces or number in self._kept

    def __iter__(self) -> Iterator[int]:
        yield from self._kept
        yield from (number for number in self._traces if number not in self._kept)

    def __len__(self) -> int:
        return len(self._kept) + sum(1 for number in self._traces if number not in self._kept)

    def __repr__(self) -> str:
        return f"HandTraces({self._read()!r})"
