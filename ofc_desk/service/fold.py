"""The one fold of a stored session into a `TableMachine`: a new machine, the presets migration
0007 pinned (`rule_pins.pins_in`, taken before any event is folded), then every event applied in
order with who recorded it.

A desk resuming (`persistence.EventStore.load`, `catch_up`), the floor following each open table
(`floor`), `replay --resume` matching a script and `verify` re-checking history all start here, so
a session folds the same wherever it is read.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Protocol

from ofc_desk.service.events import EventKind
from ofc_desk.service.machine import TableMachine
from ofc_desk.service.outcome import Outcome
from ofc_desk.service.rule_pins import pins_in


class StoredEvent(Protocol):
    """What folding reads of a stored event (an `Event` row or a selected row of its columns)."""

    @property
    def kind(self) -> str: ...

    @property
    def payload(self) -> str: ...

    @property
    def actor(self) -> str: ...


class PinnedEvent(Protocol):
    """What finding the pins reads of a stored event."""

    @property
    def kind(self) -> str: ...

    @property
    def payload(self) -> str: ...


def pinned_machine(events: Iterable[PinnedEvent]) -> TableMachine:
    """A new machine holding the presets a session's events pin, ready to fold them."""
    machine = TableMachine()
    machine.pinned_presets = pins_in((event.kind, event.payload) for event in events)
    return machine


def fold_event(machine: TableMachine, event: StoredEvent) -> Outcome:
    """One stored event re-checked and folded in; refused (`ActionRefused`, or the error of a
    payload that does not read) as the machine refuses it."""
    return machine.apply(EventKind(event.kind), json.loads(event.payload), event.actor)


def folded(events: Sequence[StoredEvent]) -> TableMachine:
    """The table a session's stored events give, all of them folded."""
    machine = pinned_machine(events)
    for event in events:
        fold_event(machine, event)
    return machine
