"""The dealer on duty: the hand-over event, and who dealt which hand, read from a session's events.

A hand-over is one event (`handed_over`), recorded as the outgoing dealer's and signed by them, that
names the dealer taking over; what follows is recorded as the new dealer's. Sessions recorded before
the event existed said a hand-over only by the actors of their events, which is how every session
is read here: a hand was dealt by each dealer who recorded any of its events, in order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from ofc_desk.i18n import _
from ofc_desk.service import reading
from ofc_desk.service.events import SUPERVISED, EventKind
from ofc_desk.service.outcome import NO_ROWS, Outcome
from ofc_desk.service.payloads import HandedOver, RawPayload

if TYPE_CHECKING:
    from ofc_desk.service.machine import TableMachine

NOT_THE_DEALERS = SUPERVISED | {EventKind.RULES_PINNED}
"""Events that say nothing of the dealer: a supervisor's, or migration 0007's."""


def check_handed_over(machine: TableMachine, raw: RawPayload) -> HandedOver:
    """Any time the table is open, mid-hand too: a shift ends when it ends."""
    return {"dealer": reading.name(raw.get("dealer"), _("a dealer"))}


def apply_handed_over(machine: TableMachine, payload: HandedOver) -> Outcome:
    machine.dealer_on_duty = payload["dealer"]
    return NO_ROWS


class DealerStep(NamedTuple):
    """What the reading needs of one stored event."""

    kind: str
    actor: str
    taken_over_by: str = ""
    """For a hand-over, the dealer taking over."""


class DealerShift(NamedTuple):
    """One dealer's part of a session: the hands they dealt (any part of), in order."""

    dealer: str
    hands: tuple[int, ...]


def hand_dealers(steps: Iterable[DealerStep]) -> dict[int, tuple[str, ...]]:
    """Each hand's number with the dealers who dealt it, in the order they took the table."""
    dealers: dict[int, dict[str, None]] = {}  # a dict keeps each name once, in order
    live = 0
    for step in steps:
        if step.kind in NOT_THE_DEALERS:
            continue
        if step.kind == EventKind.HAND_STARTED:
            live = len(dealers) + 1
            dealers[live] = {}
        if live:
            dealers[live].setdefault(step.actor)
            if step.kind == EventKind.HANDED_OVER:
                dealers[live].setdefault(step.taken_over_by)
        if step.kind == EventKind.HAND_SETTLED:
            live = 0
    return {number: tuple(name for name in names if name) for number, names in dealers.items()}


def dealer_shifts(steps: Sequence[DealerStep]) -> tuple[DealerShift, ...]:
    """Every dealer of the session in the order they first dealt at it (a dealer who opened the
    table and handed it over before the first hand too), each with the hands they dealt."""
    names: dict[str, None] = {}
    for step in steps:
        if step.kind not in NOT_THE_DEALERS:
            names.setdefault(step.actor)
        if step.kind == EventKind.HANDED_OVER:
            names.setdefault(step.taken_over_by)
    by_hand = hand_dealers(steps)
    return tuple(
        DealerShift(name, tuple(number for number, dealt in by_hand.items() if name in dealt))
        for name in names
        if name
    )
