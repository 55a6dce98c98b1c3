"""A floor supervisor corrects a settled hand (docs/rules.md §12), one spec: its check, apply and
sentence together. The hand is dealt again from the corrected entries and settled again from the
stacks it began with (`service.table.corrections`); each player's difference is paid now from the
stacks as they are, table stakes applying, and what cannot be paid is recorded as not covered.

Like the other supervised actions (`supervised`), it is signed by the supervisor and may be
carried out on a request the floor approved, held to the hand, entries and reason approved.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any, Protocol, cast

from ofc_desk.i18n import _, formatting
from ofc_desk.service.room import requests
from ofc_desk.service.room.requests import REQUEST_KEY
from ofc_desk.service.table.actions.spec import ActionSpec, Signer, Spec
from ofc_desk.service.table.corrections import (
    HandTrace,
    differences,
    net_of,
    owed_after,
    pay_now,
    rescore,
    settling_order,
)
from ofc_desk.service.table.games.base import GameTable
from ofc_desk.service.table.games.choose import CARRY_CORRECTION_WORDS
from ofc_desk.service.table.supervision import SupervisedTable, approver
from ofc_desk.service.terms import reading
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import ChipKind, EventKind, LedgerKind
from ofc_desk.service.terms.outcome import LedgerEntry, Outcome
from ofc_desk.service.terms.payloads import (
    CorrectedCarry,
    CorrectedHand,
    EntryPayload,
    HandCorrected,
    RawPayload,
    ShownPayload,
)


class CorrectingTable(SupervisedTable, GameTable, Protocol):
    """What a correction reads and changes of a table (the machine; taken, not imported back)."""

    hand_traces: MutableMapping[int, HandTrace]
    hands_started: int

    def next_clockwise(self, name: str) -> str: ...


def check_hand_corrected(machine: CorrectingTable, raw: RawPayload) -> HandCorrected:
    machine.require_between_hands(_("settled hands are corrected"))
    number = reading.whole_number(raw.get("hand"))
    trace = machine.hand_traces.get(number) if number is not None else None
    if number is None or trace is None:
        raise ActionRefused(_("there is no settled hand {number} to correct").format(number=raw.get("hand")))
    if number in machine.voided:
        raise ActionRefused(_("hand {number} is voided: it cannot be corrected").format(number=number))
    rescored = rescore(trace, raw.get("entries"))
    if rescored.entries == trace.entries:
        said = _("these are hand {number}'s entries as they stand: there is nothing to correct")
        raise ActionRefused(said.format(number=number))
    difference = differences(trace.net, net_of(rescored.result))
    seated = {seat.name: seat.stack for seat in machine.seats}
    now = pay_now(difference, settling_order(trace), seated)
    carry = CorrectedCarry(
        owed_after(trace, rescored.live, rescored.result), trace.owed_next, _follows(machine, trace)
    )
    corrected: CorrectedHand = {
        "hand": number,
        "entries": [cast(EntryPayload | ShownPayload, entry) for entry in rescored.entries],
        "result": rescored.result.to_json(),
        "difference": {name: d for name, d in difference.items() if d},
        "paid": now.paid,
        "not_covered": now.not_covered,
        "stacks_after": {n: seated[n] + now.paid.get(n, 0) for n in trace.deal.order if n in seated},
        "reason": reading.text(raw, "reason").strip(),
        "supervisor": approver(raw),
    }
    payload: HandCorrected = {**corrected, **carry.stored()}
    return requests.link_to_request(machine, EventKind.HAND_CORRECTED, raw, payload)


def _follows(machine: CorrectingTable, trace: HandTrace) -> bool:
    """The next hand's carry-over and button follow the corrected hand only when it is the last
    settled one, the next has not started and everyone dealt in is still seated."""
    seated = {seat.name for seat in machine.seats}
    return (
        trace.deal.number == machine.hands_started
        and machine.hand_settled
        and set(trace.deal.order) <= seated
    )


def apply_hand_corrected(machine: CorrectingTable, payload: HandCorrected) -> Outcome:
    requests.mark_applied(machine, payload)
    number = payload["hand"]
    trace = machine.hand_traces[number]
    changes = machine.hand_changes[number]
    ledger = []
    # The chip ledger's note says which hand, in the record's English (as every stored note).
    note = f"hand {number} corrected" + (f": {payload['reason']}" if payload["reason"] else "")
    for name in trace.deal.order:
        chips = payload["paid"].get(name, 0)
        if chips:
            machine.seat(name).stack += chips
            changes[name] = changes.get(name, 0) + chips  # a void takes these back too
            ledger.append(LedgerEntry(name, LedgerKind.HAND_CORRECTION, chips, number, note))
    rescored = rescore(trace, payload["entries"])
    carry = CorrectedCarry.of(payload)
    if carry.follows:
        _carry_on(machine, trace, rescored.live, rescored.result)
    machine.hand_traces[number] = HandTrace(
        trace.game,
        trace.rules,
        trace.deal,
        trace.seats,
        rescored.entries,
        net_of(rescored.result),
        dict(carry.owed),
        trace.button_before,
        trace.corrections + 1,
    )
    return Outcome(tuple(ledger))


def _carry_on(machine: CorrectingTable, trace: HandTrace, live: Any, result: Any) -> None:
    """The next hand's carry-over and button as the corrected hand leaves them: what the hand
    before carried over and the button put back as they were before the hand settled, then carried
    on."""
    machine.carried = trace.deal.carried
    machine.button = trace.button_before
    live.after_settling(machine, result)


def hand_corrected_sentence(correction: HandCorrected, actor: str) -> str:
    said = _("{supervisor} corrected hand {number}: {differences}{not_covered}{carried}{request}")
    return said.format(
        supervisor=correction["supervisor"],
        number=correction["hand"],
        differences=differences_words(correction["difference"]),
        not_covered=not_covered_words(correction["not_covered"]),
        carried=carried_words(CorrectedCarry.of(correction)),
        request=requests.on_request(correction),
    )


def differences_words(difference: dict[str, int]) -> str:
    """ "Ann −12, Bob +5, Cy +7", or that no chips change."""
    if not difference:
        return _("no chips change")
    return ", ".join(f"{name} {formatting.signed_number(d)}" for name, d in difference.items())


def not_covered_words(not_covered: dict[str, int]) -> str:
    """What the floor settles off the table: "; not covered: Ann −1, Cy +1"."""
    if not not_covered:
        return ""
    return _("; not covered: {chips}").format(chips=differences_words(not_covered))


def carried_words(carry: CorrectedCarry) -> str:
    """What the correction changes of what the next hand owes, in its game's words ("" if nothing)."""
    return "".join(words(carry) for words in CARRY_CORRECTION_WORDS.values())


HAND_CORRECTED = ActionSpec(
    EventKind.HAND_CORRECTED,
    check_hand_corrected,
    apply_hand_corrected,
    hand_corrected_sentence,
    Signer.SUPERVISOR,
    op="correct_hand",
    op_fields=("hand", "entries", "reason", REQUEST_KEY),
    chips=ChipKind.HAND_CORRECTION,
)

CORRECTION_SPECS: tuple[Spec[CorrectingTable], ...] = (HAND_CORRECTED,)
