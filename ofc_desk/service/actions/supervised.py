"""The floor's part, one spec each: the supervisor's actions (void a hand, correct chips, change
the rules, close the session; checked in `supervision`) and the requests for them (made by the
dealer, decided by a supervisor; checked in `requests`)."""

from __future__ import annotations

from typing import Any

from ofc_desk.i18n import _, formatting
from ofc_desk.service import requests, supervision
from ofc_desk.service.actions.spec import ActionSpec, Signer
from ofc_desk.service.actions.words import rules_words
from ofc_desk.service.events import ChipKind, EventKind
from ofc_desk.service.payloads import (
    ChipsCorrected,
    HandVoided,
    RequestDecided,
    RequestMade,
    RulesChanged,
    SessionClosed,
)
from ofc_desk.service.requests import REQUEST_KEY, request_words


def voided_sentence(void: HandVoided, actor: str) -> str:
    reason = void["reason"] or _("no reason given")
    said = _("{supervisor} voided hand {number}: {reason}{request}")
    return said.format(
        supervisor=void["supervisor"], number=void["hand"], reason=reason, request=_on_request(void)
    )


def rules_changed_sentence(change: RulesChanged, actor: str) -> str:
    said = _("{supervisor} changed the rules: {rules}{request}")
    rules = rules_words(change["rules"])
    return said.format(supervisor=change["supervisor"], rules=rules, request=_on_request(change))


def closed_sentence(closed: SessionClosed, actor: str) -> str:
    return _("{supervisor} closed the table").format(supervisor=closed["supervisor"])


def request_made_sentence(made: RequestMade, actor: str) -> str:
    said = _("{actor} asked the floor (request #{number}): {request} — {reason}")
    return said.format(
        actor=actor, number=made["request"], request=request_words(made), reason=made["reason"]
    )


def corrected_sentence(correction: ChipsCorrected, actor: str) -> str:
    reason = correction["reason"] or _("no reason given")
    said = _("{supervisor} corrected {player}'s chips by {amount}: {reason}{request}")
    return said.format(
        supervisor=correction["supervisor"],
        player=correction["player"],
        amount=formatting.signed_number(correction["amount"]),
        reason=reason,
        request=_on_request(correction),
    )


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


def _on_request(payload: HandVoided | ChipsCorrected | RulesChanged) -> str:
    """An action carried out on the floor's approval names its request."""
    number = payload.get("request")
    return "" if number is None else _(" (request #{number})").format(number=number)


HAND_VOIDED = ActionSpec(
    EventKind.HAND_VOIDED,
    supervision.check_voided,
    supervision.apply_voided,
    voided_sentence,
    Signer.SUPERVISOR,
    op="void",
    op_fields=("hand", "reason", REQUEST_KEY),
)
CHIPS_CORRECTED = ActionSpec(
    EventKind.CHIPS_CORRECTED,
    supervision.check_corrected,
    supervision.apply_corrected,
    corrected_sentence,
    Signer.SUPERVISOR,
    op="correct_chips",
    op_fields=("player", "amount", "reason", REQUEST_KEY),
    chips=ChipKind.CORRECTION,
)
RULES_CHANGED = ActionSpec(
    EventKind.RULES_CHANGED,
    supervision.check_rules_changed,
    supervision.apply_rules_changed,
    rules_changed_sentence,
    Signer.SUPERVISOR,
    op="change_rules",
    op_fields=(REQUEST_KEY,),
)
SESSION_CLOSED = ActionSpec(
    EventKind.SESSION_CLOSED,
    supervision.check_closed,
    supervision.apply_closed,
    closed_sentence,
    Signer.SUPERVISOR,
    op="close",
)
REQUEST_MADE = ActionSpec(
    EventKind.REQUEST_MADE,
    requests.check_request_made,
    requests.apply_request_made,
    request_made_sentence,
    Signer.NOBODY,
    op="request",
    op_fields=(REQUEST_KEY, "action", "details", "reason"),
)
REQUEST_DECIDED = ActionSpec(
    EventKind.REQUEST_DECIDED,
    requests.check_request_decided,
    requests.apply_request_decided,
    decided_sentence,
    Signer.SUPERVISOR,
    op="decide",
    op_fields=(REQUEST_KEY, "approved", "note"),
)

SUPERVISED_SPECS: tuple[ActionSpec[Any, Any], ...] = (
    HAND_VOIDED,
    CHIPS_CORRECTED,
    RULES_CHANGED,
    SESSION_CLOSED,
    REQUEST_MADE,
    REQUEST_DECIDED,
)
