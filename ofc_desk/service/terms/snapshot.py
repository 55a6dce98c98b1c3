"""What the desk renders: a frozen picture of one live table, rebuilt after every action.

Everything here is plain data. The desk never decides anything from it that the service has not
already decided: whose turn it is, how many cards to take, what a row is worth so far.
Cards are core `Card`s; an unknown face-down discard is `None`.
"""

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from ofc_desk.core.cards import Card
from ofc_desk.core.presets import Game
from ofc_desk.core.results import HandResult, JackpotView
from ofc_desk.core.rows import Row
from ofc_desk.core.settlement import SettlementPolicy
from ofc_desk.i18n import LazyText, _, lazy_gettext


class Phase(StrEnum):
    """Where the table is in its cycle of hands. A live hand may say more of where it is in the
    game's own words (`LiveHand.phase_words`, `DeskGame.phase_words`: OFC's wait for Fantasyland
    sets)."""

    BETWEEN_HANDS = "between hands"
    LIVE = "live"
    AWAITING_SETTLEMENT = "hand complete, awaiting settlement"
    SETTLED = "settled"
    CLOSED = "closed"

    @property
    def label(self) -> LazyText:
        """The phase in the reader's words (its value is the service's English name)."""
        return _PHASE_LABELS[self]


_PHASE_LABELS: dict[Phase, LazyText] = {
    Phase.BETWEEN_HANDS: lazy_gettext("between hands"),
    Phase.LIVE: lazy_gettext("live"),
    Phase.AWAITING_SETTLEMENT: lazy_gettext("awaiting settlement"),
    Phase.SETTLED: lazy_gettext("settled"),
    Phase.CLOSED: lazy_gettext("closed"),
}


class Turn(NamedTuple):
    """Who must act now and with how many cards: take = place + discard. (A named tuple: `verify`
    works one out for every card entered in a long session.)"""

    player: str
    kind: str
    """A kind the table's game names in its own package and reads only in its own parts (OFC's
    `OfcTurn`, Chinese poker's `ChineseTurn`, the tests' toy game's "row"); the generic desk asks
    the game how a turn is said and taken (`desk.games.base.DeskGame`: `turn_status`,
    `turn_prompt`, `turn_floor`, `taken_by`; OFC's street is its table's part, `OfcTableView`)."""
    take: int
    place: int
    discard: int

    @property
    def describe(self) -> str:
        """The status-line sentence: "Ann: take 3, place 2, discard 1"."""
        if self.discard:
            said = _("{player}: take {take}, place {place}, discard {discard}")
            return said.format(player=self.player, take=self.take, place=self.place, discard=self.discard)
        return _("{player}: take {take}").format(player=self.player, take=self.take)


@dataclass(frozen=True)
class RowView:
    """A row of a seat's hand as the faces show it."""

    row: Row
    cards: tuple[Card, ...]
    size: int
    hand_name: str | None
    """The hand's name ("pair of queens") once the row is full, else None."""
    points: int | None
    """What the full row is worth on its own as its game counts it live (OFC's royalty, 0 if it
    pays nothing); None until it is full, or where the game counts nothing live (Chinese poker's
    rows). The desk's words for it are the game's (`DeskGame.row_worth`)."""


@dataclass(frozen=True)
class SeatViewPart:
    """A game's own part of a seat's view, beside what every game's seat shows (as
    `core.results.SeatPart` is of a result's line): subclassed in the game's package (OFC's
    `games.ofc.view.OfcSeatView`, closed Chinese poker's `games.chinese.view.ChineseSeatView`) and
    read only by that game's part of the desk (issue 37: this module names no game's concept)."""


@dataclass(frozen=True)
class TableViewPart:
    """A game's own part of the table's snapshot, beside what every table shows: subclassed in the
    game's package (OFC's `games.ofc.view.OfcTableView`) and read only by that game's parts."""


