"""The supervisor's actions, one spec each, check, apply and sentence together: void a hand,
correct a seat's chips, change the rules, close the session.

A supervisor signs each (`Signer.SUPERVISOR`): `TableMachine.check` refuses one that names no
supervisor before its check runs, and the service has checked the supervisor's PIN before that.
Each but the close may be carried out on a request the floor approved (`floor_requests`): its
check holds it to that request through `requests.link_to_request`, its apply marks the request
done, its sentence names it.

A new supervised action is a spec here (its check, apply and sentence) and its entry in
`SUPERVISED_SPECS` (docs/architecture.md, "Where a change goes").
"""

from __future__ import annotations

from ofc_desk.core.settlement import MAX_CHIPS
from ofc_desk.i18n import _, formatting
from ofc_desk.service.room import requests, room_pool
from ofc_desk.service.room.requests import REQUEST_KEY
from ofc_desk.service.table import rule_pins
from ofc_desk.service.table.actions.spec import ActionSpec, Signer, Spec
from ofc_desk.service.table.actions.words import rules_words
from ofc_desk.service.table.games.choose import game_for
from ofc_desk.service.table.supervision import SupervisedTable, approver
from ofc_desk.service.terms import reading
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import ChipKind, EventKind, LedgerKind
from ofc_desk.service.terms.outcome import NO_ROWS, LedgerEntry, Outcome
from ofc_desk.service.terms.payloads import (
    ChipsCorrected,
    HandVoided,
    RawPayload,
    RulesChanged,
    SessionClosed,
)
from ofc_desk.service.terms.setup import TableRules


def check_voided(machine: SupervisedTable, raw: RawPayload) -> HandVoided:
    machine.require_between_hands(_("hands are voided"))
    number = reading.whole_number(raw.get("hand"))
    if number is None or number not in machine.hand_changes:
        raise ActionRefused(_("there is no settled hand {number} to void").format(number=raw.get("hand")))
    if number in machine.voided:
        raise ActionRefused(_("hand {number} is already voided").format(number=number))
    for name, change in machine.hand_changes[number].items():
        seat = next((seat for seat in machine.seats if seat.name == name), None)
        if seat is None:
            said = _("{player} has left the table: hand {number} cannot be voided")
            raise ActionRefused(said.format(player=name, number=number))
        if seat.stack - change < 0:
            said = _("voiding hand {number} would leave {player} with {chips} chips")
            raise ActionRefused(said.format(number=number, player=name, chips=seat.stack - change))
    payload: HandVoided = {"hand": number, "reason": reading.text(raw, "reason"), "supervisor": approver(raw)}
    return requests.link_to_request(machine, EventKind.HAND_VOIDED, raw, payload)


def apply_voided(machine: SupervisedTable, payload: HandVoided) -> Outcome:
    requests.mark_applied(machine, payload)
    number = payload["hand"]
    machine.voided.add(number)
    machine.jackpot_pool -= machine.hand_jackpots[number]
    ledger = []
    for name, change in machine.hand_changes[number].items():
        machine.seat(name).stack -= change
        if change:
            ledger.append(LedgerEntry(name, LedgerKind.VOID, -change, number, payload["reason"]))
    return Outcome(tuple(ledger), pool_moves=room_pool.void_moves(machine, number))


def voided_sentence(void: HandVoided, actor: str) -> str:
    reason = void["reason"] or _("no reason given")
    said = _("{supervisor} voided hand {number}: {reason}{request}")
    return said.format(
        supervisor=void["supervisor"], number=void["hand"], reason=reason, request=requests.on_request(void)
    )


def check_corrected(machine: SupervisedTable, raw: RawPayload) -> ChipsCorrected:
    machine.require_between_hands(_("chip corrections"))
    seat = machine.seat(str(raw.get("player")))
    amount = reading.whole_number(raw.get("amount"))
    if amount is None or not 0 < abs(amount) <= MAX_CHIPS:
        said = _("a correction is a whole number of chips, not 0, up to {limit} each way")
        raise ActionRefused(said.format(limit=formatting.number(MAX_CHIPS)))
    if seat.stack + amount < 0:
        raise ActionRefused(_("{player} has only {chips} chips").format(player=seat.name, chips=seat.stack))
    reason = reading.text(raw, "reason").strip()
    if not reason:
        raise ActionRefused(_("a chip correction needs a reason"))
    payload: ChipsCorrected = {
        "player": seat.name,
        "amount": amount,
        "reason": reason,
        "supervisor": approver(raw),
    }
    return requests.link_to_request(machine, EventKind.CHIPS_CORRECTED, raw, payload)


