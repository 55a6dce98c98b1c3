"""A floor supervisor corrects a settled hand (docs/rules.md §12): the worked examples on the table's
state machine. The corrected result is held to an independent oracle: the same hand, entered
right, on a fresh table that starts from the stacks the hand began with."""

from __future__ import annotations

from typing import Any, cast

import pytest

from ofc_desk.service.table.actions.hand_corrections import HAND_CORRECTED
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind, LedgerKind
from ofc_desk.service.terms.outcome import Outcome
from ofc_desk.service.terms.payloads import (
    CorrectedCarry,
    EventPayload,
    HandCorrected,
    RawPayload,
    ShownPayload,
)
from tests.helpers.chinese_hands import ROWS, SEED_A, SEED_B

SUPERVISOR = {"supervisor": "Sue"}


def in_row(row: str, cards: str) -> list[tuple[str, str]]:
    return [(card, row) for card in cards.split()]


# Ann's hand as she set it, and as the dealer keyed it: her aces into the front and her deuce and
# trey into the middle, a foul (a pair of aces over a seven-high middle).
ANN_RIGHT = [
    *in_row("back", "Ah Kh Qh Jh 9h"),
    ("As", "middle"), ("Ad", "middle"), ("5c", "middle"), ("6c", "middle"), ("7d", "middle"),
    ("2c", "front"), ("3d", "front"), ("4s", "front"),
]  # fmt: skip
ANN_KEYED = [
    (card, {"As": "front", "Ad": "front", "2c": "middle", "3d": "middle"}.get(card, row))
    for card, row in ANN_RIGHT
]
BOB = [
    *in_row("back", "Ks Kd 8c 8d 2h"),
    *in_row("middle", "Qs Qd 3c 4c 9s"),
    *in_row("front", "5h 6h 7s"),
]
# Ann's front of queens, as keyed (a queen in the middle) and as set: Fantasyland when right.
ANN_QUEENS_KEYED = [
    *in_row("back", "Ah Kh Qh Jh 9h"),
    ("Qs", "middle"), ("Ad", "front"), ("As", "middle"), ("5c", "middle"), ("6c", "middle"),
    ("Qd", "front"), ("7d", "middle"), ("2c", "front"),
]  # fmt: skip
ANN_QUEENS_RIGHT = [(card, {"Qs": "front", "Ad": "middle"}.get(card, row)) for card, row in ANN_QUEENS_KEYED]
BOB_PLAIN = [
    *in_row("back", "Ks Kd 8c 8d 2h"),
    *in_row("middle", "Js Jd 3c 4c 9s"),
    *in_row("front", "5h 6h 7s"),
]


class Table:
    """A machine and the log of what it accepted, as a store would keep it."""

    def __init__(self, seats: dict[str, int], button: str, **rules: object) -> None:
        self.machine = TableMachine()
        self.log: list[tuple[EventKind, EventPayload]] = []
        self.outcome = Outcome()
        seat_list = [{"name": name, "buy_in": chips} for name, chips in seats.items()]
        self.do(EventKind.TABLE_OPENED, {"table": "T", "seats": seat_list, "button": button, "rules": rules})

    def do(self, kind: EventKind, raw: RawPayload | None = None) -> Any:
        checked = self.machine.checked(kind, raw or {})
        self.log.append((kind, checked.payload))
        self.outcome = self.machine.apply_checked(checked)
        return checked.payload

    def play(self, entries: list[dict[str, Any]]) -> None:
        self.do(EventKind.HAND_STARTED)
        for entry in entries:
            self.do(self.machine.entry_kind(entry), entry)
        self.do(EventKind.HAND_SETTLED)

    def correct(self, hand: int, entries: list[dict[str, Any]], **more: object) -> HandCorrected:
        raw = {"hand": hand, "entries": entries, **SUPERVISOR, **more}
        return cast(HandCorrected, self.do(EventKind.HAND_CORRECTED, raw))

    @property
    def stacks(self) -> dict[str, int]:
        return {seat.name: seat.stack for seat in self.machine.seats}

    def folded_again(self) -> TableMachine:
        """The log folded into a new machine, every event checked again, as `verify` does."""
        machine = TableMachine()
        for kind, payload in self.log:
            assert machine.check(kind, payload) == payload, kind
            machine.apply(kind, payload)
        return machine


