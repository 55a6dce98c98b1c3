"""The toy game at the desk, offscreen: its table opened, its own kind of turn said in its own
words, each row typed and entered, the hand settled as the toy's rules score it (the desk's part
plugged in through `DESK_GAMES` only)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.terms.setup import SeatSetup, TableRules, TableSetup
from ofc_desk.service.terms.snapshot import Phase
from ofc_desk.storage.database import Database
from tests.desk.conftest import Desk, street_keys
from tests.toy_game.desk import RowEntry
from tests.toy_game.register import toy_registered
from tests.toy_game.rules import ROW_TURN
from tests.toy_game.test_toy_session import ROWS


def test_a_toy_hand_is_typed_and_settled_at_the_desk(desk: Desk, database: Database) -> None:
    with toy_registered():
        setup = TableSetup(
            name="Toy 1",
            seats=tuple(SeatSetup(name, 100) for name in ROWS),
            button="Cy",
            rules=TableRules(preset="toy", variant="toy", unit=5),
        )
        assert desk.session.open_new_table(setup) is None
        desk.press_enter_on(desk.window.between_hands.deal_button)
        assert isinstance(desk.session.controller.turn_entry(), RowEntry)
        # The toy's own kind of turn, in no enum of the service, said in the toy's own words.
        assert desk.snapshot.to_act is not None and desk.snapshot.to_act.kind == ROW_TURN
        assert "Hand 1, rows: Ann's row next" in desk.status
        assert desk.window.entry.prompt.text() == "▶ Ann: a row of 5 cards"
        for player, cards in ROWS.items():
            assert desk.snapshot.to_act is not None and desk.snapshot.to_act.player == player
            desk.street(street_keys(cards, "b"))
            assert not desk.refusal(), desk.refusal()
        assert [tuple(map(str, desk.snapshot.seat(name).rows[2].cards)) for name in ROWS] == [
            tuple(cards.split()) for cards in ROWS.values()
        ]
        assert desk.snapshot.phase is Phase.AWAITING_SETTLEMENT
        assert "Ann: +10" in desk.window.settlement.details.toPlainText()
        desk.qtbot.keyClick(desk.window.settlement, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        assert desk.snapshot.phase is not Phase.AWAITING_SETTLEMENT
        assert {name: desk.snapshot.seat(name).stack for name in ROWS} == {"Ann": 110, "Bob": 95, "Cy": 95}
        verify_database(database)
