"""One spec per kind of event (issue 27): `SPECS`, and every list derived from them.

The machine's checks and applies, the audit log's sentences, the replay script's operations and
their keys, the kinds the dealer and a supervisor sign and the reports' chip kinds are read from
the specs, so a new kind is said once, in its spec: the opening and the play of a hand (`hand`), a
seat's (`seating`) and its chips' (`chips`) work between hands, the supervisor's actions
(`supervised`), the requests to the floor for them (`floor_requests`) and the rest
(`housekeeping`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ofc_desk.service.table.actions.chips import CHIP_SPECS
from ofc_desk.service.table.actions.floor_requests import FLOOR_REQUEST_SPECS
from ofc_desk.service.table.actions.hand import HAND_SPECS
from ofc_desk.service.table.actions.hand_corrections import CORRECTION_SPECS
from ofc_desk.service.table.actions.housekeeping import HOUSEKEEPING_SPECS
from ofc_desk.service.table.actions.seating import SEATING_SPECS
from ofc_desk.service.table.actions.spec import ActionSpec, Signer
from ofc_desk.service.table.actions.supervised import SUPERVISED_SPECS
from ofc_desk.service.terms.events import ChipKind, EventKind
from ofc_desk.service.terms.outcome import Outcome
from ofc_desk.service.terms.payloads import EventPayload, RawPayload

SPECS: Final[tuple[ActionSpec[Any, Any], ...]] = (
    *HAND_SPECS,
    *SEATING_SPECS,
    *CHIP_SPECS,
    *SUPERVISED_SPECS,
    *CORRECTION_SPECS,
    *FLOOR_REQUEST_SPECS,
    *HOUSEKEEPING_SPECS,
)
SPEC_OF: Final[dict[EventKind, ActionSpec[Any, Any]]] = {spec.kind: spec for spec in SPECS}

CHECKERS: Final[dict[EventKind, Callable[[Any, RawPayload], EventPayload]]] = {
    spec.kind: spec.check for spec in SPECS
}
"""The specs' checks, for `TableMachine`'s table of checks."""
# Any: each applier takes its own kind's payload (as in `TableMachine._appliers`).
APPLIERS: Final[dict[EventKind, Callable[[Any, Any], Outcome]]] = {spec.kind: spec.apply for spec in SPECS}

DEALER_SIGNED: Final = frozenset(spec.kind for spec in SPECS if spec.signer is Signer.DEALER)
"""Kinds the dealer signs: every settlement, chip operation and hand-over (about one signature a
hand)."""
SUPERVISED: Final = frozenset(spec.kind for spec in SPECS if spec.signer is Signer.SUPERVISOR)
"""Kinds that need a floor supervisor's PIN; their payload names the supervisor, whose key signs
the event."""

CHIP_KINDS: Final[dict[EventKind, ChipKind]] = {
    spec.kind: spec.chips for spec in SPECS if spec.chips is not None
}
"""What the reports call the chips each kind moves, for `reports.loader`."""
