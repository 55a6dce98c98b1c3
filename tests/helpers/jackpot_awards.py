"""The jackpot award the tests of several layers play: any hand qualifies, shared 50/25/25; Ann's
hand loses every row to Bob's (the award's pair), Cy and Dee surrender."""

from __future__ import annotations

import copy
from typing import Any

from ofc_desk.service import TableService
from ofc_desk.service.table.commands import StartHand
from ofc_desk.service.table.games.chinese.commands import Show
from ofc_desk.service.terms.setup import SeatSetup, TableRules, TableSetup
from ofc_desk.storage.database import Database
from tests.helpers.chinese_hands import ROWS
from tests.helpers.room_scripts import DEALER, USERS, _supervised
from tests.helpers.table_helpers import dealer

ANY_HAND_AWARD: dict[str, str | int] = {
    "front": "high-card",
    "middle": "high-card",
    "back": "high-card",
    "loser": 50,
    "winner": 25,
    "table": 25,
}
"""A preset's `jackpot_award` that any losing hand qualifies for: the loser takes half, the winner a
quarter, the others at the table share the last quarter."""
HOUSE_AWARD = {"jackpot_award": ANY_HAND_AWARD}
PLAYERS = ("Ann", "Bob", "Cy", "Dee")
LOSER_ROWS = ("2c 3d 5h", "4s 6c 7d 9h Jc", "8d Th Qs Kh Ac")
"""Ann's hand, front, middle and back: high cards in every row, each row lost to Bob's."""
WINNER_ROWS = ("Ad Kd Qc", "2h 2s 3h 3s 4d", "5c 5d 5s 6h 6d")
"""Bob's: ace high, two pair, a full house."""
LOSER = " ".join(LOSER_ROWS)
WINNER = " ".join(WINNER_ROWS)


def award_rules(**house: Any) -> TableRules:
    return TableRules.from_json({"variant": "chinese", "rules": "chinese-basic", "house_options": house})


def open_award_table(database: Database, name: str, **house: Any) -> TableService:
    setup = TableSetup(name, tuple(SeatSetup(player, 100) for player in PLAYERS), "Dee", award_rules(**house))
    return TableService.open(database, setup, dealer(database))


def show_the_losing_hand(service: TableService) -> None:
    """Ann's set hand loses all three rows to Bob's; Cy and Dee surrender (the table's share)."""
    service.do(StartHand())
    service.do(Show("Ann", LOSER, ROWS))
    service.do(Show("Bob", WINNER, ROWS))
    service.do(Show("Cy", surrender=True))
    service.do(Show("Dee", surrender=True))


def award_replay_script(table: str, *, seed: int | None) -> dict[str, Any]:
    """The losing hand as a replay script at `table`, with a 4-chip drop; `seed` chips seeded first."""
    between = [_supervised("seed_jackpot", chips=seed)] if seed else []
    return {
        "table": table,
        "dealer": DEALER,
        "users": copy.deepcopy(USERS),
        "variant": "chinese",
        "rules": "chinese-basic",
        "house_options": {
            **HOUSE_AWARD,
            "rake": {"mode": "per-player", "amount": 1, "percent": 0, "cap": 4, "jackpot_percent": 100},
        },
        "seats": [{"name": name, "buy_in": 100} for name in PLAYERS],
        "button": "Dee",
        "hands": [
            {
                "between": between,
                "actions": [
                    {"player": "Ann", "cards": LOSER, "rows": ROWS},
                    {"player": "Bob", "cards": WINNER, "rows": ROWS},
                    {"player": "Cy", "surrender": True},
                    {"player": "Dee", "surrender": True},
                ],
            }
        ],
    }
