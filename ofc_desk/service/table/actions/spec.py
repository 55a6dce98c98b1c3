"""What one kind of event is, said once (issue 27): its check, its apply, its sentence, its replay
operation, its chips on the reports and who signs it. `service.table.actions` gathers the specs and
derives from them every list the service and the reports used to keep by hand."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

from ofc_desk.service.terms.events import ChipKind, EventKind
from ofc_desk.service.terms.outcome import Outcome
from ofc_desk.service.terms.payloads import RawPayload

TableT = TypeVar("TableT")
PayloadT = TypeVar("PayloadT")


class Signer(Enum):
    """Whose key signs an event of the kind (`service.store.signoffs`)."""

    DEALER = "dealer"
    SUPERVISOR = "supervisor"
    NOBODY = "nobody"


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
