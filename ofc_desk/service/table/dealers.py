"""The dealer on duty: the hand-over event, and who dealt which hand, read from a session's events.

A hand-over is one event (`handed_over`), recorded as the outgoing dealer's and signed by them, that
names the dealer taking over; what follows is recorded as the new dealer's. Sessions recorded before
the event existed said a hand-over only by the actors of their events, which is how every session
is read here: a hand was dealt by each dealer who recorded any of its events, in order.
"""

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from ofc_desk.service.table.actions import SUPERVISED
from ofc_desk.service.terms.events import EventKind

NOT_THE_DEALERS = SUPERVISED | {EventKind.RULES_PINNED}
"""Events whose actor is not the dealer: a supervisor's, or migration 0007's."""
HAND_OVERS = frozenset({EventKind.HANDED_OVER, EventKind.TAKEN_OVER})
"""The events that name the dealer taking the table: a hand-over, or a supervisor's takeover of a
table live at another desk (whose actor, the supervisor, deals nothing)."""


class DealerStep(NamedTuple):
    """What the reading needs of one stored event."""

    kind: str
    actor: str
    taken_over_by: str = ""
    """For a hand-over, the dealer taking over."""


def dealer_step(kind: str, actor: str, payload: Mapping[str, object]) -> DealerStep:
    """The step of a stored event read with its payload: a hand-over names who takes over."""
    return DealerStep(kind, actor, str(payload.get("dealer", "")) if kind in HAND_OVERS else "")


class DealerShift(NamedTuple):
    """One dealer's part of a session: the hands they dealt (any part of), in order."""

    dealer: str
    hands: tuple[int, ...]


def hand_dealers(steps: Iterable[DealerStep]) -> dict[int, tuple[str, ...]]:
    """Each hand's number with the dealers who dealt it, in the order they took the table."""
    dealers: dict[int, dict[str, None]] = {}  # a dict keeps each name once, in order
    live = 0
    for step in steps:
        if step.kind == EventKind.TAKEN_OVER and live:
            dealers[live].setdefault(step.taken_over_by)
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
        if step.kind in HAND_OVERS:
            names.setdefault(step.taken_over_by)
    by_hand = hand_dealers(steps)
    return tuple(
        DealerShift(name, tuple(number for number, dealt in by_hand.items() if name in dealt))
        for name in names
        if name
    )