def ofc_entries(hands: dict[str, list[tuple[str, str]]]) -> list[dict[str, Any]]:
    """Regular OFC streets in acting order (the dict's order): five cards each, then one by one."""
    entries = []
    for street in [slice(0, 5), *(slice(i, i + 1) for i in range(5, 13))]:
        for player, placed in hands.items():
            cards, rows = zip(*placed[street], strict=True)
            entries.append({"player": player, "cards": " ".join(cards), "rows": " ".join(rows)})
    return entries


def oracle_net(
    stacks: dict[str, int], button: str, entries: list[dict[str, Any]], **rules: object
) -> dict[str, int]:
    """The chips each player wins or loses with the hand entered right from these stacks."""
    fresh = Table(stacks, button, **rules)
    fresh.play(entries)
    return {name: stack - stacks[name] for name, stack in fresh.stacks.items()}


KEYED = ofc_entries({"Ann": ANN_KEYED, "Bob": BOB})
RIGHT = ofc_entries({"Ann": ANN_RIGHT, "Bob": BOB})
LATER = ofc_entries({"Bob": BOB, "Ann": ANN_RIGHT})
"""A hand dealt with the button at Ann: Bob acts first."""


@pytest.mark.parametrize("settlement", ["win-cap", "chip-exposure"])
def test_a_foul_turned_into_a_clean_hand_after_two_more_hands(settlement: str) -> None:
    table = Table({"Ann": 60, "Bob": 60}, "Bob", settlement=settlement)
    table.play(KEYED)
    recorded = dict(table.machine.hand_changes[1])
    assert recorded["Ann"] < 0  # her foul cost her
    table.play(LATER)  # the button moved to Ann
    table.play(RIGHT)
    before, later_hands = table.stacks, {n: table.machine.hand_traces[n].net for n in (2, 3)}

    correction = table.correct(1, RIGHT, reason="Ann's aces were in her middle")

    corrected = oracle_net({"Ann": 60, "Bob": 60}, "Bob", RIGHT, settlement=settlement)
    difference = {name: corrected[name] - recorded[name] for name in recorded}
    assert correction["difference"] == {name: d for name, d in difference.items() if d}
    assert difference["Ann"] > 0 and sum(difference.values()) == 0
    assert correction["paid"] == correction["difference"] and correction["not_covered"] == {}
    assert table.stacks == {name: before[name] + difference[name] for name in before}
    assert correction["stacks_after"] == table.stacks
    assert {n: table.machine.hand_traces[n].net for n in (2, 3)} == later_hands  # later hands stand
    assert not correction["fantasyland_follows"]
    players = cast(list[dict[str, Any]], correction["result"]["players"])
    assert [player["foul"] for player in players] == [False, False]
    assert table.folded_again().snapshot(1, "h") == table.machine.snapshot(1, "h")


def test_the_payer_short_pays_their_stack_and_the_rest_is_not_covered() -> None:
    table = Table({"Ann": 60, "Bob": 60}, "Bob")
    table.play(KEYED)
    bob = table.stacks["Bob"]
    table.do(
        EventKind.CHIPS_CORRECTED, {"player": "Bob", "amount": 3 - bob, "reason": "miscount", **SUPERVISOR}
    )
    correction = table.correct(1, RIGHT)
    owed = correction["difference"]["Ann"]
    assert owed > 3
    assert correction["paid"] == {"Bob": -3, "Ann": 3}
    assert correction["not_covered"] == {"Bob": -(owed - 3), "Ann": owed - 3}
    assert table.stacks["Bob"] == 0
    for name, d in correction["difference"].items():
        assert correction["paid"][name] + correction["not_covered"][name] == d


