"""Each game speaks of what it plays (issue 36, point 5): a regular OFC street offers no discard; a
table with no surrender never offers one; Esc at a Chinese showdown speaks of the hand, not a street;
the hand history of a Chinese table has no Fantasyland column; a pool table's transfers speak of no
passes; F1 at a table gives its game's and variant's keys only."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from ofc_desk.core.chinese.deal import CHINESE
from ofc_desk.desk.actions import Command
from ofc_desk.desk.dialogs.text import TextDialog
from ofc_desk.desk.entry.keyboard_help import keyboard_markdown
from ofc_desk.desk.games.ofc import FANTASYLAND_COLUMN
from ofc_desk.desk.records.models import TRANSFERS_COLUMN
from ofc_desk.service.terms.setup import SeatSetup, TableRules, TableSetup
from ofc_desk.service.terms.snapshot import Phase
from tests.core.test_bonus_paid import ANN as BONUS_ROWS_LOSING
from tests.core.test_bonus_paid import BOB as BONUS_ROWS_WINNING
from tests.desk.conftest import Desk
from tests.desk.test_chinese_table import hand_keys, open_chinese_table, show_hands
from tests.desk.test_pool_and_award_at_the_desk import ANN, BOB, CY
from tests.desk.test_record_views import VIEWS, history_column
from tests.helpers.table_helpers import BOB_PLAIN, play_streets


def test_a_regular_ofc_street_offers_no_discard(desk: Desk) -> None:
    entry = desk.window.entry
    desk.open_table(("Ann", "Bob"), "Bob", variant="regular")
    assert entry.row_buttons["x"].isHidden() and entry.row_buttons["?"].isHidden()
    assert " x " not in entry.line.placeholderText() and "?" not in entry.line.placeholderText()
    assert not entry.row_buttons["f"].isHidden()


def test_a_pineapple_street_offers_discards_and_unknown_cards(desk: Desk) -> None:
    entry = desk.window.entry
    desk.open_table(("Ann", "Bob"), "Bob", variant="pineapple")
    assert not entry.row_buttons["x"].isHidden() and not entry.row_buttons["?"].isHidden()
    assert "7c x · ?" in entry.line.placeholderText()


def test_a_table_without_a_surrender_never_offers_one_and_esc_speaks_of_the_hand(desk: Desk) -> None:
    open_chinese_table(desk, "pool")
    reference = keyboard_reference(desk)
    assert SURRENDER_LINE not in reference and "declare the special offered" in reference
    desk.type("s")
    assert "surrenders" not in desk.window.entry.notice.text()
    desk.window.entry.line.clear()
    desk.type(hand_keys(ANN)[:11])  # three cards staged
    desk.qtbot.keyClick(desk.window.entry.line, Qt.Key.Key_Escape)
    notice = desk.window.entry.notice.text()
    assert "type the hand again" in notice and "street" not in notice, notice


def test_a_pool_tables_settlement_speaks_of_no_pass_nor_pair_rows(desk: Desk) -> None:
    open_chinese_table(desk, "pool")
    show_hands(desk, ANN, BOB, CY)
    assert desk.snapshot.phase is Phase.AWAITING_SETTLEMENT
    transfers = desk.window.settlement.transfers.toPlainText()
    assert "Then the rest" not in transfers and "Special hands" not in transfers
    assert "Chip transfers, in settlement order" in transfers
    details = " ".join(desk.window.settlement.details.toPlainText().split())
    assert "pair result unit" in details and "rest" not in details  # rows between two drive no chips


def test_a_chinese_tables_history_has_no_fantasyland_column(desk: Desk, qtbot: QtBot) -> None:
    open_chinese_table(desk, "pool")
    show_hands(desk, ANN, BOB, CY)
    desk.press_enter_on(desk.window.settlement.confirm_button)
    desk.window.action(VIEWS["Hand history"]).trigger()
    qtbot.waitUntil(lambda: "Hand history" in desk.session.records.browsers)
    browser = desk.session.records.browsers["Hand history"]
    qtbot.waitUntil(lambda: browser.model.rowCount() >= 1 and browser.isVisible())
    assert browser.table.isColumnHidden(history_column(browser, FANTASYLAND_COLUMN))
    assert not browser.table.isColumnHidden(history_column(browser, TRANSFERS_COLUMN))


def test_an_ofc_tables_history_keeps_its_fantasyland_column(desk: Desk, qtbot: QtBot) -> None:
    desk.open_table(("Ann", "Bob"), "Bob")  # the first hand dealt
    service = desk.session.controller.service
    assert service is not None
    play_streets(service, {"Bob": BOB_PLAIN})
    desk.window.action(VIEWS["Hand history"]).trigger()
    qtbot.waitUntil(lambda: "Hand history" in desk.session.records.browsers)
    browser = desk.session.records.browsers["Hand history"]
    qtbot.waitUntil(lambda: browser.model.rowCount() >= 1 and browser.isVisible())
    assert not browser.table.isColumnHidden(history_column(browser, FANTASYLAND_COLUMN))


def test_a_bonus_row_lost_shows_no_bonus_and_the_settlement_says_why(desk: Desk) -> None:
    """Hawaiian Gardens pays a row bonus on top of a row won: Ann's eights full and four nines lose
    to Bob's rows, so only Bob's bonuses show, and a line says why Ann's are not paid."""
    seats = (SeatSetup("Ann", 100), SeatSetup("Bob", 100))
    setup = TableSetup("Jade 3", seats, "Bob", TableRules(preset="hawaiian-gardens", variant=CHINESE))
    assert desk.session.open_new_table(setup) is None
    desk.press_enter_on(desk.window.between_hands.deal_button)
    show_hands(desk, BONUS_ROWS_LOSING, BONUS_ROWS_WINNING)
    assert desk.snapshot.phase is Phase.AWAITING_SETTLEMENT, (desk.refusal(), desk.window.entry.notice.text())
    details = " ".join(desk.window.settlement.details.toPlainText().split())
    assert "(+2)" in details and "(+5)" in details and "(+4)" not in details  # Bob's, not Ann's
    assert "Row bonuses are paid on rows won; not paid here: Ann's middle +2, Ann's back +4" in details


