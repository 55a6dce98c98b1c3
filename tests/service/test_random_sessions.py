"""Random legal sessions: whatever the cards, chips are conserved, verify passes and a resumed
table is the live one."""

from __future__ import annotations

import os
import random

import pytest

from ofc_desk.core.cards import FULL_DECK, Card
from ofc_desk.core.rows import DISCARD, Row
from ofc_desk.service import TableService, chip_ledger
from ofc_desk.service.audit import side_check, verify_session
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.table.commands import Rebuy, Settle, StartHand
from ofc_desk.service.table.games.ofc.commands import Place, Reveal
from ofc_desk.service.table.games.ofc.view_parts import OfcTurn
from ofc_desk.storage.database import Database
from tests.helpers.table_helpers import dealer, open_test_table

HANDS = 8


def play_random_hand(service: TableService, chooser: random.Random) -> None:
    service.do(StartHand())
    deck = list(FULL_DECK)
    chooser.shuffle(deck)
    while (turn := service.snapshot().to_act) is not None:
        seat = service.snapshot().seat(turn.player)
        room = {view.row: view.size - len(view.cards) for view in seat.rows}
        cards: list[Card | None] = []
        rows: list[str] = []
        for _ in range(turn.place):
            row = chooser.choice([row for row in Row if room[row] > 0])
            room[row] -= 1
            cards.append(deck.pop())
            rows.append(row.value)
        for _ in range(turn.discard):
            card = deck.pop()
            cards.append(None if chooser.random() < 0.5 else card)
            rows.append(DISCARD)
        if turn.kind is OfcTurn.FANTASYLAND_SET:
            service.do(Reveal(turn.player, cards, rows))
        else:
            service.do(Place(turn.player, cards, rows))
    service.do(Settle())


@pytest.mark.parametrize("variant", ["regular", "pineapple", "2-7-pineapple"])
def test_random_session_conserves_chips_and_verifies(database: Database, variant: str) -> None:
    seed = random.SystemRandom().randrange(2**32)
    chooser = random.Random(seed)
    service = open_test_table(
        database, [("Ann", 150), ("Bob", 150), ("Cy", 150)], "Cy", variant=variant, progressive=True
    )
    for number in range(1, HANDS + 1):
        play_random_hand(service, chooser)
        broke = [seat.name for seat in service.snapshot().seats if seat.stack == 0]
        for name in broke:
            service.do(Rebuy(name, 100))
        total = sum(seat.stack for seat in service.snapshot().seats)
        assert total == 450 + 100 * number_of_rebuys(service), f"seed {seed}, hand {number}"
    summary = verify_database(database)
    assert summary.hands == HANDS, f"seed {seed}"
    if hasattr(os, "fork"):  # the same verdict with the chain and the re-scoring beside the fold
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(verify_session, "FORK_FROM_EVENTS", 0)
            patch.setattr(side_check, "can_fork", lambda: True)  # the runner's threads aside
            assert verify_database(database) == summary, f"seed {seed}"
    resumed = TableService.resume(database, service.session_id, dealer(database))
    assert resumed.snapshot() == service.snapshot(), f"seed {seed}"


def number_of_rebuys(service: TableService) -> int:
    return sum(1 for row in chip_ledger(service.database, service.session_id) if row.kind == "rebuy")
