"""Tables of every game walked through the phases a dealer sees, driven through the session service
exactly as the desk drives it: for the screen matrix (test_screen_matrix.py), and for a person to
look at the same states on a real screen (`python -m tests.desk.screen_states GAME PLAYERS PHASE`).

Each game's hands are chosen to crowd the seats: long names, a button, a Fantasyland badge, a
foul (OFC); a surrender, a declared special and a misset (Chinese); stacks small enough that
transfers are capped, with their reasons.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ofc_desk.core.cards import Card
from ofc_desk.core.chinese.deal import CHINESE
from ofc_desk.core.rows import DISCARD
from ofc_desk.service import TableService
from ofc_desk.service.table.commands import SeedJackpot, Settle, StartHand, VoidHand
from ofc_desk.service.table.games.chinese.commands import Show
from ofc_desk.service.table.games.chinese.game import takes_showdown_from
from ofc_desk.service.table.games.ofc.commands import Place, Reveal
from ofc_desk.service.table.games.ofc.view_parts import OfcTableView, OfcTurn
from ofc_desk.service.terms.setup import SeatSetup, TableRules, TableSetup
from tests.helpers.jackpot_awards import HOUSE_AWARD, LOSER_ROWS, WINNER_ROWS
from tests.helpers.table_helpers import Plan, filler_plans

NAMES = ("Annabelle", "Bartholomew", "Cordelia", "Dmitri")
STACK, SHORT_STACK = 1000, 300
"""One seat's stack is short at three or four players: what it owes is capped, and the transfers
say why."""
SUPERVISOR = ("Floor", "99999999")
PHASES = ("dealing", "showdown-entry", "settlement", "between-hands", "voided")


@dataclass(frozen=True)
class ScreenGame:
    name: str
    variant: str
    preset: str
    players: tuple[int, ...]
    settlement: str = "win-cap"
    settle_from: str = "left-of-dealer"
    short_seat: int = -1
    """The seat (from 0) with the short stack at three or four players."""
    house_options: Mapping[str, object] | None = None

    def stacks(self, players: int) -> list[int]:
        stacks = [STACK] * players
        if players > 2:
            stacks[self.short_seat] = SHORT_STACK
        return stacks

    def setup(self, players: int) -> TableSetup:
        names = NAMES[:players]
        return TableSetup(
            name="Table 12 — high stakes",
            seats=tuple(
                SeatSetup(name, stack) for name, stack in zip(names, self.stacks(players), strict=True)
            ),
            button=names[-1],
            rules=TableRules(
                preset=self.preset,
                variant=self.variant,
                unit=25,
                settlement=self.settlement,
                settle_from=self.settle_from,
                house_options=self.house_options,
            ),
        )


GAMES = (
    ScreenGame("regular", "regular", "standard", (2, 3, 4)),
    ScreenGame("pineapple", "pineapple", "standard", (2, 3)),
    ScreenGame("2-7-pineapple", "2-7-pineapple", "standard", (2, 3)),
    # The misset hand's player is short: the winners are paid what there is, in settlement order.
    ScreenGame("chinese", CHINESE, "hawaiian-gardens", (2, 3, 4), "chip-exposure", "dealer", short_seat=1),
)
PAYMENT_GAMES = (
    # Not in the screen matrix: a pool table's settlement, and an award paid from a seeded pool.
    ScreenGame("pool", CHINESE, "pool", (3,)),
    ScreenGame("jackpot", CHINESE, "chinese-basic", (4,), house_options=HOUSE_AWARD),
)
SEED = 1000

# The first hand at an OFC table: Annabelle earns Fantasyland, Bartholomew fouls.
FIRST_HAND: dict[str, Mapping[str, Plan]] = {
    "regular": {
        "Annabelle": Plan("Qh Qd 2c", "Ah Kh 9h 4h 2h", "7s 7d 7c 3s 3d"),
        "Bartholomew": Plan("Ks Kc 5d", "Jc 9c 8d 6c 4c", "Ts 9s 8s 6s 5s"),
    },
    "2-7-pineapple": {  # KK in front and a low middle: 14 cards of Fantasyland
        "Annabelle": Plan("Kh Kd 2c", "9c 6d 4s 3h 2h", "9s 9d 9h 8s 8d"),
        "Bartholomew": Plan("Qs Jc 3c", "Tc Td 6c 6h 5c", "As Ac Ad Js Jd"),  # a pair in the middle
        "Cordelia": Plan("Qh 7c 4d", "8c 7d 5d 3d 2d", "Ks Kc 4c 4h 5h"),
    },
}
FIRST_HAND["pineapple"] = FIRST_HAND["regular"]

# A Chinese hand, by seat: a surrender first, a misset, set rows with bonuses, and the last seat
# (the dealer, who shows last) holds six pairs, for the desk to offer as a special.
SURRENDER = {"surrender": True}
SIX_PAIRS = ("2s 2h 3s", "3h 4s 4h 5s 5h", "6s 6h 7s 7h 8s")
MISSET = ("Ac Ad As", "2c 3c 4d 5c 7d", "Kc Kd Ks Kh 9c")
WITH_BONUSES = ("Js Jh 2d", "8c 8d 8h 6c 6d", "Ts Th Td Tc 9s")
CHINESE_HANDS: dict[int, tuple[Mapping[str, object] | tuple[str, str, str], ...]] = {
    2: (SURRENDER, SIX_PAIRS),
    3: (SURRENDER, MISSET, SIX_PAIRS),
    4: (SURRENDER, MISSET, WITH_BONUSES, SIX_PAIRS),
}
# The pool's example of the core: the front and the middle to the second seat, the back to the third.
POOL_HANDS: tuple[tuple[str, str, str], ...] = (
    ("Ah Kd 2c", "3s 3h 7d 8c 9s", "Ts Js Qs Ks 2s"),
    ("Qh Qd 4c", "5s 5h 5d 8d 9d", "6c 6d 6h 4d 4h"),
    ("Kh Jd 3c", "2d 2h 7c Td Tc", "Ad As Ac 7s 7h"),
)
# The first seat's high cards lose every row to the second's: the award's pair; the others surrender.
AWARD_HANDS: tuple[Mapping[str, object] | tuple[str, str, str], ...] = (
    LOSER_ROWS,
    WINNER_ROWS,
    SURRENDER,
    SURRENDER,
)
ROWS_OF_13 = ["front"] * 3 + ["middle"] * 5 + ["back"] * 5
Queues = dict[str, tuple[list[tuple[Card, str]], list[Card | None]]]
"""Per player, the placements and the discards still to enter: a hand entered in parts goes on
where it stopped."""


def walk(service: TableService, game: ScreenGame) -> Iterator[str]:
    """Drive `service` from a fresh table through each of PHASES, yielding its name once the table
    is in it; the caller looks at the desk then. Chinese: one hand. OFC: a first hand (Fantasyland
    earned, a foul) settled unseen, then the second hand, with the Fantasyland set last."""
    if game in PAYMENT_GAMES:
        yield from _payment_walk(service, game)
        return
    if game.variant == CHINESE:
        yield from _chinese_walk(service)
        return
    service.do(StartHand())
    _play(service, _queues(filler_plans(service, _first_hand(service, game))))
    service.do(Settle())
    service.do(StartHand())
    queues = _queues(filler_plans(service, {}))
    _play(service, queues, streets=1)
    yield "dealing"
    _play(service, queues, until_fantasyland=True)
    yield "showdown-entry"
    _play(service, queues)
    yield "settlement"
    yield from _after_settlement(service)


def _first_hand(service: TableService, game: ScreenGame) -> dict[str, Plan]:
    seated = {seat.name for seat in service.snapshot().seats}
    return {name: plan for name, plan in FIRST_HAND[game.variant].items() if name in seated}


def _chinese_walk(service: TableService) -> Iterator[str]:
    service.do(StartHand())
    yield "dealing"
    players = [seat.name for seat in service.snapshot().seats]
    planned = CHINESE_HANDS[len(players)]
    for player, hand in zip(players[:-1], planned, strict=False):
        service.do(_showdown(player, hand))
    yield "showdown-entry"
    last = players[-1]
    if takes_showdown_from(service.machine, last):  # not declared at the desk already
        service.do(Show(last, " ".join(SIX_PAIRS), ROWS_OF_13, declare="six-pairs"))
    yield "settlement"
    yield from _after_settlement(service)


def _payment_walk(service: TableService, game: ScreenGame) -> Iterator[str]:
    if game.house_options:
        service.do(SeedJackpot(SEED, supervisor=SUPERVISOR[0], pin=SUPERVISOR[1]))
    service.do(StartHand())
    yield "dealing"
    players = [seat.name for seat in service.snapshot().seats]
    shown = list(zip(players, POOL_HANDS if game.name == "pool" else AWARD_HANDS, strict=True))
    for player, hand in shown[:-1]:
        service.do(_showdown(player, hand))
    yield "showdown-entry"
    service.do(_showdown(*shown[-1]))
    yield "settlement"
    yield from _after_settlement(service)


def _showdown(player: str, hand: Mapping[str, object] | tuple[str, str, str]) -> Show:
    if isinstance(hand, tuple):
        return Show(player, " ".join(hand), ROWS_OF_13)
    assert hand == SURRENDER
    return Show(player, surrender=True)


def _after_settlement(service: TableService) -> Iterator[str]:
    service.do(Settle())
    yield "between-hands"
    number = service.snapshot().hand_number
    service.do(VoidHand(number, "cards exposed in the deal", supervisor=SUPERVISOR[0], pin=SUPERVISOR[1]))
    yield "voided"


def _play(
    service: TableService,
    queues: Queues,
    *,
    streets: int | None = None,
    until_fantasyland: bool = False,
) -> None:
    """Enter the hand's streets from `queues`: all of them, the first `streets` only, or up to a
    Fantasyland set."""
    start = OfcTableView.of(service.snapshot()).street
    while (turn := service.snapshot().to_act) is not None:
        if streets is not None and OfcTableView.of(service.snapshot()).street > start + streets - 1:
            return
        if until_fantasyland and turn.kind is OfcTurn.FANTASYLAND_SET:
            return
        placed = [queues[turn.player][0].pop(0) for _ in range(turn.place)]
        thrown = queues[turn.player][1]
        dropped = [thrown.pop(0) if thrown else None for _ in range(turn.discard)]
        cards = [str(card) for card, _ in placed] + [str(card) if card else "??" for card in dropped]
        rows = [row for _, row in placed] + [DISCARD] * len(dropped)
        if turn.kind is OfcTurn.FANTASYLAND_SET:
            service.do(Reveal(turn.player, cards, rows))
        else:
            service.do(Place(turn.player, cards, rows))


def _queues(plans: Mapping[str, Plan]) -> Queues:
    return {
        name: ([(card, str(row)) for card, row in plan.placements()], list(plan.discards))
        for name, plan in plans.items()
    }


def _main(game_name: str, players: int, phase: str) -> int:
    """A demo database at that game, players and phase, opened in the desk (to look at it)."""
    import tempfile
    from pathlib import Path

    from ofc_desk.desk.shell.app import run_prepared_desk
    from ofc_desk.service import open_table
    from ofc_desk.storage.account_changes import create_accounts
    from ofc_desk.storage.database import Database
    from ofc_desk.storage.users import Role

    game = next(game for game in GAMES + PAYMENT_GAMES if game.name == game_name)
    path = Path(tempfile.mkdtemp(prefix="ofc-screen-")) / "screen.db"
    database = Database(f"sqlite:///{path}")
    _supervisor, dealer = create_accounts(
        database, [(SUPERVISOR[0], Role.SUPERVISOR, SUPERVISOR[1]), ("Dana", Role.DEALER, "1234")]
    )
    service = open_table(database, game.setup(players), dealer)
    for reached in walk(service, game):
        if reached == phase:
            break
    database.dispose()
    return run_prepared_desk(f"sqlite:///{path}", ("Dana", "1234"), service.session_id)


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
