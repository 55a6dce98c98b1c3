"""The table state machine on its own: no database, only events checked and folded in."""

from __future__ import annotations

import typing

import pytest

from ofc_desk.core.cards import parse_card
from ofc_desk.service.table.games.ofc.live import OfcHand
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.terms import payloads
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.outcome import Outcome
from ofc_desk.service.terms.payloads import EventPayload, RawPayload
from ofc_desk.service.terms.snapshot import Phase
from tests.helpers.corrections import swap_rows

# A heads-up regular hand nobody fouls and nobody reaches Fantasyland with: Ann wins the back
# (flush against two pair) and the middle (aces against queens), Bob the front (seven-high).
ANN = {"back": "Ah Kh Qh Jh 9h", "middle": "As Ad 5c 6c 7d", "front": "2c 3d 4s"}
BOB = {"back": "Ks Kd 8c 8d 2h", "middle": "Qs Qd 3c 4c 9s", "front": "5h 6h 7s"}

PAYLOAD_TYPES: dict[EventKind, type] = {
    EventKind.TABLE_OPENED: payloads.TableOpened,
    EventKind.HAND_STARTED: payloads.HandStarted,
    EventKind.PLACED: payloads.EntryPayload,
    EventKind.REVEALED: payloads.EntryPayload,
    EventKind.SHOWN: payloads.ShownPayload,
    EventKind.UNDONE: payloads.Undone,
    EventKind.HAND_SETTLED: payloads.HandSettled,
    EventKind.JOINED: payloads.Joined,
    EventKind.REBOUGHT: payloads.Rebought,
    EventKind.CASHED_OUT: payloads.CashedOut,
    EventKind.SAT_OUT: payloads.SatOut,
    EventKind.SAT_IN: payloads.SatIn,
    EventKind.HAND_VOIDED: payloads.HandVoided,
    EventKind.CHIPS_CORRECTED: payloads.ChipsCorrected,
    EventKind.HAND_CORRECTED: payloads.HandCorrected,
    EventKind.RULES_CHANGED: payloads.RulesChanged,
    EventKind.SESSION_CLOSED: payloads.SessionClosed,
    EventKind.REQUEST_MADE: payloads.RequestMade,
    EventKind.REQUEST_DECIDED: payloads.RequestDecided,
    EventKind.HANDED_OVER: payloads.HandedOver,
    EventKind.TAKEN_OVER: payloads.TakenOver,
    EventKind.JACKPOT_SEEDED: payloads.JackpotSeeded,
}


class Recorder:
    """A machine and the log of what it accepted, as a store would keep it."""

    def __init__(self) -> None:
        self.machine = TableMachine()
        self.log: list[tuple[EventKind, EventPayload]] = []

    def do(self, kind: EventKind, raw: RawPayload | None = None) -> Outcome:
        checked = self.machine.checked(kind, raw or {})
        self.log.append((kind, checked.payload))
        return self.machine.apply_checked(checked)

    def street(self, player: str, cards: str, row: str) -> None:
        self.do(EventKind.PLACED, {"player": player, "cards": cards, "rows": [row] * len(cards.split())})


def opened(seats: dict[str, int], button: str, **rules: object) -> Recorder:
    table = Recorder()
    seat_list = [{"name": name, "buy_in": chips} for name, chips in seats.items()]
    table.do(EventKind.TABLE_OPENED, {"table": "T1", "seats": seat_list, "button": button, "rules": rules})
    return table


def heads_up_hand(table: Recorder) -> Outcome:
    """Ann (left of Bob's button) acts first on every street; each player's singles in row order."""
    table.do(EventKind.HAND_STARTED)
    table.street("Ann", ANN["back"], "back")
    table.street("Bob", BOB["back"], "back")
    singles = {
        name: [(card, row) for row in ("middle", "front") for card in plan[row].split()]
        for name, plan in (("Ann", ANN), ("Bob", BOB))
    }
    for (ann_card, ann_row), (bob_card, bob_row) in zip(singles["Ann"], singles["Bob"], strict=True):
        table.street("Ann", ann_card, ann_row)
        table.street("Bob", bob_card, bob_row)
    assert table.machine.phase is Phase.AWAITING_SETTLEMENT
    return table.do(EventKind.HAND_SETTLED)


