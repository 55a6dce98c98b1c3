"""One spec per kind of event (issue 27): the lists the service and the reports read are derived
from `service.table.actions.SPECS` and say exactly what they said when they were written by hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ofc_desk.reports.loader import CHIP_KINDS
from ofc_desk.service.replays.replay_vocabulary import OP_FIELDS, OP_NAMES
from ofc_desk.service.table.actions import DEALER_SIGNED, SPECS
from ofc_desk.service.table.actions.chips import REBOUGHT
from ofc_desk.service.table.actions.hand import EntrySpec
from ofc_desk.service.table.actions.spec import ActionSpec, Signer
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import ChipKind, EventKind

if TYPE_CHECKING:
    from ofc_desk.service.room.requests import RequestTable
    from ofc_desk.service.room.room_pool import PoolTable
    from ofc_desk.service.table.actions import ActionTable
    from ofc_desk.service.table.actions.hand import PlayingTable
    from ofc_desk.service.table.actions.housekeeping import DealingTable
    from ofc_desk.service.table.rule_pins import PinningTable
    from ofc_desk.service.table.seats import SeatedTable
    from ofc_desk.service.table.supervision import SupervisedTable


def test_every_kind_has_exactly_one_spec() -> None:
    kinds = [spec.kind for spec in SPECS]
    assert len(kinds) == len(set(kinds))
    assert set(kinds) == set(EventKind)


def test_the_machine_checks_and_applies_every_kind_through_its_spec() -> None:
    assert set(TableMachine._specs) == set(EventKind)
    for spec in SPECS:
        assert TableMachine._specs[spec.kind] is spec


def test_a_checked_action_is_applied_at_the_table_that_checked_it() -> None:
    """Its apply is bound to that table: another machine refuses it rather than fold it there."""
    machine, other = TableMachine(), TableMachine()
    seats = [{"name": "Ann", "buy_in": 100}, {"name": "Bob", "buy_in": 100}]
    raw = {"table": "T1", "seats": seats, "button": "Ann", "rules": {}}
    opened = machine.checked(EventKind.TABLE_OPENED, raw)
    with pytest.raises(ValueError, match=r"^table_opened was checked at another table$"):
        other.apply_checked(opened)
    assert not other.opened
    machine.apply_checked(opened, "Dee")
    assert (machine.table, machine.dealer_on_duty) == ("T1", "Dee")


SAID_BESIDE_THE_STATE_THEY_FOLD = {
    EventKind.RULES_PINNED: "ofc_desk.service.table.rule_pins",
    EventKind.JACKPOT_SEEDED: "ofc_desk.service.room.room_pool",
}
"""The kinds whose check and apply stay with the state they fold, not beside their spec: this list
only shrinks."""


def test_a_kind_is_checked_applied_and_said_in_one_module_of_the_actions_package() -> None:
    for spec in SPECS:
        said = spec.sentence.__module__
        assert said.startswith("ofc_desk.service.table.actions."), spec.kind
        if isinstance(spec, EntrySpec):  # checked and applied by the live hand of the table's game
            assert said == EntrySpec.__module__, spec.kind
            continue
        assert isinstance(spec, ActionSpec), spec.kind
        checked = SAID_BESIDE_THE_STATE_THEY_FOLD.get(spec.kind, said)
        assert (spec.check.__module__, spec.apply.__module__) == (checked, checked), spec.kind


def test_an_action_a_supervisor_signs_is_refused_without_one_before_its_check() -> None:
    """An empty action: its own check would refuse it otherwise, or let a close through."""
    machine = TableMachine()
    seats = [{"name": "Ann", "buy_in": 100}, {"name": "Bob", "buy_in": 100}]
    machine.apply(EventKind.TABLE_OPENED, {"table": "T1", "seats": seats, "button": "Ann", "rules": {}})
    for spec in SPECS:
        if spec.signer is Signer.SUPERVISOR:
            with pytest.raises(ActionRefused, match=r"^a floor supervisor must approve this$"):
                machine.check(spec.kind, {})


def test_who_signs_is_what_it_was() -> None:
    assert {
        EventKind.TABLE_OPENED,
        EventKind.HAND_SETTLED,
        EventKind.JOINED,
        EventKind.REBOUGHT,
        EventKind.CASHED_OUT,
        EventKind.HANDED_OVER,
    } == DEALER_SIGNED


def test_the_replay_vocabulary_and_the_chip_kinds_are_what_they_were() -> None:
    assert {
        EventKind.JOINED: "join",
        EventKind.REBOUGHT: "rebuy",
        EventKind.CASHED_OUT: "cash_out",
        EventKind.SAT_OUT: "sit_out",
        EventKind.SAT_IN: "sit_in",
        EventKind.HAND_VOIDED: "void",
        EventKind.CHIPS_CORRECTED: "correct_chips",
        EventKind.HAND_CORRECTED: "correct_hand",
        EventKind.RULES_CHANGED: "change_rules",
        EventKind.SESSION_CLOSED: "close",
        EventKind.REQUEST_MADE: "request",
        EventKind.REQUEST_DECIDED: "decide",
        EventKind.JACKPOT_SEEDED: "seed_jackpot",
    } == OP_NAMES
    assert {
        EventKind.JOINED: ("player", "buy_in", "after", "seat"),
        EventKind.REBOUGHT: ("player", "amount"),
        EventKind.CASHED_OUT: ("player",),
        EventKind.SAT_OUT: ("player",),
        EventKind.SAT_IN: ("player",),
        EventKind.HAND_VOIDED: ("hand", "reason", "request"),
        EventKind.CHIPS_CORRECTED: ("player", "amount", "reason", "request"),
        EventKind.HAND_CORRECTED: ("hand", "entries", "reason", "request"),
        EventKind.RULES_CHANGED: ("request",),
        EventKind.SESSION_CLOSED: (),
        EventKind.UNDONE: (),
        EventKind.REQUEST_MADE: ("request", "action", "details", "reason"),
        EventKind.REQUEST_DECIDED: ("request", "approved", "note"),
        EventKind.JACKPOT_SEEDED: ("chips",),
    } == OP_FIELDS
    assert {
        EventKind.TABLE_OPENED: ChipKind.OPENING,
        EventKind.JOINED: ChipKind.BUY_IN,
        EventKind.REBOUGHT: ChipKind.REBUY,
        EventKind.CASHED_OUT: ChipKind.CASH_OUT,
        EventKind.CHIPS_CORRECTED: ChipKind.CORRECTION,
        EventKind.HAND_CORRECTED: ChipKind.HAND_CORRECTION,
    } == CHIP_KINDS


def test_a_spec_says_its_event() -> None:
    assert REBOUGHT.sentence({"player": "Ann", "amount": 50}, "Dee") == "Ann rebought 50 chips"


if TYPE_CHECKING:
    # Not a test: an identity check over one object could never fail. mypy checks these
    # assignments, which is the point: the specs take protocols, and the machine must meet each.
    def _the_machine_is_every_table_the_specs_take(machine: TableMachine) -> None:
        _every: ActionTable = machine
        _playing: PlayingTable = machine
        _seated: SeatedTable = machine
        _pinning: PinningTable = machine
        _pool: PoolTable = machine
        _dealing: DealingTable = machine
        _requests: RequestTable = machine
        _supervised: SupervisedTable = machine
