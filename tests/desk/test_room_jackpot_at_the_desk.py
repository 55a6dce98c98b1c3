"""The room's jackpot at the desk (issue 28): a table whose preset pays an award shows the room's
pool on its status line; a pool table offers no Surrender."""

from __future__ import annotations

from ofc_desk.core.chinese.deal import CHINESE
from ofc_desk.service.setup import SeatSetup, TableRules, TableSetup
from tests.desk.conftest import SUPERVISOR, Desk
from tests.desk.test_chinese_table import open_chinese_table
from tests.helpers.jackpot_awards import HOUSE_AWARD

SEATS = (SeatSetup("Ann", 100), SeatSetup("Bob", 100), SeatSetup("Cy", 100))


def status(desk: Desk) -> str:
    return desk.window.status_line.text().replace("\u00a0", " ")


def test_a_pool_table_offers_no_surrender(desk: Desk) -> None:
    open_chinese_table(desk, "pool")
    assert desk.window.entry.surrender_button.isHidden()
    assert "room jackpot" not in status(desk)


def test_a_table_with_an_award_shows_the_room_jackpot_on_its_status_line(desk: Desk) -> None:
    desk.window.resize(1366, 768)
    rules = TableRules.from_json({"variant": CHINESE, "rules": "chinese-basic", "house_options": HOUSE_AWARD})
    assert desk.session.open_new_table(TableSetup("Jade 1", SEATS, "Cy", rules)) is None
    assert status(desk).endswith("room jackpot 0")
    service = desk.session.controller.service
    assert service is not None
    service.seed_jackpot(1250, *SUPERVISOR)
    desk.session.controller.show_snapshot(service.snapshot())
    assert status(desk).endswith("room jackpot 1,250")
    desk.press_enter_on(desk.window.between_hands.deal_button)
    assert status(desk).endswith("room jackpot 1,250")
    desk.window.grab()  # laid out as a paint would
    line = desk.window.status_line
    assert line.height() < 2 * line.fontMetrics().lineSpacing(), line.text()
    desk.screenshot("27-room-jackpot-status-line-1366")
