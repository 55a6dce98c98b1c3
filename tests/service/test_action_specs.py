"""One spec per kind of event (issue 27): the lists the service and the reports read are derived
from `service.actions.SPECS` and say exactly what they said when they were written by hand."""

from __future__ import annotations

from ofc_desk.reports.loader import CHIP_KINDS
from ofc_desk.service import actions
from ofc_desk.service.actions import DEALER_SIGNED, SPECS
from ofc_desk.service.actions.housekeeping import DealingTable
from ofc_desk.service.actions.spec import Signer
from ofc_desk.service.events import SUPERVISED, ChipKind, EventKind
from ofc_desk.service.machine import TableMachine
from ofc_desk.service.replay_vocabulary import OP_FIELDS, OP_NAMES
from ofc_desk.service.room_pool import PoolTable
from ofc_desk.service.rule_pins import PinningTable
from ofc_desk.service.seats import SeatedTable

SPECCED = {EventKind.JOINED, EventKind.REBOUGHT, EventKind.CASHED_OUT, EventKind.SAT_OUT, EventKind.SAT_IN}
"""The kinds with a spec so far: the chip work between hands, and the housekeeping below."""
HOUSEKEEPING = {EventKind.HANDED_OVER, EventKind.RULES_PINNED, EventKind.JACKPOT_SEEDED}


def test_each_kind_has_at_most_one_spec_and_the_chip_work_has_one_each() -> None:
    kinds = [spec.kind for spec in SPECS]
    assert len(kinds) == len(set(kinds))
    assert set(kinds) == SPECCED | HOUSEKEEPING


def test_the_machine_checks_and_applies_every_kind_once_through_its_spec_where_it_has_one() -> None:
    assert set(TableMachine._checkers) == set(EventKind)
    assert set(TableMachine._appliers) == set(EventKind)
    for spec in SPECS:
        assert TableMachine._checkers[spec.kind] is spec.check
        assert TableMachine._appliers[spec.kind] is spec.apply


def test_the_derived_lists_are_what_they_were_by_hand() -> None:
    assert {
        EventKind.TABLE_OPENED,
        EventKind.HAND_SETTLED,
        EventKind.JOINED,
        EventKind.REBOUGHT,
        EventKind.CASHED_OUT,
        EventKind.HANDED_OVER,
    } == DEALER_SIGNED
    assert not DEALER_SIGNED & SUPERVISED
    assert {spec.kind for spec in SPECS if spec.signer is Signer.SUPERVISOR} == SUPERVISED & {
        spec.kind for spec in SPECS
    }
    assert not HOUSEKEEPING - {EventKind.JACKPOT_SEEDED} & (set(OP_NAMES) | set(OP_FIELDS))
    assert (OP_NAMES[EventKind.JACKPOT_SEEDED], OP_FIELDS[EventKind.JACKPOT_SEEDED]) == (
        "seed_jackpot",
        ("chips",),
    )
    assert {kind: OP_NAMES[kind] for kind in SPECCED} == {
        EventKind.JOINED: "join",
        EventKind.REBOUGHT: "rebuy",
        EventKind.CASHED_OUT: "cash_out",
        EventKind.SAT_OUT: "sit_out",
        EventKind.SAT_IN: "sit_in",
    }
    assert {kind: OP_FIELDS[kind] for kind in SPECCED} == {
        EventKind.JOINED: ("player", "buy_in", "after", "seat"),
        EventKind.REBOUGHT: ("player", "amount"),
        EventKind.CASHED_OUT: ("player",),
        EventKind.SAT_OUT: ("player",),
        EventKind.SAT_IN: ("player",),
    }
    assert CHIP_KINDS == {
        EventKind.TABLE_OPENED: ChipKind.OPENING,
        EventKind.JOINED: ChipKind.BUY_IN,
        EventKind.REBOUGHT: ChipKind.REBUY,
        EventKind.CASHED_OUT: ChipKind.CASH_OUT,
        EventKind.CHIPS_CORRECTED: ChipKind.CORRECTION,
    }
    assert actions.SPEC_OF[EventKind.REBOUGHT].sentence({"player": "Ann", "amount": 50}, "Dee") == (
        "Ann rebought 50 chips"
    )


def test_the_machine_is_every_table_the_specs_take() -> None:
    """The specs take protocols, not the machine: mypy checks here that the machine meets them."""
    machine = TableMachine()
    tables: tuple[SeatedTable, PinningTable, PoolTable, DealingTable] = (machine, machine, machine, machine)
    assert all(table is machine for table in tables)