def apply_corrected(machine: SupervisedTable, payload: ChipsCorrected) -> Outcome:
    requests.mark_applied(machine, payload)
    machine.seat(payload["player"]).stack += payload["amount"]
    entry = LedgerEntry(payload["player"], LedgerKind.CORRECTION, payload["amount"], note=payload["reason"])
    return Outcome((entry,))


def corrected_sentence(correction: ChipsCorrected, actor: str) -> str:
    reason = correction["reason"] or _("no reason given")
    said = _("{supervisor} corrected {player}'s chips by {amount}: {reason}{request}")
    return said.format(
        supervisor=correction["supervisor"],
        player=correction["player"],
        amount=formatting.signed_number(correction["amount"]),
        reason=reason,
        request=requests.on_request(correction),
    )


def check_rules_changed(machine: SupervisedTable, raw: RawPayload) -> RulesChanged:
    machine.require_between_hands(_("rules and stakes change"))
    rules = reading.rules(raw.get("rules"))
    if rules.game is not machine.rules.game:
        raise ActionRefused(_("a table keeps its game: open a new table for Chinese poker or OFC"))
    game = game_for(rules)
    _least, most = game.seat_limits
    _refuse_if_owed_changes(machine, rules)
    if len(machine.seats) > most:
        said = _("{game} seats at most {most} players; {count} are seated")
        raise ActionRefused(said.format(game=game.label, most=most, count=len(machine.seats)))
    payload: RulesChanged = {"rules": rules.to_json(), "supervisor": approver(raw)}
    return requests.link_to_request(machine, EventKind.RULES_CHANGED, raw, payload)


def _refuse_if_owed_changes(machine: SupervisedTable, rules: TableRules) -> None:
    """A hand the game already owes (OFC's, earned: `games.ofc.carry`) is dealt by the rules it was
    earned under: rules that would deal otherwise wait until it is played, as the game says."""
    if not rule_pins.with_pins(rules, machine.pinned_presets).deals_like(machine.rules):
        machine.carried.refuse_rules_change([seat.name for seat in machine.seats])


def apply_rules_changed(machine: SupervisedTable, payload: RulesChanged) -> Outcome:
    requests.mark_applied(machine, payload)
    machine.set_rules(TableRules.from_json(payload["rules"]))
    return NO_ROWS


def rules_changed_sentence(change: RulesChanged, actor: str) -> str:
    said = _("{supervisor} changed the rules: {rules}{request}")
    rules = rules_words(change["rules"])
    return said.format(supervisor=change["supervisor"], rules=rules, request=requests.on_request(change))


def check_closed(machine: SupervisedTable, raw: RawPayload) -> SessionClosed:
    machine.require_between_hands(_("the session closes"))
    return {"supervisor": approver(raw)}


def apply_closed(machine: SupervisedTable, payload: SessionClosed) -> Outcome:
    machine.closed = True
    return Outcome(closes_session=True)


def closed_sentence(closed: SessionClosed, actor: str) -> str:
    return _("{supervisor} closed the table").format(supervisor=closed["supervisor"])


HAND_VOIDED = ActionSpec(
    EventKind.HAND_VOIDED,
    check_voided,
    apply_voided,
    voided_sentence,
    Signer.SUPERVISOR,
    op="void",
    op_fields=("hand", "reason", REQUEST_KEY),
)
CHIPS_CORRECTED = ActionSpec(
    EventKind.CHIPS_CORRECTED,
    check_corrected,
    apply_corrected,
    corrected_sentence,
    Signer.SUPERVISOR,
    op="correct_chips",
    op_fields=("player", "amount", "reason", REQUEST_KEY),
    chips=ChipKind.CORRECTION,
)
RULES_CHANGED = ActionSpec(
    EventKind.RULES_CHANGED,
    check_rules_changed,
    apply_rules_changed,
    rules_changed_sentence,
    Signer.SUPERVISOR,
    op="change_rules",
    op_fields=(REQUEST_KEY,),
)
SESSION_CLOSED = ActionSpec(
    EventKind.SESSION_CLOSED,
    check_closed,
    apply_closed,
    closed_sentence,
    Signer.SUPERVISOR,
    op="close",
)

SUPERVISED_SPECS: tuple[Spec[SupervisedTable], ...] = (
    HAND_VOIDED,
    CHIPS_CORRECTED,
    RULES_CHANGED,
    SESSION_CLOSED,
)
