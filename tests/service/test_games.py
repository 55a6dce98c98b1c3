"""Both games played through the one interface the machine asks (`service.table.games.base`): a tiny OFC
hand and a tiny Chinese poker hand, each dealt, entered, taken back, scored and settled, with the
machine holding one game, one live hand and one result."""

from __future__ import annotations

import pytest

from ofc_desk.core.presets import Game
from ofc_desk.service.table.games.base import LiveHand, TableGame
from ofc_desk.service.table.games.chinese.game import ChineseGame
from ofc_desk.service.table.games.chinese.play import ChineseHandState
from ofc_desk.service.table.games.choose import game_for, own_entry
from ofc_desk.service.table.games.ofc.game import OfcGame
from ofc_desk.service.table.games.ofc.live import OfcHand
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.setup import TableRules
from ofc_desk.service.terms.snapshot import Phase
from tests.helpers.chinese_hands import ROWS, SEED_A, SEED_B
from tests.service.test_machine import ANN, BOB, Recorder, opened


def test_the_rules_choose_the_game_and_its_seats() -> None:
    # Each game is a `TableGame` (mypy --strict holds it to the protocol), and the rules choose it.
    ofc: TableGame = OfcGame.for_rules(TableRules(variant="pineapple"))
    chinese: TableGame = ChineseGame.for_rules(TableRules(preset="chinese-typical", variant="chinese"))
    assert game_for(TableRules(variant="pineapple")) == ofc
    assert game_for(TableRules(preset="chinese-typical", variant="chinese")) == chinese
    assert (ofc.game, str(ofc.label), ofc.seat_limits) == (Game.OFC, "pineapple", (2, 3))
    assert (chinese.game, str(chinese.label), chinese.seat_limits) == (Game.CHINESE, "Chinese poker", (2, 4))
    with pytest.raises(ActionRefused, match="are OFC options"):
        game_for(TableRules(preset="chinese-typical", variant="chinese", progressive=True))


def test_an_ofc_hand_through_the_interface() -> None:
    table = opened({"Ann": 100, "Bob": 100}, "Bob")
    assert table.machine.game.game is Game.OFC and table.machine.live is None
    table.do(EventKind.HAND_STARTED)
    table.street("Ann", ANN["back"], "back")  # the first street: five cards at once
    table.street("Bob", BOB["back"], "back")
    for row in ("middle", "front"):
        for ann, bob in zip(ANN[row].split(), BOB[row].split(), strict=True):
            table.street("Ann", ann, row)
            table.street("Bob", bob, row)
    live = table.machine.live
    assert isinstance(live, OfcHand) and live.complete and live.phase is Phase.AWAITING_SETTLEMENT
    assert table.machine.result is not None
    hand: LiveHand = live  # each game's hand is a `LiveHand`
    assert hand.dealt_in(table.machine.seats) == ["Ann", "Bob"]
    with pytest.raises(ActionRefused, match="no Chinese poker hand is being entered"):
        table.machine.check(EventKind.SHOWN, {"player": "Ann", "cards": SEED_A, "rows": ROWS})
    table.do(EventKind.UNDONE)
    turn = live.to_act()
    assert table.machine.result is None and turn is not None and live.waiting() == turn.describe
    table.street("Bob", BOB["front"].split()[-1], "front")
    outcome = table.do(EventKind.HAND_SETTLED)
    assert outcome.hand is not None and outcome.hand.result.seats
    assert table.machine.snapshot(1, "").game is Game.OFC


def _chinese_table() -> Recorder:
    return opened({"Ann": 20, "Bob": 20}, "Bob", variant="chinese", rules="chinese-typical")


def test_an_entry_no_hand_takes_is_refused_in_the_words_of_its_game() -> None:
    """Between hands at either table (an undo too, as the table's usual entry): a showdown in Chinese
    poker's words (`choose.OWN_ENTRY_REFUSALS`), a street or a set as no hand being dealt. A hand
    being dealt refuses what its game does not play the same way (the interface tests above)."""
    ofc, chinese = opened({"Ann": 100, "Bob": 100}, "Bob"), _chinese_table()
    assert ofc.machine.game.entry_kinds == {EventKind.PLACED, EventKind.REVEALED}
    assert chinese.machine.game.entry_kinds == {EventKind.SHOWN}
    showdown = "no Chinese poker hand is being entered: start the next hand"
    no_hand = "no hand is being dealt: start the next hand"
    for table, undo in ((ofc, no_hand), (chinese, showdown)):
        with pytest.raises(ActionRefused, match=showdown):
            table.machine.check(EventKind.SHOWN, {"player": "Ann", "cards": SEED_A, "rows": ROWS})
        for kind in (EventKind.PLACED, EventKind.REVEALED):
            with pytest.raises(ActionRefused, match=no_hand):
                table.machine.check(kind, {"player": "Ann", "cards": "As", "rows": "back"})
        with pytest.raises(ActionRefused, match=undo):
            table.machine.check(EventKind.UNDONE, {})


def test_a_chinese_hand_through_the_interface() -> None:
    table = _chinese_table()
    assert table.machine.game.game is Game.CHINESE
    table.do(EventKind.HAND_STARTED)
    live = table.machine.live
    assert isinstance(live, ChineseHandState) and live.phase is Phase.LIVE and live.owed == {}
    assert table.machine.entry_kind({"player": "Ann"}) is EventKind.SHOWN
    with pytest.raises(ActionRefused, match="no hand is being dealt"):
        table.machine.check(EventKind.PLACED, {"player": "Ann", "cards": "As", "rows": "back"})
    table.do(EventKind.SHOWN, {"player": "Bob", "cards": SEED_B, "rows": ROWS})
    with pytest.raises(ActionRefused, match="hand 1 is not finished: waiting for Ann's hand"):
        table.machine.check(EventKind.HAND_SETTLED, {})
    table.do(EventKind.SHOWN, {"player": "Ann", "cards": SEED_A, "rows": ROWS})
    assert live.complete and table.machine.result is not None
    hand: LiveHand = live
    assert hand.dealt_in(table.machine.seats) == ["Ann", "Bob"]
    table.do(EventKind.UNDONE)
    assert table.machine.result is None and live.takes_showdown_from("Ann")
    table.do(EventKind.SHOWN, {"player": "Ann", "cards": SEED_A, "rows": ROWS})
    table.do(EventKind.HAND_SETTLED)
    assert [seat.stack for seat in table.machine.seats] == [17, 23]
    assert table.machine.button == "Ann"  # the button moves every hand
    snapshot = table.machine.snapshot(1, "")
    scored = None if snapshot.result is None else snapshot.result.game
    assert (snapshot.game, snapshot.variant, scored) == (Game.CHINESE, "chinese", Game.CHINESE)


def test_a_table_keeps_its_game_and_a_surrender_names_its_own() -> None:
    table = _chinese_table()
    with pytest.raises(ActionRefused, match="a table keeps its game"):
        table.machine.check(EventKind.RULES_CHANGED, {"rules": {"rules": "standard"}, "supervisor": "Sue"})
    assert own_entry({"player": "Ann", "surrender": True}) == (EventKind.SHOWN, ("surrender", "declare"))
    assert own_entry({"player": "Ann", "cards": "As", "rows": "back"}) is None
