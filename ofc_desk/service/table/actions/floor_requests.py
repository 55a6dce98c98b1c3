"""The requests to the floor, one spec each, check, apply and sentence together: the dealer asks
for a void, a chip correction or a rules change (`request_made`), a supervisor approves or
declines it (`request_decided`). The action asked for is then carried out between hands as its own
event (`supervised`), held to what was approved.

The book the three steps keep of each request (`FloorRequest`, what the floor and the desk read
of it, the link from an action to its request) is `service.room.requests`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ofc_desk.i18n import _
from ofc_desk.service.room.requests import (
    REQUEST_KEY,
    REQUESTABLE,
    FloorRequest,
    RequestTable,
    asked_details,
    request_numbered,
    request_words,
)
from ofc_desk.service.table.actions.spec import ActionSpec, Signer, Spec
from ofc_desk.service.table.supervision import approver
from ofc_desk.service.terms import reading
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.outcome import NO_ROWS, Outcome
from ofc_desk.service.terms.payloads import RawPayload, RequestDecided, RequestMade


def check_request_made(machine: RequestTable, raw: RawPayload) -> RequestMade:
    """The action asked for is checked now, as if a supervisor had approved it, whatever the
    phase of the hand."""
    number = len(machine.requests) + 1
    given = raw.get(REQUEST_KEY)
    if given is not None and reading.whole_number(given) != number:
        raise ActionRefused(
            _("the next request is number {number}, not {given}").format(number=number, given=given)
        )
    action = _requestable(raw.get("action"))
    reason = reading.text(raw, "reason").strip()
    if not reason:
        raise ActionRefused(_("a request to the floor needs the dealer's reason"))
    details = raw.get("details")
    if not isinstance(details, dict):
        raise ActionRefused(_("a request needs the details of the action asked for"))
    with _any_phase(machine):
        checked = asked_details(
            action, machine.check_before_approval(action, {**details, "supervisor": "", REQUEST_KEY: None})
        )
    for request in machine.requests.values():
        if request.outstanding and request.action is action and request.details == checked:
            said = _("that is request #{number} already: {status}")
            raise ActionRefused(said.format(number=request.number, status=request.status()))
    return {"request": number, "action": action.value, "details": checked, "reason": reason}


def _requestable(value: object) -> EventKind:
    for kind in REQUESTABLE:
        if value == kind.value:
            return kind
    asked = ", ".join(kind.value for kind in REQUESTABLE)
    raise ActionRefused(
        _("the floor is asked for one of {asked}, not {value}").format(asked=asked, value=repr(value))
    )


@contextmanager
def _any_phase(machine: RequestTable) -> Iterator[None]:
    """A request may be made while a hand is played: what it asks for is done between hands."""
    machine.phase_waived = True
    try:
        yield
    finally:
        machine.phase_waived = False


def apply_request_made(machine: RequestTable, payload: RequestMade) -> Outcome:
    number = payload["request"]
    action = EventKind(payload["action"])
    machine.requests[number] = FloorRequest(number, action, payload["details"], payload["reason"])
    return NO_ROWS


def request_made_sentence(made: RequestMade, actor: str) -> str:
    said = _("{actor} asked the floor (request #{number}): {request} — {reason}")
    return said.format(
        actor=actor, number=made["request"], request=request_words(made), reason=made["reason"]
    )


def check_request_decided(machine: RequestTable, raw: RawPayload) -> RequestDecided:
    request = request_numbered(machine, raw.get(REQUEST_KEY))
    decision = request.decision
    if decision is not None:
        if decision["approved"]:
            said = _("request #{number} was already approved by {supervisor}")
        else:
            said = _("request #{number} was already declined by {supervisor}")
        raise ActionRefused(said.format(number=request.number, supervisor=decision["supervisor"]))
    approved = raw.get("approved")
    if not isinstance(approved, bool):
        raise ActionRefused(_("a decision on a request is approved: true or false"))
    return {
        "request": request.number,
        "approved": approved,
        "supervisor": approver(raw),
        "note": reading.text(raw, "note"),
    }


def apply_request_decided(machine: RequestTable, payload: RequestDecided) -> Outcome:
    machine.requests[payload["request"]].decision = payload
    return NO_ROWS


def decided_sentence(decided: RequestDecided, actor: str) -> str:
    fields = {"supervisor": decided["supervisor"], "number": decided["request"], "note": decided["note"]}
    if decided["approved"]:
        said = (
            _("{supervisor} approved request #{number}: {note}")
            if decided["note"]
            else _("{supervisor} approved request #{number}")
        )
    else:
        said = (
            _("{supervisor} declined request #{number}: {note}")
            if decided["note"]
            else _("{supervisor} declined request #{number}")
        )
    return said.format(**fields)


REQUEST_MADE = ActionSpec(
    EventKind.REQUEST_MADE,
    check_request_made,
    apply_request_made,
    request_made_sentence,
    Signer.NOBODY,
    op="request",
    op_fields=(REQUEST_KEY, "action", "details", "reason"),
)
REQUEST_DECIDED = ActionSpec(
    EventKind.REQUEST_DECIDED,
    check_request_decided,
    apply_request_decided,
    decided_sentence,
    Signer.SUPERVISOR,
    op="decide",
    op_fields=(REQUEST_KEY, "approved", "note"),
)

FLOOR_REQUEST_SPECS: tuple[Spec[RequestTable], ...] = (REQUEST_MADE, REQUEST_DECIDED)
