"""What a game carries from one hand to the next (`service.table.carry`): the machine keeps it
unread; OFC's (`games.ofc.carry.OfcCarry`) is Fantasyland, its streaks and who waits for whom."""

from __future__ import annotations

import pytest

from ofc_desk.service.table.carry import NOTHING_CARRIED, CarryOver
from ofc_desk.service.table.games.ofc.carry import OfcCarry
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from tests.helpers.chinese_hands import ROWS, SEED_A, SEED_B
from tests.service.test_machine import opened


def test_nothing_carried_refuses_nothing_and_owes_nothing() -> None:
    carried: CarryOver = NOTHING_CARRIED
    carried.refuse_leaving("Ann", 100, leaving=True)
    carried.refuse_rules_change(["Ann", "Bob"])
    assert carried.without("Ann") is carried and carried.owed == {}
    assert OfcCarry.of(carried) == OfcCarry()  # an OFC table before its first hand settles


def test_a_chinese_table_carries_nothing_after_a_hand() -> None:
    table = opened({"Ann": 20, "Bob": 20}, "Bob", variant="chinese", rules="chinese-typical")
    table.do(EventKind.HAND_STARTED)
    table.do(EventKind.SHOWN, {"player": "Bob", "cards": SEED_B, "rows": ROWS})
    table.do(EventKind.SHOWN, {"player": "Ann", "cards": SEED_A, "rows": ROWS})
    table.do(EventKind.HAND_SETTLED)
    assert table.machine.carried is NOTHING_CARRIED and not table.machine.button_held


def test_ofc_carries_fantasyland_its_streak_and_who_waits() -> None:
    # Ann played her second Fantasyland hand in a row and stays; Bob played a regular one.
    before = OfcCarry({"Ann": 14}, {"Ann": 1})
    after = before.after_hand({"Ann": True, "Bob": False}, {"Ann": 14})
    assert after == OfcCarry({"Ann": 14}, {"Ann": 2}, {"Bob": ("Ann",)})
    assert after.owed == {"Ann": 14} and after.streak("Ann") == 2 and after.streak("Bob") == 0
    with pytest.raises(ActionRefused, match="Bob played the hand that sent Ann to Fantasyland"):
        after.refuse_leaving("Bob", 50, leaving=True)
    after.refuse_leaving("Bob", 0, leaving=False)  # no chips: nothing at stake in Ann's hand
    after.refuse_leaving("Ann", 50, leaving=True)  # she may leave, forfeiting it
    with pytest.raises(ActionRefused, match=r"Fantasyland hands owed are played: Ann \(14 cards\)"):
        after.refuse_rules_change(["Bob", "Ann"])
    # Ann leaves: her hand is forfeited, her streak ends, and Bob waits for nobody.
    assert after.without("Ann") == OfcCarry()
    # Her Fantasyland hand played without staying: the streak counts it, and nobody waits any more;
    # a regular hand after it ends the streak.
    out = after.after_hand({"Ann": True, "Bob": False}, {})
    assert out == OfcCarry({}, {"Ann": 3}) and out.after_hand({"Ann": False, "Bob": False}, {}) == OfcCarry()