def test_a_receiver_who_cashed_out_receives_nothing_and_nobody_pays() -> None:
    table = Table({"Ann": 60, "Bob": 60, "Cy": 60}, "Cy")
    keyed = ofc_entries({"Ann": ANN_KEYED, "Bob": BOB, "Cy": CY})
    table.play(keyed)
    table.do(EventKind.CASHED_OUT, {"player": "Ann"})
    stacks = table.stacks
    correction = table.correct(1, ofc_entries({"Ann": ANN_RIGHT, "Bob": BOB, "Cy": CY}))
    assert correction["difference"]["Ann"] > 0
    assert "Ann" not in correction["paid"] and "Ann" not in correction["stacks_after"]
    assert correction["not_covered"]["Ann"] == correction["difference"]["Ann"]
    assert sum(correction["paid"].values()) == 0  # nobody pays what nobody at the table receives
    assert table.stacks == {name: stacks[name] + correction["paid"].get(name, 0) for name in stacks}


CY = [
    *in_row("back", "Tc Td Ts 2d 3h"),
    *in_row("middle", "9c 9d 4d 5d Jc"),
    *in_row("front", "6d 7c 8h"),
]


def test_a_correction_corrected_again_is_taken_against_the_last_one() -> None:
    table = Table({"Ann": 60, "Bob": 60}, "Bob")
    table.play(KEYED)
    table.play(LATER)
    start = table.stacks
    first = table.correct(1, RIGHT)
    again = table.correct(1, KEYED, reason="it was keyed right after all")
    assert again["difference"] == {name: -d for name, d in first["difference"].items()}
    assert table.stacks == start
    with pytest.raises(ActionRefused, match="these are hand 1's entries as they stand"):
        table.correct(1, KEYED)
    assert table.folded_again().snapshot(1, "h") == table.machine.snapshot(1, "h")


def test_a_corrected_hand_voided_takes_back_its_chips_and_the_corrections() -> None:
    table = Table({"Ann": 60, "Bob": 60}, "Bob")
    table.play(KEYED)
    table.play(LATER)
    hand_two = table.machine.hand_changes[2]
    table.correct(1, RIGHT)
    table.do(EventKind.HAND_VOIDED, {"hand": 1, "reason": "misdeal", **SUPERVISOR})
    assert table.stacks == {name: 60 + hand_two[name] for name in hand_two}
    with pytest.raises(ActionRefused, match="hand 1 is voided: it cannot be corrected"):
        table.correct(1, KEYED)


def test_refusals_name_the_problem_and_store_nothing() -> None:
    table = Table({"Ann": 60, "Bob": 60}, "Bob")
    with pytest.raises(ActionRefused, match="there is no settled hand 1 to correct"):
        table.correct(1, RIGHT)
    table.play(KEYED)
    twice = [dict(entry) for entry in RIGHT]
    twice[2] = {**twice[2], "cards": "Ah"}  # Ah again, in Ann's second street
    with pytest.raises(ActionRefused, match=r"^entry 3: "):
        table.correct(1, twice)
    with pytest.raises(ActionRefused, match="entry 2: a correction gives the hand's entries"):
        table.correct(1, [RIGHT[0], {"op": "undo"}])
    with pytest.raises(ActionRefused, match="the corrected hand 1 is not finished"):
        table.correct(1, RIGHT[:-1])
    table.do(EventKind.HAND_STARTED)
    with pytest.raises(ActionRefused, match="settled hands are corrected only between hands"):
        table.correct(1, RIGHT)
    assert EventKind.HAND_CORRECTED not in {kind for kind, _ in table.log}


