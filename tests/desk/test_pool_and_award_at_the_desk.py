"""The closed game's other payments and the room's jackpot at the desk (issue 28, point 6): the
supervisor seeds the pool by keys, a pool table's settlement names each row's winner, a single-winner
table says when nobody won, an award shows its shares and the pool before and after, a table with an
award shows the room's pool on its status line, and a pool table offers no surrender."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from ofc_desk.core.chinese.deal import CHINESE
from ofc_desk.core.chinese.payment import Payment, PaymentRules
from ofc_desk.core.chinese.schemes import PaymentOutcome
from ofc_desk.desk.actions import Dialog
from ofc_desk.desk.dialogs.attempt import SupervisorDialog
from ofc_desk.desk.dialogs.new_table import NewTableDialog
from ofc_desk.desk.dialogs.preset_pays import PAYS_ROLE
from ofc_desk.desk.games.chinese_settlement import payment_html
from ofc_desk.service.front import table_service
from ofc_desk.service.store.pool_ledger import PoolReading, pool_reading, room_pool
from ofc_desk.service.store.record_reads import read_ledger
from ofc_desk.service.table.commands import SeedJackpot
from ofc_desk.service.terms.setup import SeatSetup, TableRules, TableSetup
from ofc_desk.service.terms.snapshot import Phase
from ofc_desk.storage.database import Database
from tests.desk.conftest import SUPERVISOR, Desk
from tests.desk.test_chinese_table import open_chinese_table, pick_with_keys, show_hands
from tests.desk.test_fantasyland_and_supervisor import amount_field
from tests.helpers.jackpot_awards import HOUSE_AWARD, LOSER_ROWS, WINNER_ROWS

# The pool's example of the core (core/chinese/schemes.py): Bob wins the front and the middle, Cy the back.
ANN = ("Ah Kd 2c", "3s 3h 7d 8c 9s", "Ts Js Qs Ks 2s")
BOB = ("Qh Qd 4c", "5s 5h 5d 8d 9d", "6c 6d 6h 4d 4h")
CY = ("Kh Jd 3c", "2d 2h 7c Td Tc", "Ad As Ac 7s 7h")


def open_award_table(desk: Desk) -> None:
    rules = TableRules.from_json({"variant": CHINESE, "rules": "chinese-basic", "house_options": HOUSE_AWARD})
    seats = tuple(SeatSetup(name, 100) for name in ("Ann", "Bob", "Cy", "Dee"))
    assert desk.session.open_new_table(TableSetup("Jade 1", seats, "Dee", rules)) is None


def seed_by_keys(desk: Desk, chips: str | None = None, pin: str = SUPERVISOR[1]) -> SupervisorDialog:
    """Seed the room's jackpot: `chips` typed over the amount (left as proposed when None), the
    supervisor signs with `pin`, Enter."""
    desk.window.action(Dialog.SEED_JACKPOT).trigger()
    dialog = desk.session.chip_actions.active_dialog
    assert isinstance(dialog, SupervisorDialog)
    if chips is not None:
        amount = amount_field(dialog, "Chips from the house")
        amount.selectAll()
        desk.qtbot.keyClicks(amount, chips)
    desk.qtbot.keyClicks(dialog.supervisor, SUPERVISOR[0])
    desk.qtbot.keyClicks(dialog.pin, pin)
    desk.qtbot.keyClick(dialog.pin, Qt.Key.Key_Return)
    return dialog


def test_a_supervisor_seeds_the_jackpot_by_keys_between_hands_only(desk: Desk) -> None:
    open_award_table(desk)
    service = desk.session.controller.service
    assert service is not None and desk.window.action(Dialog.SEED_JACKPOT).isEnabled()
    dialog = seed_by_keys(desk, "1000")
    assert not dialog.isVisible()
    assert room_pool(service.database) == 1000
    assert "Floor seeded the room's jackpot with 1000 chips" in desk.window.between_hands.notice.text()
    assert desk.status.endswith("room jackpot 1,000")
    desk.press_enter_on(desk.window.between_hands.deal_button)
    assert not desk.window.action(Dialog.SEED_JACKPOT).isEnabled()  # a hand is being dealt


def test_a_wrong_pin_is_the_services_refusal_and_seeds_nothing(desk: Desk) -> None:
    open_award_table(desk)
    dialog = seed_by_keys(desk, pin="00000000")
    assert dialog.isVisible() and "supervisor" in dialog.refusal.text()
    service = desk.session.controller.service
    assert service is not None and room_pool(service.database) == 0


def test_staging_cards_at_an_award_table_does_not_read_the_room_pool_again(
    desk: Desk, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_award_table(desk)
    desk.press_enter_on(desk.window.between_hands.deal_button)
    reads: list[int] = []

    def counted(database: object) -> int:
        reads.append(1)
        return 0

    def counted_reading(database: object) -> PoolReading:
        reads.append(1)
        return PoolReading(0)

    monkeypatch.setattr(table_service, "room_pool", counted)
    monkeypatch.setattr(table_service, "pool_reading", counted_reading)  # the status line's
    desk.type("ah f kd m")  # two cards staged, each drawing the table again
    assert "AH" in desk.window.entry.staged.text().upper() and reads == []
    assert desk.window.status_line.text().replace("\u00a0", " ").endswith("room jackpot 0")


def test_a_pool_tables_settlement_names_each_rows_winner_and_its_prompt_no_surrender(desk: Desk) -> None:
    open_chinese_table(desk, "pool")
    assert "13 cards with their rows" in desk.window.entry.prompt.text()
    assert "s surrenders" not in desk.window.entry.prompt.text()
    assert desk.chinese_controls.surrender_button.isHidden()
    assert "room jackpot" not in desk.status
    show_hands(desk, ANN, BOB, CY)
    assert desk.snapshot.phase is Phase.AWAITING_SETTLEMENT
    details = " ".join(desk.window.settlement.details.toPlainText().split())
    assert "The pool's row winners: front: Bob · middle: Bob · back: Cy" in details
    assert "each row's winner collects 1 unit from each other player; all three rows, 3 more" in details


def test_an_award_shows_its_shares_and_the_pool_before_and_after(desk: Desk) -> None:
    open_award_table(desk)
    seed_by_keys(desk, "1000")
    desk.press_enter_on(desk.window.between_hands.deal_button)
    show_hands(desk, LOSER_ROWS, WINNER_ROWS)
    desk.street("s")  # Cy and Dee surrender: the table's share is theirs
    desk.street("s")
    transfers = " ".join(desk.window.settlement.transfers.toPlainText().split())
    assert (
        "Room jackpot: Ann's hand lost all three rows to Bob's: the award pays Ann 500 (loser's share)"
        " · Bob 250 (winner's share) · Cy 125 (the table's share) · Dee 125 (the table's share) ·"
        " Room pool 1,000 + this hand's drop 0 = 1,000; award 1,000 → 0"
        " (as the pool stands now: Confirm reads it again)"
    ) in transfers
    desk.screenshot("28-jackpot-award")
    desk.qtbot.mouseClick(desk.window.settlement.hold_button, Qt.MouseButton.LeftButton)
    service = desk.session.controller.service
    assert service is not None and room_pool(service.database) == 0
    awarded = [(line.player, line.amount) for line in read_ledger(service.database, service.session_id)]
    assert [line for line in awarded if line[1] in (500, 250, 125)][-4:] == [
        ("Ann", 500),
        ("Bob", 250),
        ("Cy", 125),
        ("Dee", 125),
    ]


def test_a_table_with_an_award_shows_the_room_jackpot_on_its_status_line(desk: Desk) -> None:
    desk.window.resize(1366, 768)
    open_award_table(desk)
    assert desk.status.endswith("room jackpot 0")
    service = desk.session.controller.service
    assert service is not None
    service.do(SeedJackpot(1250, supervisor=SUPERVISOR[0], pin=SUPERVISOR[1]))
    desk.session.controller.show_snapshot(service.snapshot())
    assert desk.status.endswith("room jackpot 1,250")
    desk.press_enter_on(desk.window.between_hands.deal_button)
    assert desk.status.endswith("room jackpot 1,250")
    desk.window.grab()  # laid out as a paint would
    line = desk.window.status_line
    assert line.height() < 2 * line.fontMetrics().lineSpacing(), line.text()
    desk.screenshot("27-room-jackpot-status-line-1366")


def test_a_single_winner_deal_nobody_won_says_no_chips_move() -> None:
    nobody = PaymentOutcome(Payment.SINGLE_WINNER, winner=None)
    assert "nobody beat everyone on two rows: no chips move" in payment_html(nobody, None)
    won = payment_html(
        PaymentOutcome(Payment.SINGLE_WINNER, winner="Bob"), PaymentRules(Payment.SINGLE_WINNER)
    )
    assert "Bob beat everyone on two rows — collects 1 unit from each other player" in won


def test_the_new_table_preset_list_says_how_each_preset_pays(qtbot: QtBot) -> None:
    dialog = NewTableDialog()
    qtbot.addWidget(dialog)
    fields = dialog.rules
    assert fields.pays.text() == "pays pair by pair"  # OFC's standard preset
    qtbot.keyClick(fields.variant, Qt.Key.Key_End)  # Chinese poker, the last game
    lines = {
        fields.preset.itemText(i): fields.preset.itemData(i, PAYS_ROLE) for i in range(fields.preset.count())
    }
    assert lines["pool"] == (
        "pool: each row's winner collects 1 unit from each other player; all three rows, 3 more"
    )
    assert lines["pusoy-single-winner"] == (
        "single winner: who beats everyone on two rows collects 1 unit from each other player"
    )
    assert lines["hawaiian-gardens"] == "pays pair by pair"
    assert lines["hawaiian-gardens-jackpot"] == (  # the shipped award says which hands win it
        "pays pair by pair · jackpot award to pair, trips and straight flush or better losing every row:"
        " loser 50%, winner 25%, table 25%"
    )
    pick_with_keys(qtbot, fields.preset, "pusoy-single-winner")
    assert fields.pays.text() == lines["pusoy-single-winner"]


def test_an_awards_settlement_page_and_status_line_read_the_room_pool_once(
    desk: Desk, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_award_table(desk)
    seed_by_keys(desk, "1000")
    desk.press_enter_on(desk.window.between_hands.deal_button)
    show_hands(desk, LOSER_ROWS, WINNER_ROWS)
    desk.street("s")
    reads: list[PoolReading] = []

    def counted(database: Database) -> PoolReading:
        reads.append(pool_reading(database))
        return reads[-1]

    monkeypatch.setattr(table_service, "pool_reading", counted)
    desk.street("s")  # the hand awaits its settlement: its page previews the award
    assert desk.snapshot.phase is Phase.AWAITING_SETTLEMENT
    assert reads == [PoolReading(1000)]  # one reading, for the page and the status line both
    assert desk.status.endswith("room jackpot 1,000")
    transfers = " ".join(desk.window.settlement.transfers.toPlainText().split())
    assert "Room pool 1,000 + this hand's drop 0 = 1,000; award 1,000 → 0" in transfers
