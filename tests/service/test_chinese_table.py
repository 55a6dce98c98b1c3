"""A Chinese poker table through `TableService` and the machine: the `verify_show` /
`takes_showdown_from` / `show` triple the desk calls, and random sessions that keep every chip
(docs/rules.md §10, §8, §9)."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_desk.core.cards import FULL_DECK
from ofc_desk.core.chinese.presets import load_chinese_preset
from ofc_desk.core.chinese.specials import SpecialKind
from ofc_desk.core.presets import Game, preset_names
from ofc_desk.core.rows import Row
from ofc_desk.service.table.commands import Settle, StartHand, Undo
from ofc_desk.service.table.games.chinese.commands import Show
from ofc_desk.service.table.games.chinese.game import specials_made, takes_showdown_from
from ofc_desk.service.table.games.chinese.play import ChineseHandState
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.snapshot import Phase
from ofc_desk.storage.database import Database
from tests.helpers.chinese_hands import ROWS, SEED_A, SEED_B
from tests.helpers.table_helpers import open_test_table


def test_the_desk_enters_each_showdown_and_settles(database: Database) -> None:
    service = open_test_table(
        database, [("Ann", 20), ("Bob", 20)], "Bob", variant="chinese", rules="chinese-typical"
    )
    assert not takes_showdown_from(service.machine, "Ann")
    service.do(StartHand())
    assert takes_showdown_from(service.machine, "Ann") and takes_showdown_from(service.machine, "Bob")
    with pytest.raises(ActionRefused, match="Ann's cards are not dragon"):
        service.check(Show("Ann", SEED_A, (), declare="dragon"))
    snapshot = service.do(Show("Bob", SEED_B, ROWS))
    assert not takes_showdown_from(service.machine, "Bob")
    assert (snapshot.phase, snapshot.variant, snapshot.seat("Ann").to_act) == (Phase.LIVE, "chinese", True)
    assert snapshot.seat("Bob").row(Row.BACK).hand_name == "four fives"
    assert not service.can(Settle())
    snapshot = service.do(Show("Ann", SEED_A, ROWS))
    assert snapshot.phase is Phase.AWAITING_SETTLEMENT
    service.do(Undo())
    assert takes_showdown_from(service.machine, "Ann")
    service.do(Show("Ann", SEED_A, ROWS))
    snapshot = service.do(Settle())
    assert {seat.name: seat.stack for seat in snapshot.seats} == {"Ann": 17, "Bob": 23}
    assert snapshot.button == "Ann"  # the button moves every hand


PRESETS = preset_names(Game.CHINESE)


@settings(max_examples=25, deadline=None)
@given(
    rules=st.sampled_from(PRESETS),
    stacks=st.lists(st.integers(1, 40), min_size=2, max_size=4),
    seed=st.integers(0, 2**32),
    rake=st.booleans(),
)
def test_random_chinese_sessions_keep_every_chip(
    rules: str, stacks: list[int], seed: int, rake: bool
) -> None:
    rng = random.Random(seed)
    names = [f"P{seat}" for seat in range(len(stacks))]
    options = (
        {"rake": {"mode": "percent-of-win", "percent": 5, "cap": 3, "jackpot_percent": 50}} if rake else None
    )
    machine = TableMachine()
    machine.apply(
        EventKind.TABLE_OPENED,
        {
            "table": "T",
            "seats": [{"name": name, "buy_in": stack} for name, stack in zip(names, stacks, strict=True)],
            "button": names[-1],
            "rules": {"variant": "chinese", "rules": rules, "house_options": options},
        },
    )
    preset = load_chinese_preset(rules)
    buttons = []
    house = 0  # the rake the house keeps (the part that does not feed the jackpot)
    for _ in range(3):
        if any(seat.stack <= 0 for seat in machine.seats):
            break
        machine.apply(EventKind.HAND_STARTED, {})
        hand = machine.live
        assert isinstance(hand, ChineseHandState)
        buttons.append(hand.button)
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        players = list(hand.showdown.players)
        rng.shuffle(players)
        for seat, name in enumerate(players):
            cards = deck[13 * seat : 13 * seat + 13]
            made = preset.specials_made(cards)
            if made and rng.random() < 0.8:
                action: dict[str, object] = {"declare": made[0].kind.value, "cards": [str(c) for c in cards]}
            elif rng.random() < 0.15 and not preset.unplayed(surrender=True):
                action = {"surrender": True}
            else:
                if rng.random() < 0.6:
                    cards = sorted(cards, key=lambda card: card.rank.order)
                action = {"cards": [str(c) for c in cards], "rows": ROWS}
            machine.apply(EventKind.SHOWN, {"player": name, **action})
        machine.apply(EventKind.HAND_SETTLED, {})
        assert machine.rake is not None
        house += machine.rake.total - machine.rake.jackpot
        on_table = sum(seat.stack for seat in machine.seats)
        assert on_table + machine.jackpot_pool + house == sum(stacks)
        assert all(seat.stack >= 0 for seat in machine.seats)
    assert all(after == _next(names, before) for before, after in pairwise(buttons))


def _next(names: list[str], name: str) -> str:
    return names[(names.index(name) + 1) % len(names)]


def test_a_strict_table_offers_and_takes_only_the_exact_form(database: Database) -> None:
    """§13: the service suggests the specials the cards make under the table's strictness and
    refuses a declaration the strict form does not allow; the desk shows its sentence."""
    service = open_test_table(
        database, [("Ann", 20), ("Bob", 20)], "Bob", variant="chinese", rules="shisanshui"
    )
    service.do(StartHand())
    with_trips = "9s 9h 9d Ts Th Js Jh Qs Qh Ks Kh As Ah"
    assert specials_made(service.machine, with_trips) == [SpecialKind.FIVE_PAIRS_AND_TRIPS]
    said = "Ann's cards are six pairs only with trips: this table plays six pairs strictly"
    with pytest.raises(ActionRefused, match=said):
        service.check(Show("Ann", with_trips, (), declare="six-pairs"))
    service.do(Show("Ann", with_trips, (), declare="five-pairs-and-trips"))
    assert not takes_showdown_from(service.machine, "Ann")
