"""The chip work at a seat between hands: a rebuy and a cash-out, each one spec.

A new chip operation is a spec here (its check, apply and sentence) and its entry in `CHIP_SPECS`.
"""

from __future__ import annotations

from ofc_desk.i18n import _, formatting, ngettext
from ofc_desk.service.table.actions.spec import ActionSpec, Signer, Spec
from ofc_desk.service.table.seats import SeatedTable, seat_named
from ofc_desk.service.terms import reading
from ofc_desk.service.terms.events import ChipKind, EventKind, LedgerKind
from ofc_desk.service.terms.outcome import LedgerEntry, Outcome
from ofc_desk.service.terms.payloads import CashedOut, RawPayload, Rebought


def check_rebought(machine: SeatedTable, raw: RawPayload) -> Rebought:
    machine.require_between_hands(_("rebuys"))
    seat = seat_named(machine, str(raw.get("player")))
    return {"player": seat.name, "amount": reading.chips(raw.get("amount"), _("a rebuy"))}


def apply_rebought(machine: SeatedTable, payload: Rebought) -> Outcome:
    seat_named(machine, payload["player"]).stack += payload["amount"]
    return Outcome((LedgerEntry(payload["player"], LedgerKind.REBUY, payload["amount"]),))


def rebought_sentence(rebuy: Rebought, actor: str) -> str:
    said = ngettext("{player} rebought {amount} chip", "{player} rebought {amount} chips", rebuy["amount"])
    return said.format(player=rebuy["player"], amount=formatting.number(rebuy["amount"]))


def check_cashed_out(machine: SeatedTable, raw: RawPayload) -> CashedOut:
    machine.require_between_hands(_("cash-outs"))
    seat = seat_named(machine, str(raw.get("player")))
    machine.carried.refuse_leaving(seat.name, seat.stack, leaving=True)
    return {"player": seat.name, "amount": seat.stack}


def apply_cashed_out(machine: SeatedTable, payload: CashedOut) -> Outcome:
    """The player leaves; their seat stays, empty, with its number."""
    name = payload["player"]
    if machine.button == name and len(machine.seats) > 1:
        machine.button = machine.next_clockwise(name)
    machine.seats.remove(seat_named(machine, name))
    machine.carried = machine.carried.without(name)
    return Outcome((LedgerEntry(name, LedgerKind.CASH_OUT, -payload["amount"]),))


def cashed_out_sentence(cash_out: CashedOut, actor: str) -> str:
    said = ngettext(
        "{player} cashed out {amount} chip", "{player} cashed out {amount} chips", cash_out["amount"]
    )
    return said.format(player=cash_out["player"], amount=formatting.number(cash_out["amount"]))


REBOUGHT = ActionSpec(
    EventKind.REBOUGHT,
    check_rebought,
    apply_rebought,
    rebought_sentence,
    Signer.DEALER,
    op="rebuy",
    op_fields=("player", "amount"),
    chips=ChipKind.REBUY,
)
CASHED_OUT = ActionSpec(
    EventKind.CASHED_OUT,
    check_cashed_out,
    apply_cashed_out,
    cashed_out_sentence,
    Signer.DEALER,
    op="cash_out",
    op_fields=("player",),
    chips=ChipKind.CASH_OUT,
)

CHIP_SPECS: tuple[Spec[SeatedTable], ...] = (REBOUGHT, CASHED_OUT)
