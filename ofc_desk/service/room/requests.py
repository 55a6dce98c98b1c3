"""Requests for the floor: a void, a chip correction or a rules change the dealer asks for, which a
floor supervisor approves or declines at the floor view (or at the desk), and which the desk then
carries out between hands.

Three steps, each an event in the table's chain (docs/decisions.md, "Approvals from the floor"):
1. `request_made` (the dealer, with a reason): the action as the table would record it, checked now
   as if a supervisor had approved it, whatever the phase of the hand;
2. `request_decided` (a supervisor, signed with their key): approved or declined, with a note;
3. the action's own event (`hand_voided`, `chips_corrected`, `rules_changed`) naming the request and
   the approving supervisor, recorded by the desk once the table is between hands. Its check holds
   it to exactly what was approved, once.

The steps are specs, each with its check, apply and sentence: the first two in
`actions.floor_requests`, the third in `actions.supervised`. Here is the book they keep of each
request (`FloorRequest`), what the floor and the desk read of it, and the link from an action to
its request (`link_to_request`, `mark_applied`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Protocol, TypeVar

from ofc_desk.i18n import _, formatting
from ofc_desk.service.terms import reading
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import (
    ChipsCorrected,
    EventPayload,
    HandCorrected,
    HandVoided,
    RawPayload,
    RequestDecided,
    RequestMade,
    RulesChanged,
)
from ofc_desk.service.terms.snapshot import RequestView

REQUESTABLE: Final = (
    EventKind.HAND_VOIDED,
    EventKind.CHIPS_CORRECTED,
    EventKind.RULES_CHANGED,
    EventKind.HAND_CORRECTED,
)
"""What a dealer may ask the floor for."""
ASKED: Final[dict[EventKind, tuple[str, ...]]] = {
    EventKind.HAND_CORRECTED: ("hand", "entries", "reason", "difference")
}
"""The keys a request holds of an action whose other keys are worked out when it is carried out
(a corrected hand's differences, which the hand alone decides, are paid from the stacks as they
are then); every key of the rest."""


def asked_details(kind: EventKind, payload: Mapping[str, object]) -> dict[str, object]:
    """What a request asks for of an action's payload (its supervisor and request aside)."""
    keys = ASKED.get(kind)
    done = {key: value for key, value in payload.items() if key not in ("supervisor", REQUEST_KEY)}
    return done if keys is None else {key: done[key] for key in keys}


REQUEST_KEY: Final = "request"


def on_request(payload: Mapping[str, object]) -> str:
    """An action carried out on the floor's approval names its request in the audit log's
    sentence: " (request #2)"; "" for one done at once."""
    number = payload.get(REQUEST_KEY)
    return "" if number is None else _(" (request #{number})").format(number=number)


@dataclass
class FloorRequest:
    """A request to the floor, as the table's events tell it."""

    number: int
    action: EventKind
    details: dict[str, object]
    """The action's payload as the table would record it, without its supervisor."""
    reason: str
    decision: RequestDecided | None = None
    applied: bool = False

    @property
    def waiting(self) -> bool:
        return self.decision is None

    @property
    def approved(self) -> bool:
        return self.decision is not None and self.decision["approved"]

    @property
    def outstanding(self) -> bool:
        """Waiting for the floor, or approved and not yet carried out."""
        return self.waiting or (self.approved and not self.applied)

    def words(self) -> str:
        """What is asked for, as the floor reads it: "void hand 3", "Ann +50 chips"."""
        details = self.details
        if self.action is EventKind.HAND_VOIDED:
            return _("void hand {number}").format(number=details.get("hand"))
        if self.action is EventKind.HAND_CORRECTED:
            return _correct_hand_words(details)
        if self.action is EventKind.CHIPS_CORRECTED:
            amount = reading.whole_number(details.get("amount")) or 0
            said = _("correct {player}'s chips by {amount}")
            return said.format(player=details.get("player"), amount=formatting.signed_number(amount))
        return _("change the rules and stakes")

    def status(self) -> str:
        decision = self.decision
        if decision is None:
            return _("waiting for the floor")
        supervisor = decision["supervisor"]
        if not decision["approved"]:
            if decision["note"]:
                return _("declined by {supervisor}: {note}").format(
                    supervisor=supervisor, note=decision["note"]
                )
            return _("declined by {supervisor} (no note)").format(supervisor=supervisor)
        if self.applied:
            return _("approved by {supervisor}, done").format(supervisor=supervisor)
        return _("approved by {supervisor}, to be done between hands").format(supervisor=supervisor)

    def line(self) -> str:
        """ "#2 void hand 3 (misdeal) — waiting for the floor"."""
        said = _("#{number} {request} ({reason}) — {status}")
        return said.format(number=self.number, request=self.words(), reason=self.reason, status=self.status())


