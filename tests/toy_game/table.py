"""The toy game as a table plays it (`base.TableGame`, `base.LiveHand`): each player's row is
entered as a showdown, in any order; once every player has one, the toy's rules score the hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from ofc_desk.core.cards import Card
from ofc_desk.core.jackpot import JackpotAward
from ofc_desk.core.presets import Game, RakeMode, RakeRules
from ofc_desk.core.results import HandResult
from ofc_desk.core.rows import Row
from ofc_desk.i18n import LazyText
from ofc_desk.service.table.carry import CarryOver
from ofc_desk.service.table.commands import Entry
from ofc_desk.service.table.games.base import (
    CheckedEntry,
    GameTable,
    HandDeal,
    HandScorer,
    JackpotDeal,
    LiveHand,
    SettledResult,
    no_hand_being_dealt,
)
from ofc_desk.service.table.seats import Seat
from ofc_desk.service.table.view_parts import GameView, SeatPlay
from ofc_desk.service.terms.errors import ActionRefused, nothing_to_undo
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import RawPayload, ShownPayload, Undone
from ofc_desk.service.terms.setup import TableRules
from ofc_desk.service.terms.snapshot import Phase, RowView, Turn
from tests.toy_game.rules import (
    MOST_PLAYERS,
    ROW_CARDS,
    ROW_TURN,
    TOY,
    TOY_WORD,
    ToyDeal,
    ToyRefused,
    read_row,
    row_name,
)

NO_RAKE = RakeRules(RakeMode.OFF, 0, 0, 0, 0)


@dataclass(frozen=True)
class ShowRow(Entry):
    """A player's row of five cards (no row words)."""

    kind = EventKind.SHOWN

    def raw(self, in_force: TableRules) -> RawPayload:
        return {"player": self.player, "cards": self.cards}


class ToyHand:
    """One toy hand being entered (`base.LiveHand`)."""

    def __init__(self, deal: HandDeal) -> None:
        self.number = deal.number
        self.button = deal.button
        self.stacks_before = deal.stacks
        self.order = deal.order
        self.entries: list[ShownPayload] = []

    @property
    def rows(self) -> dict[str, tuple[Card, ...]]:
        return {entry["player"]: read_row(entry["cards"]) for entry in self.entries}

    @property
    def owed(self) -> dict[str, int]:
        return {}

    @property
    def complete(self) -> bool:
        return len(self.entries) == len(self.order)

    @property
    def phase(self) -> Phase:
        return Phase.AWAITING_SETTLEMENT if self.complete else Phase.LIVE

    @property
    def phase_words(self) -> LazyText:
        return self.phase.label

    def next_up(self) -> str | None:
        return next((name for name in self.order if name not in self.rows), None)

    def waiting(self) -> str:
        return f"waiting for {self.next_up()}'s row"

    def check_event(self, kind: EventKind, raw: RawPayload) -> CheckedEntry:
        if kind is not EventKind.SHOWN:
            raise no_hand_being_dealt()
        player = str(raw.get("player") or "")
        if player not in self.order or player in self.rows:
            raise ActionRefused(f"{player} has no row to show")
        try:
            row = read_row(raw.get("cards"))
        except ToyRefused as error:
            raise ActionRefused(str(error)) from None
        seen = {card for shown in self.rows.values() for card in shown}
        if seen & set(row):
            raise ActionRefused("a card is already shown")
        payload: ShownPayload = {
            "player": player,
            "cards": [card.text for card in row],
            "rows": None,
            "surrender": False,
            "declare": None,
        }
        return CheckedEntry(payload, partial(self.entries.append, payload))

    def check_typing(self, kind: EventKind, player: str, cards: object, rows: object) -> None:
        if kind is not EventKind.SHOWN:
            raise no_hand_being_dealt()

    def last_entry(self) -> Undone:
        if not self.entries:
            raise nothing_to_undo(self.number)
        return {"undone": self.entries[-1]}

    def take_back(self) -> None:
        self.entries.pop()

    def score(
        self, rules: TableRules, seats: Sequence[Seat], scorer: HandScorer[ToyDeal] | None
    ) -> SettledResult:
        """By the toy's rules, or by `verify`'s `scorer` (the toy has a `GameRescoring`)."""
        deal = ToyDeal(self.stacks_before, {name: self.rows[name] for name in self.order}, rules.unit)
        return deal.score() if scorer is None else scorer(TOY, self.number, deal)

    def dealt_in(self, seats: Sequence[Seat]) -> list[str]:
        return list(self.stacks_before)

    def after_settling(self, table: GameTable, result: SettledResult) -> None:
        table.button_held = False
        table.button = table.next_clockwise(self.button)

    def jackpot_deal(self, result: SettledResult, seats: Sequence[Seat]) -> JackpotDeal:
        raise AssertionError("the toy game plays no jackpot")


@dataclass(frozen=True)
class ToyGame:
    """The toy game under the rules in force (`base.TableGame`)."""

    rules: TableRules

    @classmethod
    def for_rules(cls, rules: TableRules) -> ToyGame:
        return cls(rules)

    @property
    def game(self) -> Game:
        return TOY

    @property
    def label(self) -> LazyText:
        return TOY.label

    @property
    def seat_limits(self) -> tuple[int, int]:
        return 2, MOST_PLAYERS

    @property
    def rake(self) -> RakeRules:
        return NO_RAKE

    @property
    def jackpot_award(self) -> JackpotAward | None:
        return None

    @property
    def entry(self) -> EventKind:
        return EventKind.SHOWN

    entry_kinds = frozenset({EventKind.SHOWN})  # each player's row

    @property
    def action_keys(self) -> tuple[str, ...]:
        return ("player", "cards")  # one row, no row words

    def nothing_to_settle(self) -> ActionRefused:
        return ActionRefused("no toy hand is being entered: start the next hand")

    def check_deal(self, playing: Sequence[Seat], carried: CarryOver) -> None:
        """Six rows of five fit the deck."""

    def start(self, deal: HandDeal) -> ToyHand:
        return ToyHand(deal)

    def entry_kind(self, live: LiveHand | None, raw: RawPayload) -> EventKind:
        return EventKind.SHOWN

    def shown_result(self, result: HandResult) -> HandResult:
        return result

    def view(self, table: GameTable, live: LiveHand | None) -> GameView:
        hand = live if isinstance(live, ToyHand) else None
        rows = hand.rows if hand is not None else {}
        waiting = hand.next_up() if hand is not None and not table.hand_settled else None
        return GameView(
            variant=TOY_WORD,
            preset=str(self.rules.preset_label),
            to_act=None if waiting is None else Turn(waiting, ROW_TURN, ROW_CARDS, ROW_CARDS, 0),
            plays=tuple(
                SeatPlay(
                    in_hand=hand is not None and seat.name in hand.stacks_before,
                    to_act=seat.name == waiting,
                    rows=_rows(rows.get(seat.name)),
                    foul_certain=False,
                )
                for seat in table.seats
            ),
            cards_seen=sum(len(row) for row in rows.values()),
            cards_left=52 - sum(len(row) for row in rows.values()),
        )


def _rows(row: tuple[Card, ...] | None) -> tuple[RowView]:
    """The toy's one row, shown as a back row (the desk's `b`)."""
    return (RowView(Row.BACK, row or (), ROW_CARDS, None if row is None else row_name(row), None),)