DISCARD_LINE = "discard the card just typed (pineapple)"
UNKNOWN_LINE = "a discard nobody saw (unknown, face down)"
PINEAPPLE_EXAMPLE = "Pineapple street:"
SURRENDER_LINE = "Chinese poker: the player whose hand is being entered surrenders"


def keyboard_reference(desk: Desk) -> str:
    """F1's page as shown at the desk now."""
    desk.window.action(Command.KEYBOARD).trigger()
    dialog = desk.session.active_dialog
    assert isinstance(dialog, TextDialog)
    text = dialog.browser.toPlainText()
    dialog.reject()
    return text


def test_f1_before_any_table_gives_every_games_keys(desk: Desk) -> None:
    text = keyboard_reference(desk)
    for line in (DISCARD_LINE, UNKNOWN_LINE, PINEAPPLE_EXAMPLE, SURRENDER_LINE, "Fantasyland set dialog"):
        assert line in text
    assert keyboard_markdown() == keyboard_markdown(None, None)  # docs/keyboard.md's, every game's


def test_f1_at_a_chinese_table_names_no_discard_nor_fantasyland(desk: Desk) -> None:
    open_chinese_table(desk)
    text = keyboard_reference(desk)
    assert DISCARD_LINE not in text and UNKNOWN_LINE not in text and PINEAPPLE_EXAMPLE not in text
    assert "Fantasyland" not in text and "F6" not in text
    assert "street" not in text and " m x" not in text  # OFC's streets and discard key
    assert SURRENDER_LINE in text and "Chinese poker, a whole hand at showdown" in text


def test_f1_at_a_pineapple_table_gives_its_discard_keys_not_chinese_pokers(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), "Bob", variant="pineapple")
    text = keyboard_reference(desk)
    assert DISCARD_LINE in text and UNKNOWN_LINE in text and PINEAPPLE_EXAMPLE in text
    assert "Fantasyland set dialog" in text
    assert "Chinese poker" not in text


def test_f1_at_a_regular_ofc_table_gives_no_discard_keys(desk: Desk) -> None:
    desk.open_table(("Ann", "Bob"), "Bob", variant="regular")
    text = keyboard_reference(desk)
    assert DISCARD_LINE not in text and UNKNOWN_LINE not in text and PINEAPPLE_EXAMPLE not in text
    assert "First street, five cards" in text and "Fantasyland set dialog" in text