def test_fantasyland_and_the_button_follow_the_last_hand_before_the_next_starts() -> None:
    table = Table({"Ann": 60, "Bob": 60}, "Bob")
    table.play(ofc_entries({"Ann": ANN_QUEENS_KEYED, "Bob": BOB_PLAIN}))
    assert table.machine.carried.owed.get("Ann", 0) == 0 and table.machine.button == "Ann"
    correction = table.correct(1, ofc_entries({"Ann": ANN_QUEENS_RIGHT, "Bob": BOB_PLAIN}))
    assert correction["fantasyland_follows"] and correction["fantasyland"] == {"Ann": 13}
    assert table.machine.carried.owed.get("Ann", 0) == 13
    assert table.machine.button == "Bob"  # held for Ann's Fantasyland hand
    assert table.folded_again().snapshot(1, "h") == table.machine.snapshot(1, "h")


def test_fantasyland_only_said_once_a_later_hand_was_dealt() -> None:
    table = Table({"Ann": 60, "Bob": 60}, "Bob")
    table.play(ofc_entries({"Ann": ANN_QUEENS_KEYED, "Bob": BOB_PLAIN}))
    table.play(LATER)
    button = table.machine.button
    correction = table.correct(1, ofc_entries({"Ann": ANN_QUEENS_RIGHT, "Bob": BOB_PLAIN}))
    assert not correction["fantasyland_follows"]
    assert (correction["fantasyland_recorded"], correction["fantasyland"]) == ({}, {"Ann": 13})
    carry = CorrectedCarry.of(correction)  # what the generic correction passes through
    assert carry == CorrectedCarry(owed={"Ann": 13}, recorded={}, follows=False)
    assert carry.stored() == {
        key: value for key, value in correction.items() if key.startswith("fantasyland")
    }
    assert table.machine.carried.owed.get("Ann", 0) == 0 and table.machine.button == button
    sentence = HAND_CORRECTED.sentence(correction, "Sue")
    assert sentence.endswith(
        "; Fantasyland would have been Ann (13 cards) (recorded: nobody); later hands stand"
    )


# The closed game at a pool table: Ann's six of spades and king of spades swapped when keyed, a
# misset (two pair behind a full house); as set, three sixes, fours full and kings full.
ANN_MISSET_ROWS = "b f f m m m m m f b b b b"
CY_HAND = "2d 3d 4c 6c 7c 8c 9c Jc Ts Th Td Tc 3c"


def _showdowns(ann_rows: str) -> list[dict[str, Any]]:
    return [
        {"player": "Ann", "cards": SEED_A, "rows": ann_rows},
        {"player": "Bob", "cards": SEED_B, "rows": ROWS},
        {"player": "Cy", "cards": CY_HAND, "rows": ROWS},
    ]


def test_the_closed_game_at_a_pool_table() -> None:
    rules = {"variant": "chinese", "rules": "pool", "unit": 5}
    table = Table({"Ann": 100, "Bob": 100, "Cy": 100}, "Cy", **rules)
    table.play(_showdowns(ANN_MISSET_ROWS))
    recorded = dict(table.machine.hand_changes[1])
    table.play(_showdowns(ROWS))
    before = table.stacks
    correction = table.correct(1, _showdowns(ROWS), reason="Ann's rows")
    corrected = oracle_net({"Ann": 100, "Bob": 100, "Cy": 100}, "Cy", _showdowns(ROWS), **rules)
    difference = {name: corrected[name] - recorded[name] for name in recorded}
    assert correction["difference"] == {name: d for name, d in difference.items() if d}
    assert difference["Ann"] > 0
    assert table.stacks == {name: before[name] + difference[name] for name in before}
    # Nothing carried in the closed game: its keys stored empty as ever, and nothing said of them.
    assert CorrectedCarry.of(correction) == CorrectedCarry(owed={}, recorded={}, follows=False)
    assert HAND_CORRECTED.sentence(correction, "Sue").startswith("Sue corrected hand 1: Ann +")
    assert "Fantasyland" not in HAND_CORRECTED.sentence(correction, "Sue")
    words = {"f": "front", "m": "middle", "b": "back"}
    assert correction["entries"][0]["rows"] == [words[row] for row in ROWS.split()]
    assert table.folded_again().snapshot(1, "h") == table.machine.snapshot(1, "h")
    moves = {entry.player: entry.amount for entry in table.outcome.ledger}
    assert moves == correction["paid"]
    assert {entry.kind for entry in table.outcome.ledger} == {LedgerKind.HAND_CORRECTION}
    assert {entry.hand_number for entry in table.outcome.ledger} == {1}


