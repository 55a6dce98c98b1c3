"""One spec per kind of event (issue 27): `SPECS`, and every list derived from them.

The machine's checks and applies, the audit log's sentences, the replay script's operations and
their keys, the kinds the dealer and a supervisor sign and the reports' chip kinds are read from
the specs, so a new kind is said once, in its spec: the opening and the play of a hand (`hand`), a
seat's (`seating`) and its chips' (`chips`) work between hands, the supervisor's actions
(`supervised`), the requests to the floor for them (`floor_requests`) and the rest
(`housekeeping`).
"""

from __future__ import annotations

from typing import Final, Protocol

from ofc_desk.service.table.actions.chips import CHIP_SPECS
from ofc_desk.service.table.actions.floor_requests import FLOOR_REQUEST_SPECS
from ofc_desk.service.table.actions.hand import HAND_SPECS, PlayingTable
from ofc_desk.service.table.actions.hand_corrections import CORRECTION_SPECS, CorrectingTable
from ofc_desk.service.table.actions.housekeeping import HOUSEKEEPING_SPECS, HousekeepingTable
from ofc_desk.service.table.actions.seating import SEATING_SPECS
from ofc_desk.service.table.actions.spec import Signer, Spec
from ofc_desk.service.table.actions.supervised import SUPERVISED_SPECS
from ofc_desk.service.table.seats import SeatedTable
from ofc_desk.service.terms.events import ChipKind, EventKind


class ActionTable(PlayingTable, SeatedTable, CorrectingTable, HousekeepingTable, Protocol):
    """Every table a spec takes, at once: the table the registry's specs check and apply at
    (`TableMachine` meets it; the supervisor's and the floor's are among the correction's)."""


SPECS: Final[tuple[Spec[ActionTable], ...]] = (
    *HAND_SPECS,
    *SEATING_SPECS,
    *CHIP_SPECS,
    *SUPERVISED_SPECS,
    *CORRECTION_SPECS,
    *FLOOR_REQUEST_SPECS,
    *HOUSEKEEPING_SPECS,
)
SPEC_OF: Final[dict[EventKind, Spec[ActionTable]]] = {spec.kind: spec for spec in SPECS}
"""Each kind's spec: the machine's checks and applies (`Spec.checked`), the audit log's sentence."""

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
