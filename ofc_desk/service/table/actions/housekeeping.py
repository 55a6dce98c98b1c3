"""The events beside play and chips at a seat, one spec each: the hand-over to another dealer (and
a supervisor's takeover of a table live at another desk, issue 34), the presets pinned by migration
0007 (checked in `rule_pins`) and a supervisor's seed of the room's jackpot (checked in
`room_pool`, which keeps the pool)."""

from __future__ import annotations

from typing import Protocol

from ofc_desk.i18n import _, formatting, ngettext
from ofc_desk.service.room import room_pool
from ofc_desk.service.table import rule_pins
from ofc_desk.service.table.actions.spec import ActionSpec, Signer, Spec
from ofc_desk.service.table.supervision import approver
from ofc_desk.service.terms import reading
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.outcome import NO_ROWS, Outcome
from ofc_desk.service.terms.payloads import HandedOver, JackpotSeeded, RawPayload, RulesPinned, TakenOver


class DealingTable(Protocol):
    """What a hand-over changes of a table."""

    dealer_on_duty: str


class HousekeepingTable(DealingTable, rule_pins.PinningTable, room_pool.PoolTable, Protocol):
    """What the housekeeping kinds read and change of a table, between them."""


def check_handed_over(machine: DealingTable, raw: RawPayload) -> HandedOver:
    """Any time the table is open, mid-hand too: a shift ends when it ends."""
    return {"dealer": reading.name(raw.get("dealer"), _("a dealer"))}


def apply_handed_over(machine: DealingTable, payload: HandedOver) -> Outcome:
    machine.dealer_on_duty = payload["dealer"]
    return NO_ROWS


def handed_over_sentence(handed_over: HandedOver, actor: str) -> str:
    said = _("{actor} handed the table over to {dealer}")
    return said.format(actor=actor, dealer=handed_over["dealer"])


def check_taken_over(machine: DealingTable, raw: RawPayload) -> TakenOver:
    """Any time the table is open, mid-hand too: the desk that held it may have died mid-hand."""
    return {
        "dealer": reading.name(raw.get("dealer"), _("a dealer")),
        "desk": reading.name(raw.get("desk"), _("a desk")),
        "supervisor": approver(raw),
    }


def apply_taken_over(machine: DealingTable, payload: TakenOver) -> Outcome:
    machine.dealer_on_duty = payload["dealer"]
    return NO_ROWS


def taken_over_sentence(taken: TakenOver, actor: str) -> str:
    said = _("{supervisor} handed the table over to {dealer} at desk {desk}")
    return said.format(supervisor=taken["supervisor"], dealer=taken["dealer"], desk=taken["desk"])


def rules_pinned_sentence(pins: RulesPinned, actor: str) -> str:
    digests = pins["sha256"]
    pinned = ", ".join(
        _("{preset} (SHA-256 {digest}…)").format(preset=name, digest=digest[:12])
        for name, digest in sorted(digests.items())
    )
    said = _("{actor} pinned the preset numbers this table was played by: {presets}")
    return said.format(actor=actor, presets=pinned)


def seeded_sentence(seed: JackpotSeeded, actor: str) -> str:
    return ngettext(
        "{supervisor} seeded the room's jackpot with {chips} chip",
        "{supervisor} seeded the room's jackpot with {chips} chips",
        seed["chips"],
    ).format(supervisor=seed["supervisor"], chips=formatting.number(seed["chips"]))


HANDED_OVER = ActionSpec(
    EventKind.HANDED_OVER, check_handed_over, apply_handed_over, handed_over_sentence, Signer.DEALER
)
TAKEN_OVER = ActionSpec(
    EventKind.TAKEN_OVER, check_taken_over, apply_taken_over, taken_over_sentence, Signer.SUPERVISOR
)
RULES_PINNED = ActionSpec(
    EventKind.RULES_PINNED,
    rule_pins.check_rules_pinned,
    rule_pins.apply_rules_pinned,
    rules_pinned_sentence,
    Signer.NOBODY,
)
JACKPOT_SEEDED = ActionSpec(
    EventKind.JACKPOT_SEEDED,
    room_pool.check_seeded,
    room_pool.apply_seeded,
    seeded_sentence,
    Signer.SUPERVISOR,
    op="seed_jackpot",
    op_fields=("chips",),
)

HOUSEKEEPING_SPECS: tuple[Spec[HousekeepingTable], ...] = (
    HANDED_OVER,
    TAKEN_OVER,
    RULES_PINNED,
    JACKPOT_SEEDED,
)
