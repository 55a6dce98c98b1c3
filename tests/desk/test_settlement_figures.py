"""The settlement panel's money is the felt's money after Confirm (issue 36, point 1): for every game
and payment, with and without a rake and a jackpot award, each stack the panel shows after the hand,
each player's rake, each share of the award and the room's pool before and after are the figures the
table holds once the dealer confirms."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from ofc_desk.core.cards import FULL_DECK, parse_cards
from ofc_desk.desk.hand_end.settlement_panel import SettlementPanel
from ofc_desk.i18n.formatting import number
from ofc_desk.service import SeatSetup, TableRules, TableService, TableSetup
from ofc_desk.service.store.pool_ledger import room_pool
from ofc_desk.service.store.record_reads import read_ledger
from ofc_desk.service.table.commands import SeedJackpot, Settle, StartHand
from ofc_desk.service.table.games.chinese.commands import Show
from ofc_desk.service.terms.snapshot import Phase
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account
from tests.desk.conftest import SUPERVISOR
from tests.helpers.chinese_hands import ROWS
from tests.helpers.jackpot_awards import ANY_HAND_AWARD, LOSER, WINNER
from tests.helpers.table_helpers import ANN_QQ, BOB_PLAIN, CY_PLAIN, play_streets

GAMES = {
    # game, preset, button: the hand each plays is below (OFC: Bob and Cy lose every row to Ann).
    "ofc regular": ("regular", "standard", "Cy"),
    "ofc pineapple": ("pineapple", "standard", "Cy"),
    "ofc 2-7 pineapple": ("2-7-pineapple", "standard", "Cy"),
    "chinese pairs": ("chinese", "chinese-basic", "Dee"),
    "chinese bank": ("chinese", "malayan", "Bob"),  # Bob banks: Ann loses every row to the bank
    "chinese pool": ("chinese", "pool", "Dee"),
    "pusoy single winner": ("chinese", "pusoy-single-winner", "Dee"),
}
NO_AWARD = {"ofc 2-7 pineapple"}
"""A 2-7 pineapple table takes no award (docs/rules.md §11): its middle has no hand class."""
RAKES: dict[str, dict[str, Any]] = {
    "no rake": {"mode": "off", "amount": 0, "percent": 0, "cap": 0, "jackpot_percent": 0},
    "per player, all to the jackpot": {
        "mode": "per-player", "amount": 2, "percent": 0, "cap": 8, "jackpot_percent": 100,
    },
    "a share of the win": {
        "mode": "percent-of-win", "amount": 0, "percent": 10, "cap": 5, "jackpot_percent": 40,
    },
}  # fmt: skip
SEED = 1000


def chinese_hands() -> dict[str, str]:
    """Ann loses every row to Bob (the award's pair); Cy and Dee set what is left, low to high."""
    used = set(parse_cards(f"{LOSER} {WINNER}"))
    rest = sorted((card for card in FULL_DECK if card not in used), key=lambda card: card.rank.order)
    cy, dee = rest[0::2], rest[1::2]
    return {
        "Ann": LOSER,
        "Bob": WINNER,
        "Cy": " ".join(map(str, cy)),
        "Dee": " ".join(map(str, dee)),
    }


def open_table(
    database: Database, dealer: Account, game: str, preset: str, button: str, house: dict[str, Any]
) -> TableService:
    players = ("Ann", "Bob", "Cy") if game != "chinese" else ("Ann", "Bob", "Cy", "Dee")
    rules = TableRules.from_json({"variant": game, "rules": preset, "house_options": house})
    seats = tuple(SeatSetup(name, 200 + 10 * index) for index, name in enumerate(players))
    return TableService.open(database, TableSetup("Jade 1", seats, button, rules), dealer)


def play_to_settlement(service: TableService) -> None:
    service.do(StartHand())
    if service.snapshot().game.value == "chinese":
        for name, cards in chinese_hands().items():
            service.do(Show(name, cards, ROWS))
    else:
        play_streets(service, {"Ann": ANN_QQ, "Bob": BOB_PLAIN, "Cy": CY_PLAIN}, settle=False)
    assert service.snapshot().phase is Phase.AWAITING_SETTLEMENT


CASES = [
    pytest.param(game, rake, award, id=f"{game}-{rake}-{'an award' if award else 'no award'}")
    for game in GAMES
    for rake in RAKES
    for award in (False, True)
    if not (award and game in NO_AWARD)
]


@pytest.mark.parametrize(("game", "rake", "award"), CASES)
def test_the_panels_figures_are_the_tables_after_confirm(
    qtbot: QtBot,
    database: Database,
    template_accounts: tuple[Path, Account],
    game: str,
    rake: str,
    award: bool,
) -> None:
    variant, preset, button = GAMES[game]
    house: dict[str, Any] = {"rake": RAKES[rake]}
    if award:
        house["jackpot_award"] = ANY_HAND_AWARD
    service = open_table(database, template_accounts[1], variant, preset, button, house)
    if award:
        service.do(SeedJackpot(SEED, supervisor=SUPERVISOR[0], pin=SUPERVISOR[1]))
    play_to_settlement(service)
    before = service.snapshot()
    panel = SettlementPanel()
    qtbot.addWidget(panel)
    assert before.result is not None
    preview = service.settlement_preview(service.pool_shown())
    panel.show_result(before.hand_number, before.result, service, preview)
    details = " ".join(panel.details.toPlainText().split())
    transfers = " ".join(panel.transfers.toPlainText().split())

    after = service.do(Settle())

    for seat in after.seats:
        assert f"{before.seat(seat.name).stack} → {seat.stack}" in details, (seat.name, details)
    if after.rake is not None and after.rake.total:
        assert f"Rake {after.rake.total} (" in details
        for name, chips in after.rake.per_player:
            assert not chips or f"{name} {chips}" in details.split("Rake ", 1)[1]
    else:
        assert "Rake" not in details
    awarded = {
        line.player: line.amount
        for line in read_ledger(database, service.session_id)
        if line.kind == "jackpot"
    }
    if not award:
        assert not awarded and "Room jackpot" not in transfers
        return
    assert awarded  # every hand here has a qualifying pair
    for name, chips in awarded.items():
        assert f"{name} {chips} (" in transfers
    pool_after = room_pool(database)
    drop = after.rake.jackpot if after.rake is not None else 0
    said = f"Room pool {number(SEED)} + this hand's drop {drop} = {number(SEED + drop)};"
    assert said in transfers and f"award {number(sum(awarded.values()))} → {number(pool_after)}" in transfers
    assert pool_after == SEED + drop - sum(awarded.values())