@dataclass(frozen=True)
class SeatView:
    """A seat as the faces show it."""

    name: str
    position: int
    """0-based clockwise order of the occupied seats (the order play reads)."""
    number: int
    """The seat's number at the table, kept for the whole session: `2:` names seat 2."""
    stack: int
    button: bool
    sitting_out: bool
    in_hand: bool
    """Dealt into the current (or last) hand."""
    to_act: bool
    rows: tuple[RowView, ...]
    """The seat's rows as its game deals them, top first: OFC's and Chinese poker's front, middle
    and back; the tests' toy game's one row (the desk draws them by `DeskGame.felt_rows`)."""
    foul_certain: bool
    discards: tuple[Card | None, ...]
    locked_reason: str | None
    """Why this player may not sit out or leave right now, or None."""
    part: SeatViewPart | None = None
    """The game's own part of the seat (OFC's Fantasyland, a Chinese entry that is not set rows);
    None where the game shows nothing of its own."""

    def row(self, row: Row) -> RowView:
        """The seat's row `row`; KeyError where its game deals no such row."""
        for view in self.rows:
            if view.row is row:
                return view
        raise KeyError(row)


@dataclass(frozen=True)
class RakeView:
    """The house's take from one hand: chips per player and the jackpot drop."""

    per_player: tuple[tuple[str, int], ...]
    total: int
    jackpot: int


@dataclass(frozen=True)
class RequestView:
    """A request to the floor as the desk and the floor view show it."""

    number: int
    line: str
    """ "#2 void hand 3 (misdeal) — waiting for the floor"."""
    waiting: bool
    """No supervisor has decided it yet."""


@dataclass(frozen=True)
class TableSnapshot:
    """The table as the faces show it after each action."""

    table: str
    session_id: int
    hand_number: int
    """The current hand, or the last one between hands (0 before the first)."""
    phase: Phase
    variant: str
    """The rules' variant word: an OFC `Variant`'s value, or "chinese" (`game` says the game)."""
    preset: str
    unit: int
    settlement: SettlementPolicy
    to_act: Turn | None
    cards_seen: int
    """Cards out of the deck so far this hand, known or not."""
    cards_left: int
    button: str | None
    seats: tuple[SeatView, ...]
    result: HandResult | None
    """The scored hand, in either game, when complete (awaiting settlement) or settled; None
    otherwise."""
    rake: RakeView | None
    jackpot_pool: int
    last_event_hash: str
    closed: bool
    game: Game
    """The game the table plays: the desk draws each game's own parts by it (every maker names it)."""
    hand_voided: bool = False
    """The hand shown (`hand_number`) was voided by a supervisor after it was settled."""
    open_requests: tuple[RequestView, ...] = ()
    """Requests to the floor waiting for a decision or approved and not yet carried out."""
    dealer: str = ""
    """The dealer on duty at this desk ("" when nobody has said)."""
    empty_seats: tuple[int, ...] = ()
    """Seats used this session that nobody holds now, by number: shown empty, still numbered."""
    part: TableViewPart | None = None
    """The game's own part of the table (OFC's button held for Fantasyland); None where the game
    shows nothing of its own."""

    def seat(self, name: str) -> SeatView:
        for view in self.seats:
            if view.name == name:
                return view
        raise KeyError(name)


@dataclass(frozen=True)
class SettlementPreview:
    """What Confirm will leave at a hand awaiting settlement (the service's `settlement_preview`):
    the settlement panel shows these figures, so the chips on screen are the chips on the felt."""

    stacks_after: tuple[tuple[str, int], ...]
    """Each seated player's stack after the settlement, the rake and a jackpot award."""
    rake: RakeView | None
    jackpot_pool: int
    """The table's jackpot pool after the hand's drop, as the status line and rake line say it."""
    jackpot: JackpotView | None
    """The room's pool before and after and the award, at a table whose preset pays one."""

    def stack_after(self, name: str, otherwise: int) -> int:
        """`name`'s stack after Confirm; `otherwise` for a name the table does not seat."""
        return dict(self.stacks_after).get(name, otherwise)


def preview_of(settled: TableSnapshot, jackpot: JackpotView | None) -> SettlementPreview:
    """The preview read from the snapshot of a settled copy of the table and the award its
    settlement paid."""
    stacks = tuple((seat.name, seat.stack) for seat in settled.seats)
    return SettlementPreview(stacks, settled.rake, settled.jackpot_pool, jackpot)
