"""What one kind of event is, said once (issue 27): its check, its apply, its sentence, its replay
operation, its chips on the reports and who signs it. `service.table.actions` gathers the specs and
derives from them every list the service and the reports used to keep by hand.

A spec is typed with its payload (`ActionSpec`): mypy checks that its check returns what its apply
takes and its sentence says. The registry holds every kind's spec as a `Spec`, its payload's type
erased: the only way to a spec's apply from there is `checked`, which checks the raw action and
binds the canonical payload to the apply (`CheckedAction`), so a payload never reaches the apply
of another kind."""

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Generic, NamedTuple, Never, Protocol, TypeVar

from ofc_desk.service.terms.events import ChipKind, EventKind
from ofc_desk.service.terms.outcome import Outcome
from ofc_desk.service.terms.payloads import EventPayload, RawPayload

TableT = TypeVar("TableT")
TableT_contra = TypeVar("TableT_contra", contravariant=True)
PayloadT = TypeVar("PayloadT", bound=EventPayload)


class Signer(Enum):
    """Whose key signs an event of the kind (`service.store.signoffs`)."""

    DEALER = "dealer"
    SUPERVISOR = "supervisor"
    NOBODY = "nobody"


class CheckedAction(NamedTuple):
    """An action its spec's check accepted at a table: its canonical payload (what is stored, and
    what `verify` compares with what was) and the apply that folds that payload into that table.
    (A named tuple: `verify` makes one for every event of a long session, and a frozen
    dataclass's `__init__` sets each field through `object.__setattr__`.)"""

    kind: EventKind
    payload: EventPayload
    at: object
    """The table it was checked at."""
    fold: Callable[[], Outcome]
    """The spec's apply of `payload` to that table (no second check)."""


class Spec(Protocol[TableT_contra]):
    """A kind's spec with its payload's type erased, as the registry holds it. `TableT_contra` is
    the table it checks and applies at: a protocol the machine meets."""

    @property
    def kind(self) -> EventKind: ...
    @property
    def signer(self) -> Signer: ...
    @property
    def op(self) -> str | None: ...
    @property
    def op_fields(self) -> tuple[str, ...]: ...
    @property
    def chips(self) -> ChipKind | None: ...
    @property
    def sentence(self) -> Callable[[Never, str], str]:
        """Said of its own kind's payload only: a caller that holds a stored payload of unknown
        shape says why it is that kind's (`service.store.sentences`)."""
        ...

    def checked(self, table: TableT_contra, raw: RawPayload) -> CheckedAction:
        """The raw action checked at `table` (or `ActionRefused`), ready to be applied there."""
        ...


@dataclass(frozen=True)
class ActionSpec(Generic[TableT, PayloadT]):
    """One kind of event. `TableT` is what its rules read and change of a table, a protocol the
    machine meets (`seats.SeatedTable`…), so the specs never import the machine; `PayloadT` is its
    payload's `TypedDict` (`service.terms.payloads`)."""

    kind: EventKind
    check: Callable[[TableT, RawPayload], PayloadT]
    """Reads the raw action and returns its canonical payload, or raises `ActionRefused`."""
    apply: Callable[[TableT, PayloadT], Outcome]
    """Folds a checked payload into the table; the ledger rows it returns are the event's."""
    sentence: Callable[[PayloadT, str], str]
    """The event in the audit log's words, given its payload and who recorded it."""
    signer: Signer
    op: str | None = None
    """The `between` operation of a replay script that makes it (`service.replays.replay_vocabulary`);
    None for a kind a script says otherwise (a hand-over is `{"op": "dealer"}` among the actions)
    or not at all (the pinned presets)."""
    op_fields: tuple[str, ...] = ()
    """The keys that operation carries."""
    chips: ChipKind | None = None
    """What the reports call the chips it moves onto or off a stack; None if it moves none."""

    def checked(self, table: TableT, raw: RawPayload) -> CheckedAction:
        payload = self.check(table, raw)
        return CheckedAction(self.kind, payload, table, lambda: self.apply(table, payload))