def test_the_player_left_of_the_dealer_acts_first_and_the_dealer_last() -> None:
    table = opened({"Ann": 100, "Bob": 100, "Cy": 100}, "Bob")
    table.do(EventKind.HAND_STARTED)
    hand = table.machine.live
    assert isinstance(hand, OfcHand)
    assert hand.order == ("Cy", "Ann", "Bob")
    turn = hand.turn()
    assert turn is not None and (turn.player, turn.street, turn.take) == ("Cy", 1, 5)


def test_a_settled_hand_moves_chips_and_the_button() -> None:
    table = opened({"Ann": 100, "Bob": 100}, "Bob")
    outcome = heads_up_hand(table)
    machine = table.machine
    stacks = {seat.name: seat.stack for seat in machine.seats}
    assert machine.phase is Phase.SETTLED
    assert stacks["Ann"] > 100 > stacks["Bob"]
    assert sum(stacks.values()) == 200
    assert {(e.player, e.amount) for e in outcome.ledger} == {
        ("Ann", stacks["Ann"] - 100),
        ("Bob", stacks["Bob"] - 100),
    }
    assert outcome.hand is not None and outcome.hand.button == "Bob"
    assert machine.button == "Ann"  # nobody goes to Fantasyland: one seat clockwise
    assert machine.next_dealer() == "Ann"


def test_the_button_passes_over_a_player_sitting_out() -> None:
    table = opened({"Ann": 100, "Bob": 100, "Cy": 100}, "Ann")
    table.do(EventKind.SAT_OUT, {"player": "Ann"})
    assert table.machine.next_dealer() == "Bob"
    table.do(EventKind.HAND_STARTED)
    hand = table.machine.live
    assert isinstance(hand, OfcHand) and hand.button == "Bob" and hand.order == ("Cy", "Bob")


def test_a_refused_entry_leaves_the_state_as_it_was() -> None:
    table = opened({"Ann": 100, "Bob": 100}, "Bob")
    table.do(EventKind.HAND_STARTED)
    with pytest.raises(ActionRefused, match="it is Ann's turn, not Bob's"):
        table.street("Bob", BOB["back"], "back")
    with pytest.raises(ActionRefused, match="'Zz' \\(card 2\\)"):
        table.do(EventKind.PLACED, {"player": "Ann", "cards": "Ah Zz", "rows": "back back"})
    hand = table.machine.live
    assert isinstance(hand, OfcHand) and hand.entries == [] and hand.cards_seen == 0


def test_undo_takes_back_the_last_entry() -> None:
    table = opened({"Ann": 100, "Bob": 100}, "Bob")
    table.do(EventKind.HAND_STARTED)
    table.street("Ann", ANN["back"], "back")
    table.do(EventKind.UNDONE)
    hand = table.machine.live
    assert isinstance(hand, OfcHand) and hand.entries == [] and hand.where(parse_card("Ah")) is None
    assert table.log[-1][1] == {
        "undone": {"player": "Ann", "cards": ANN["back"].split(), "rows": ["back"] * 5}
    }
    with pytest.raises(ActionRefused, match="nothing to undo in hand 1"):
        table.do(EventKind.UNDONE)


def test_a_supervised_action_names_its_supervisor() -> None:
    table = opened({"Ann": 100, "Bob": 100}, "Bob")
    correction = {"player": "Ann", "amount": 5, "reason": "miscount"}
    with pytest.raises(ActionRefused, match="a floor supervisor must approve this"):
        table.machine.check(EventKind.CHIPS_CORRECTED, correction)
    checked = table.machine.check_before_approval(EventKind.CHIPS_CORRECTED, correction)
    assert dict(checked)["reason"] == "miscount"
    table.do(EventKind.CHIPS_CORRECTED, {**correction, "supervisor": "Sue"})
    assert table.log[-1][1] == {**correction, "supervisor": "Sue"}
    assert table.machine.seat("Ann").stack == 105


def test_voiding_a_hand_gives_its_chips_back() -> None:
    table = opened({"Ann": 100, "Bob": 100}, "Bob")
    heads_up_hand(table)
    outcome = table.do(EventKind.HAND_VOIDED, {"hand": 1, "reason": "misdeal", "supervisor": "Sue"})
    assert {seat.name: seat.stack for seat in table.machine.seats} == {"Ann": 100, "Bob": 100}
    assert sum(entry.amount for entry in outcome.ledger) == 0
    with pytest.raises(ActionRefused, match="hand 1 is already voided"):
        table.machine.check(EventKind.HAND_VOIDED, {"hand": 1, "supervisor": "Sue"})