@pytest.mark.parametrize("key", ["paid", "not_covered", "difference", "stacks_after", "result"])
def test_a_stored_correction_whose_figures_do_not_agree_is_caught_when_folded(key: str) -> None:
    """`verify` checks each event's canonical payload against its stored bytes: figures altered
    after the fact are worked out again from the entries and do not agree."""
    table = Table({"Ann": 60, "Bob": 60}, "Bob")
    table.play(KEYED)
    table.play(LATER)
    stored = dict(table.correct(1, RIGHT))
    altered = {**stored, key: {"Ann": 1}}
    machine = TableMachine()
    for kind, payload in table.log[:-1]:
        machine.apply(kind, payload)
    assert machine.check(EventKind.HAND_CORRECTED, stored) == stored
    assert machine.check(EventKind.HAND_CORRECTED, altered) != altered


@pytest.mark.parametrize(
    ("preset", "settlement"),
    [
        ("chinese-basic", "win-cap"),
        ("chinese-basic", "chip-exposure"),
        ("pusoy-single-winner", "win-cap"),
        ("pool", "chip-exposure"),
    ],
)
def test_the_closed_game_under_every_payment_and_policy(preset: str, settlement: str) -> None:
    """Pairs, single winner and pool, each policy: the difference is the hand entered right on a
    fresh table less the hand as recorded (under single winner Bob wins the deal either way)."""
    rules = {"variant": "chinese", "rules": preset, "unit": 5, "settlement": settlement}
    table = Table({"Ann": 40, "Bob": 100, "Cy": 100}, "Cy", **rules)
    table.play(_showdowns(ANN_MISSET_ROWS))
    recorded = dict(table.machine.hand_changes[1])
    correction = table.correct(1, _showdowns(ROWS))
    corrected = oracle_net({"Ann": 40, "Bob": 100, "Cy": 100}, "Cy", _showdowns(ROWS), **rules)
    difference = {name: corrected[name] - recorded[name] for name in recorded}
    assert correction["difference"] == {name: d for name, d in difference.items() if d}
    assert (difference["Ann"] > 0) is (preset != "pusoy-single-winner")
    assert table.folded_again().snapshot(1, "h") == table.machine.snapshot(1, "h")


def test_a_surrender_added_and_taken_back() -> None:
    rules = {"variant": "chinese", "rules": "chinese-basic"}
    table = Table({"Ann": 100, "Bob": 100, "Cy": 100}, "Cy", **rules)
    table.play(_showdowns(ROWS))
    surrendered = [*_showdowns(ROWS)[:2], {"player": "Cy", "surrender": True}]
    first = table.correct(1, surrendered, reason="Cy had surrendered")
    assert cast(ShownPayload, first["entries"][2])["surrender"] is True
    corrected = oracle_net({"Ann": 100, "Bob": 100, "Cy": 100}, "Cy", surrendered, **rules)
    assert table.machine.hand_traces[1].net == corrected
    again = table.correct(1, _showdowns(ROWS), reason="he had not")
    assert again["difference"] == {name: -d for name, d in first["difference"].items()}
    assert table.stacks == {name: 100 + chips for name, chips in table.machine.hand_changes[1].items()}