def _correct_hand_words(details: Mapping[str, object]) -> str:
    """A corrected hand with its differences, as the floor decides on it: "correct hand 2: Ann -12,
    Bob +5, Cy +7" (no chips change: the hand alone)."""
    number, difference = details.get("hand"), details.get("difference")
    if not isinstance(difference, Mapping) or not difference:
        return _("correct hand {number}").format(number=number)
    said = ", ".join(
        f"{name} {formatting.signed_number(reading.whole_number(d) or 0)}" for name, d in difference.items()
    )
    return _("correct hand {number}: {differences}").format(number=number, differences=said)


def open_request_views(requests: Mapping[int, FloorRequest]) -> tuple[RequestView, ...]:
    """The requests still waiting for the floor or for the hand to end, oldest first."""
    return tuple(
        RequestView(request.number, request.line(), request.waiting)
        for request in requests.values()
        if request.outstanding
    )


class RequestTable(Protocol):
    """What the requests to the floor read and change of a table (the machine; taken, not
    imported back)."""

    requests: dict[int, FloorRequest]
    phase_waived: bool

    def check_before_approval(self, kind: EventKind, raw: RawPayload) -> EventPayload: ...


def request_words(made: RequestMade) -> str:
    return FloorRequest(made["request"], EventKind(made["action"]), made["details"], made["reason"]).words()


Applied = TypeVar("Applied", HandVoided, ChipsCorrected, RulesChanged, HandCorrected)


def link_to_request(machine: RequestTable, kind: EventKind, raw: RawPayload, payload: Applied) -> Applied:
    """A supervised action that names a request is held to exactly what was approved, by whom it
    was approved, and only once; one that names none is the desk's own, approved by PIN."""
    number = raw.get(REQUEST_KEY)
    if number is None:
        return payload
    request = request_numbered(machine, number)
    if request.action is not kind:
        said = _("request #{number} asked to {request}, not this")
        raise ActionRefused(said.format(number=request.number, request=request.words()))
    decision = request.decision
    if decision is None or not decision["approved"]:
        said = _("request #{number} is not approved: {status}")
        raise ActionRefused(said.format(number=request.number, status=request.status()))
    if request.applied:
        raise ActionRefused(_("request #{number} was already carried out").format(number=request.number))
    if decision["supervisor"] != payload["supervisor"]:
        said = _("request #{number} was approved by {supervisor}")
        raise ActionRefused(said.format(number=request.number, supervisor=decision["supervisor"]))
    if asked_details(kind, payload) != request.details:
        said = _("request #{number} approved something else: {request}")
        raise ActionRefused(said.format(number=request.number, request=request.words()))
    payload["request"] = request.number
    return payload


def mark_applied(
    machine: RequestTable, payload: HandVoided | ChipsCorrected | RulesChanged | HandCorrected
) -> None:
    """An action carried out on a request: the request is done."""
    number = payload.get("request")
    if number is not None:
        machine.requests[number].applied = True


def ready_to_apply(machine: RequestTable) -> list[FloorRequest]:
    """Approved requests not yet carried out, oldest first."""
    return [request for request in machine.requests.values() if request.approved and not request.applied]


def request_numbered(machine: RequestTable, value: object) -> FloorRequest:
    """The request a raw action names by its number, or `ActionRefused`."""
    number = reading.whole_number(value)
    request = machine.requests.get(number) if number is not None else None
    if request is None:
        raise ActionRefused(_("there is no request #{number} at this table").format(number=value))
    return request