def test_between_hands_actions_wait_for_the_hand() -> None:
    table = opened({"Ann": 100, "Bob": 100}, "Bob")
    table.do(EventKind.HAND_STARTED)
    with pytest.raises(ActionRefused, match="rebuys only between hands: hand 1 is live"):
        table.do(EventKind.REBOUGHT, {"player": "Ann", "amount": 50})
    with pytest.raises(ActionRefused, match="the session closes only between hands"):
        table.do(EventKind.SESSION_CLOSED, {"supervisor": "Sue"})


def test_folding_the_log_rebuilds_the_table() -> None:
    table = opened({"Ann": 100, "Bob": 100}, "Bob")
    heads_up_hand(table)
    table.do(EventKind.JOINED, {"player": "Cy", "buy_in": 80})
    table.do(EventKind.REBOUGHT, {"player": "Bob", "amount": 40})
    table.do(EventKind.RULES_CHANGED, {"rules": {"unit": 2}, "supervisor": "Sue"})
    rebuilt = TableMachine()
    for kind, payload in table.log:
        rebuilt.apply(kind, payload)
    assert rebuilt.snapshot(1, "h") == table.machine.snapshot(1, "h")


def test_every_payload_has_exactly_its_typed_keys() -> None:
    table = opened({"Ann": 100, "Bob": 100, "Cy": 100}, "Bob")
    table.do(EventKind.SAT_OUT, {"player": "Cy"})
    heads_up_hand(table)
    table.do(EventKind.SAT_IN, {"player": "Cy"})
    entries = swap_rows(table.machine.hand_traces[1].entries, "Ann")
    table.do(EventKind.HAND_CORRECTED, {"hand": 1, "entries": entries, "supervisor": "Sue"})
    table.do(EventKind.HAND_VOIDED, {"hand": 1, "supervisor": "Sue"})
    table.do(EventKind.CASHED_OUT, {"player": "Cy"})
    table.do(EventKind.JOINED, {"player": "Dee", "buy_in": 50})
    table.do(EventKind.JOINED, {"player": "Eve", "buy_in": 50, "seat": 4})
    table.do(EventKind.HANDED_OVER, {"dealer": "Rita"})
    table.do(EventKind.TAKEN_OVER, {"dealer": "Rita", "desk": "PIT-2", "supervisor": "Sue"})
    table.do(EventKind.REBOUGHT, {"player": "Dee", "amount": 5})
    table.do(EventKind.CHIPS_CORRECTED, {"player": "Dee", "amount": -5, "reason": "r", "supervisor": "Sue"})
    table.do(EventKind.RULES_CHANGED, {"rules": {}, "supervisor": "Sue"})
    table.do(EventKind.JACKPOT_SEEDED, {"chips": 500, "supervisor": "Sue"})
    asked = {"player": "Dee", "amount": 3, "reason": "r"}
    table.do(EventKind.REQUEST_MADE, {"action": "chips_corrected", "details": asked, "reason": "why"})
    table.do(EventKind.REQUEST_DECIDED, {"request": 1, "approved": True, "supervisor": "Flo"})
    table.do(EventKind.CHIPS_CORRECTED, {**asked, "supervisor": "Flo", "request": 1})
    table.do(EventKind.SESSION_CLOSED, {"supervisor": "Sue"})
    undone = opened({"Ann": 100, "Bob": 100}, "Bob")
    undone.do(EventKind.HAND_STARTED)
    undone.street("Ann", ANN["back"], "back")
    undone.do(EventKind.UNDONE)
    log = table.log + undone.log
    # REVEALED: see test_fantasyland.py; SHOWN (Chinese poker): test_chinese_replay.py;
    # RULES_PINNED (migration 0007): test_pinned_rules.py
    elsewhere = {EventKind.REVEALED, EventKind.SHOWN, EventKind.RULES_PINNED}
    assert {kind for kind, _ in log} == set(EventKind) - elsewhere
    for kind, payload in log:
        hints = typing.get_type_hints(PAYLOAD_TYPES[kind], include_extras=True)
        # A NotRequired key (an action carried out on the floor's approval names its request) is
        # in the payload only then.
        required = {key for key, hint in hints.items() if typing.get_origin(hint) is not typing.NotRequired}
        assert required <= set(payload) <= set(hints), kind
    carried_out = [payload for kind, payload in log if kind is EventKind.CHIPS_CORRECTED]
    assert ["request" in payload for payload in carried_out] == [False, True]
    joins = [payload for kind, payload in log if kind is EventKind.JOINED]
    assert ["seat" in payload for payload in joins] == [False, True]
