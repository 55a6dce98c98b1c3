"""The one fold of a stored session into a `TableMachine`: a new machine, the presets migration
0007 pinned (`rule_pins.pins_in`, taken before any event is folded), then every event read,
re-checked by the rules and applied in order with who recorded it.

Every reader of a session's events folds them here (issue 37): a desk resuming
(`persistence.EventStore.load`, `catch_up`) and the floor following each open table (`floor`)
fold plainly; `verify` (`verify_session`) and the floor's count of the room's pool (`pool_ledger`)
add their checks as hooks, and `replay --resume` matches its script to the stored events in one.
So a session folds the same wherever it is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Generic, Protocol, TypeVar

from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.table.rule_pins import pins_in
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.outcome import Outcome
from ofc_desk.service.terms.payloads import EventPayload
from ofc_desk.storage.audit import read_json

REFUSALS = (ActionRefused, ValueError, KeyError, TypeError)
"""What folding an event may raise: the rules refuse it, or its kind or payload does not read."""
_KINDS = {kind.value: kind for kind in EventKind}
"""Each stored kind's member, looked up without the enum's call (once per event of a session)."""


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


H = TypeVar("H", contravariant=True)
"""The events a reader's hooks read. Not bound to `StoredEvent` here (`fold`'s own is): mypy checks
a class's type argument against a bound before a model's columns are typed, and would refuse an
`Event` row."""
E = TypeVar("E", bound=StoredEvent)


class FoldHooks(Generic[H]):
    """What a reader adds to the fold of its events. Here each hook does nothing but `refused`,
    which raises what refused the event: a plain fold."""

    def before(self, machine: TableMachine, event: H) -> None:
        """Before `event` is read; what this raises of `REFUSALS` goes to `refused`."""

    def checked(self, event: H, kind: EventKind, canonical: EventPayload) -> None:
        """`event` read and accepted by the rules, before it is applied; as `before` for raising."""

    def folded(self, event: H, outcome: Outcome) -> None:
        """`event` applied; what this raises leaves the fold."""

    def refused(self, event: H, error: Exception) -> None:
        """`event` refused (one of `REFUSALS`): the fold stops there."""
        raise error


PLAIN: FoldHooks[StoredEvent] = FoldHooks()


def fold(machine: TableMachine, events: Iterable[E], hooks: FoldHooks[E] = PLAIN) -> bool:
    """Fold `events` into `machine` in order, each re-checked by the rules; False when one was
    refused (and `hooks.refused` did not raise), those after it left unfolded."""
    for event in events:
        try:
            hooks.before(machine, event)
            kind = _KINDS.get(event.kind) or EventKind(event.kind)
            checked = machine.checked(kind, read_json(event.payload))
            hooks.checked(event, kind, checked.payload)
            outcome = machine.apply_checked(checked, event.actor)
        except REFUSALS as error:
            hooks.refused(event, error)
            return False
        hooks.folded(event, outcome)
    return True


def pinned_machine(events: Iterable[PinnedEvent]) -> TableMachine:
    """A new machine holding the presets a session's events pin, ready to fold them."""
    machine = TableMachine()
    machine.pinned_presets = pins_in((event.kind, event.payload) for event in events)
    return machine


def folded(events: Sequence[StoredEvent]) -> TableMachine:
    """The table a session's stored events give, all of them folded."""
    machine = pinned_machine(events)
    fold(machine, events)
    return machine
