"""Helpers that drive a `TableService` through whole hands from planned rows."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ofc_desk.core.cards import FULL_DECK, Card, parse_cards
from ofc_desk.core.rows import DISCARD, Row
from ofc_desk.service import SeatSetup, TableRules, TableService, TableSetup
from ofc_desk.service.table.commands import Settle, StartHand
from ofc_desk.service.table.games.ofc.commands import Place, Reveal
from ofc_desk.service.table.games.ofc.view_parts import OfcSeatView, OfcTurn
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account, sign_in

Build = Callable[[Database], None]
"""A history a module's tests all start from, built once a run (conftest.py, `database_copy`)."""
DatabaseCopy = Callable[[Build | None], Database]

SUPERVISOR, SUPERVISOR_PIN = "Sue", "43214321"
DEALER, DEALER_PIN = "Dan", "1234"


@dataclass(frozen=True)
class Plan:
    """A player's finished rows and discards (None = unknown discard)."""

    front: str
    middle: str
    back: str
    discards: Sequence[Card | None] = field(default_factory=tuple)

    def placements(self) -> list[tuple[Card, Row]]:
        rows = ((self.front, Row.FRONT), (self.middle, Row.MIDDLE), (self.back, Row.BACK))
        return [(card, row) for text, row in rows for card in parse_cards(text)]


def open_test_table(
    database: Database,
    seats: Sequence[tuple[str, int]],
    button: str,
    **rules: object,
) -> TableService:
    setup = TableSetup(
        "Table 7",
        tuple(SeatSetup(name, chips) for name, chips in seats),
        button,
        TableRules.from_json(rules),
    )
    return TableService.open(database, setup, dealer(database))


def dealer(database: Database) -> Account:
    """The test dealer, signed in: their key signs the table's settlements and chip operations."""
    return sign_in(database, DEALER, DEALER_PIN)


def filler_plans(service: TableService, plans: Mapping[str, Plan]) -> dict[str, Plan]:
    """Plans for the players `plans` leaves out: a front of three different ranks (so never a
    Fantasyland front), the rest of the free cards in order, then the discards."""
    snapshot = service.snapshot()
    used = {card for plan in plans.values() for card, _ in plan.placements()}
    used |= {card for plan in plans.values() for card in plan.discards if card is not None}
    free = sorted((card for card in FULL_DECK if card not in used), key=lambda c: c.rank.order)
    discards = 4 if snapshot.variant != "regular" else 0
    result = dict(plans)
    for seat in snapshot.seats:
        if not seat.in_hand or seat.name in plans:
            continue
        fantasyland = OfcSeatView.of(seat).fantasyland_cards
        extra = fantasyland - 13 if fantasyland else discards
        front = _distinct_ranks(free, 3)
        rest = [card for card in free if card not in front]
        cards, free = front + rest[: 10 + extra], rest[10 + extra :]
        front_text, middle_text, back_text = (
            " ".join(map(str, part)) for part in (cards[:3], cards[3:8], cards[8:13])
        )
        result[seat.name] = Plan(front_text, middle_text, back_text, discards=tuple(cards[13:]))
    return result


def _distinct_ranks(cards: list[Card], count: int) -> list[Card]:
    chosen: list[Card] = []
    for card in cards:
        if all(card.rank != other.rank for other in chosen):
            chosen.append(card)
        if len(chosen) == count:
            break
    return chosen


def play_hand(service: TableService, plans: Mapping[str, Plan], *, settle: bool = True) -> None:
    """Start the next hand and enter every street (and Fantasyland set) from the plans."""
    service.do(StartHand())
    play_streets(service, plans, settle=settle)


def play_streets(
    service: TableService, plans: Mapping[str, Plan], *, settle: bool = True, until: str | None = None
) -> None:
    """Enter every street (and Fantasyland set) of the hand just dealt from the plans; with `until`,
    stop (unsettled) at the first turn of that kind."""
    plans = filler_plans(service, plans)
    queues = {name: plan.placements() for name, plan in plans.items()}
    thrown = {name: list(plan.discards) for name, plan in plans.items()}
    while (turn := service.snapshot().to_act) is not None:
        if turn.kind == until:
            return
        placed = [queues[turn.player].pop(0) for _ in range(turn.place)]
        # Discards the plan does not name are entered as unknown (??).
        dropped = [thrown[turn.player].pop(0) if thrown[turn.player] else None for _ in range(turn.discard)]
        cards = [card for card, _ in placed] + dropped
        rows = [str(row) for _, row in placed] + [DISCARD] * len(dropped)
        if turn.kind is OfcTurn.FANTASYLAND_SET:
            service.do(Reveal(turn.player, cards, rows))
        else:
            service.do(Place(turn.player, cards, rows))
    if settle:
        service.do(Settle())


# Ready-made hands (disjoint cards): Ann enters Fantasyland with QQ, Bob and Cy do not.
ANN_QQ = Plan("Qh Qd 2c", "Ah Kh 9h 4h 2h", "7s 7d 7c 3s 3d")
BOB_PLAIN = Plan("Ks 5d 2d", "Jc Jd 9c 4c 3c", "Ts 9s 8d 7h 6c")
CY_PLAIN = Plan("6s 5s 4s", "Ac Ad 8s 8h 5c", "2s 3h 4d 5h 6h")
