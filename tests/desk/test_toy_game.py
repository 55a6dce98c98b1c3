"""The toy game at the desk, offscreen: its table opened, its own kind of turn said in its own
words, each row typed and entered, the hand settled as the toy's rules score it and shown in the
hand history with the toy's own column, its example in the keyboard reference (the desk's part
plugged in through `DESK_GAMES` only)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QSize, Qt

from ofc_desk.core.cards import parse_cards
from ofc_desk.desk.actions import Command
from ofc_desk.desk.entry.keyboard_help import SEAT_NAMED, keyboard_examples, keyboard_markdown
from ofc_desk.desk.games.ofc import FANTASYLAND_COLUMN
from ofc_desk.desk.records.models import TRANSFERS_COLUMN, HandHistoryModel
from ofc_desk.desk.table.seatface import RowFace
from ofc_desk.service import hand_history, open_table
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.table.commands import Settle, StartHand
from ofc_desk.service.terms.setup import SeatSetup, TableRules, TableSetup
from ofc_desk.service.terms.snapshot import Phase
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account
from tests.desk.conftest import Desk, street_keys
from tests.desk.test_each_games_words import keyboard_reference
from tests.desk.test_record_views import history_column
from tests.toy_game.desk import BEST_ROW_COLUMN, RowEntry, ToyDesk
from tests.toy_game.register import toy_registered
from tests.toy_game.rules import ROW_CARDS, ROW_TURN, row_name
from tests.toy_game.table import ShowRow
from tests.toy_game.test_toy_session import ROWS

TOY_TABLE = TableSetup(
    name="Toy 1",
    seats=tuple(SeatSetup(name, 100) for name in ROWS),
    button="Cy",
    rules=TableRules(preset="toy", variant="toy", unit=5),
)


def test_a_toy_hand_is_typed_and_settled_at_the_desk(desk: Desk, database: Database) -> None:
    with toy_registered():
        assert desk.session.open_new_table(TOY_TABLE) is None
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
        assert [tuple(map(str, desk.snapshot.seat(name).rows[0].cards)) for name in ROWS] == [
            tuple(cards.split()) for cards in ROWS.values()
        ]
        assert desk.snapshot.phase is Phase.AWAITING_SETTLEMENT
        assert "Ann: +10" in desk.window.settlement.details.toPlainText()
        desk.qtbot.keyClick(desk.window.settlement, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        assert desk.snapshot.phase is not Phase.AWAITING_SETTLEMENT
        assert {name: desk.snapshot.seat(name).stack for name in ROWS} == {"Ann": 110, "Bob": 95, "Cy": 95}
        verify_database(database)
        # The history made after the toy was registered has the toy's own column, OFC's hidden.
        desk.window.action(Command.HISTORY).trigger()
        browser = desk.session.records.browsers["Hand history"]
        desk.qtbot.waitUntil(lambda: browser.model.rowCount() == 1)
        best_row = history_column(browser, BEST_ROW_COLUMN)
        assert browser.proxy.index(0, best_row).data() == row_name(parse_cards(ROWS["Ann"]))
        assert not browser.table.isColumnHidden(best_row)
        assert browser.table.isColumnHidden(history_column(browser, FANTASYLAND_COLUMN))


def test_a_history_made_before_the_toy_was_registered_takes_its_column_with_its_hands(
    database: Database, template_accounts: tuple[Path, Account]
) -> None:
    """The desk keeps its history window for the session: one made before a game is registered
    shows that game's own column once it is handed the game's hands, and drops it after."""
    model = HandHistoryModel()
    assert BEST_ROW_COLUMN not in model.columns
    with toy_registered():
        service = open_table(database, TOY_TABLE, template_accounts[1])
        service.do(StartHand())
        for player, cards in ROWS.items():
            service.do(ShowRow(player, cards))
        service.do(Settle())
        hands = hand_history(database, service.session_id)
        model.set_records(hands)
        best_row = model.columns.index(BEST_ROW_COLUMN)
        assert model.columnCount() == len(model.columns)
        assert model.headerData(best_row, Qt.Orientation.Horizontal) == "Best row"
        assert model.index(0, best_row).data() == row_name(parse_cards(ROWS["Ann"]))
        assert "→Ann" in model.index(0, model.columns.index(TRANSFERS_COLUMN)).data()  # after the toy's
        assert model.columns_saying_nothing() == {model.columns.index(FANTASYLAND_COLUMN)}
    model.set_records([])
    assert BEST_ROW_COLUMN not in model.columns and model.columnCount() == len(model.columns)


def test_the_keyboard_reference_has_the_toys_example_while_it_is_registered() -> None:
    (example,) = ToyDesk().help_examples(None)
    with toy_registered():
        assert keyboard_examples()[-2:] == (example, SEAT_NAMED)  # after the shipped games'
        assert f"- {example}" in keyboard_markdown()
    assert example not in keyboard_examples() and str(example) not in keyboard_markdown()


def test_f1_at_a_toy_table_gives_the_toys_example_and_no_other_games_keys(desk: Desk) -> None:
    with toy_registered():
        assert desk.session.open_new_table(TOY_TABLE) is None
        text = keyboard_reference(desk)
    assert "A toy row:" in text  # its example (the page shows no backticks)
    for other_games in ("discard the card just typed", "Chinese poker", "Fantasyland", "First street"):
        assert other_games not in text


def test_a_toy_seat_shows_its_one_row_of_five(desk: Desk) -> None:
    """The felt draws the rows the toy's part names (`DeskGame.felt_rows`), not OFC's three: one
    row of five slots, keyed `b`, said so to a screen reader, in a seat that much shorter."""
    with toy_registered():
        assert desk.session.open_new_table(TOY_TABLE) is None
        desk.press_enter_on(desk.window.between_hands.deal_button)
        desk.street(street_keys(ROWS["Ann"], "b"))
        desk.type(street_keys(" ".join(ROWS["Bob"].split()[:2]), "b"))
        assert not desk.refusal(), desk.refusal()
        desk.screenshot("toy-one-row")
        ann, bob = desk.window.felt.seat_widget("Ann"), desk.window.felt.seat_widget("Bob")
        assert ann.seat is not None and bob.seat is not None
        assert ann.seat.rows == (
            RowFace("back", ROW_CARDS, tuple(ROWS["Ann"].split()), hand_name=ann.seat.rows[0].hand_name),
        )
        assert ann.seat.rows[0].hand_name
        assert bob.seat.rows == (RowFace("back", ROW_CARDS, pending=tuple(ROWS["Bob"].split()[:2])),)
        buttons = desk.window.entry.row_buttons.items()
        shown = [key for key, button in buttons if button.isVisibleTo(desk.window)]
        assert shown == ["b"]  # the toy's entry form: its one row's button
        assert "front" not in ann.accessibleDescription()
        assert f"back: {ROWS['Ann']}" in ann.accessibleDescription()
        one_row = ann.natural_size()
        ann.set_seat(replace(ann.seat, rows=(RowFace("front", 3), RowFace("middle", 5), *ann.seat.rows)))
        assert ann.natural_size().width() == one_row.width()
        assert ann.natural_size().height() > one_row.height()  # OFC's three rows: a taller seat


def test_a_table_opened_after_the_toys_has_its_own_rows_and_size(desk: Desk) -> None:
    """Seats of a game with more rows are laid out again for their size: an OFC table opened
    after a toy table of as many seats is laid out as one opened after an OFC table (the first
    table of a window is not: the window is still taking its size)."""
    felt = desk.window.felt

    def open_ofc(name: str) -> tuple[float, QSize, QSize]:
        assert desk.session.open_new_table(replace(TOY_TABLE, name=name, rules=TableRules())) is None
        desk.press_enter_on(desk.window.between_hands.deal_button)
        assert [len(desk.face(player).rows) for player in ROWS] == [3, 3, 3]
        return felt.seat_scale, felt.sizeHint(), felt.seat_widgets[0].natural_size()

    open_ofc("Table 1")
    after_ofc = open_ofc("Table 2")
    with toy_registered():
        assert desk.session.open_new_table(TOY_TABLE) is None
        desk.press_enter_on(desk.window.between_hands.deal_button)
        assert felt.seat_widgets[0].natural_size().height() < after_ofc[2].height()
        assert felt.seat_scale != after_ofc[0]
        assert open_ofc("Table 3") == after_ofc
