"""Everything a session report needs, as plain frozen data read from the stored events.

The renderers (PDF, CSV, JSON) only ever see these records, never the live table or the screen, so
a report printed a year later says exactly what the audit log says. `load_session_record` in
`ofc_desk.reports.loader` builds a `SessionRecord` from a database; tests build them by hand.

Chips are `int` everywhere. A signed amount is seen from the player's stack: positive means chips
went into it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from ofc_desk.service.room.room_pool import MoveKind
from ofc_desk.service.table.dealers import DealerShift
from ofc_desk.service.terms.events import ChipKind as ChipKind
from ofc_desk.service.terms.events import ChipTotal as ChipTotal
from ofc_desk.service.terms.events import SeatMove as SeatMove
from ofc_desk.service.terms.setup import PairUnit


class AdjustmentKind(StrEnum):
    """Entries a floor supervisor reads before signing: anything that changed the record."""

    VOID = "void"
    CORRECTION = "chip correction"
    UNDO = "undo"
    RULES_CHANGE = "rules change"
    REQUEST = "floor request"
    """Asked of the floor by the dealer, or decided by a supervisor there."""
    HAND_CORRECTION = "hand correction"
    """A settled hand corrected by a supervisor, re-scored and re-settled (docs/rules.md §12)."""


@dataclass(frozen=True)
class RuleSetting:
    """One number or flag of the preset in force, as the report prints it."""

    label: str
    value: str


@dataclass(frozen=True)
class RowRecord:
    """One of a player's three rows at the end of a hand."""

    cards: tuple[str, ...]
    hand: str
    points: int
    """What the row scored on its own and paid, as the core's result names it (`ResultRow.points`):
    OFC's royalty, a Chinese poker row bonus."""
    unpaid: int = 0
    """Points the row held that moved no chips (a Chinese preset that pays on a row won, or on the
    whole deal): the game's note on the hand names it and says why."""


@dataclass(frozen=True)
class SeatPart:
    """A game's own part of a player's line in a hand, beside what every game's line holds (as
    `core.results.SeatPart` is of a result's): subclassed in the game's part of the reports
    (`ReportGame.seat_part`: OFC's Fantasyland, a Chinese showdown) and matched only there (issue
    37: this module names no game's concept)."""


@dataclass(frozen=True)
class SeatResult:
    """One player's part in one hand."""

    name: str
    front: RowRecord
    middle: RowRecord
    back: RowRecord
    foul: bool
    row_points: int
    """The rows' own points paid (`RowRecord.points`): OFC's royalties, Chinese poker's row bonuses."""
    points: int
    stack_before: int
    stack_after: int
    rake: int = 0
    part: SeatPart | None = None
    """The game's own part of the line (OFC's Fantasyland, `games.ofc.OfcSeat`; a Chinese poker
    surrender, declared special or misset's reason, `games.chinese.ChineseSeat`); None where the
    game's record adds nothing."""

    @property
    def chips_moved(self) -> int:
        """Chips won (+) or lost (-) at the table in this hand, after rake."""
        return self.stack_after - self.stack_before

    @property
    def rows(self) -> tuple[RowRecord, RowRecord, RowRecord]:
        return (self.front, self.middle, self.back)


@dataclass(frozen=True)
class MatchupPart:
    """A game's own part of a pair's line in a hand (a Chinese poker special pass): subclassed in
    the game's part of the reports (`ReportGame.matchup`) and matched only there."""


@dataclass(frozen=True)
class MatchupRecord:
    """The points between two players, from the first named player's side."""

    players: tuple[str, str]
    points: int
    """Everything the pair settled, every part of it (`ReportGame.matchup`)."""
    unit: int = 1
    """Chips a point between these two: the table's unit, or the pair's own."""
    part: MatchupPart | None = None
    """The game's own part of the pair's line (`games.chinese.ChinesePair`); None where the game's
    record adds nothing."""


@dataclass(frozen=True)
class TransferPart:
    """A game's own part of a payment (what a Chinese poker payment is for, and its pass):
    subclassed in the game's part of the reports (`ReportGame.transfer`) and matched only there."""


@dataclass(frozen=True)
class TransferRecord:
    """One settlement payment, in settlement order (docs/rules.md §8)."""

    payer: str
    payee: str
    owed: int
    paid: int
    reason: str
    part: TransferPart | None = None
    """The game's own part of the payment (`games.chinese.ChinesePayment`); None where the game's
    record adds nothing."""

    @property
    def capped(self) -> bool:
        return self.paid < self.owed


@dataclass(frozen=True)
class JackpotAward:
    """A hand's jackpot award out of the room's pool (docs/rules.md §11)."""

    loser: str
    winner: str
    chips: tuple[tuple[str, int], ...]
    """Every player dealt in with the chips the award gave them, in seat order."""
    shares: tuple[int, int, int] | None = None
    """The loser's, the winner's and the table's percent of the pool, as the rules in force gave
    them (None when the report cannot read those rules)."""

    @property
    def total(self) -> int:
        return sum(chips for _name, chips in self.chips)


@dataclass(frozen=True)
class HandJackpot:
    """The room's pool as the table saw it around a hand: before the hand (and its drop), after
    its drop and its award."""

    pool_before: int
    pool_after: int
    award: JackpotAward | None = None


@dataclass(frozen=True)
class PoolMove:
    """A change of the room's jackpot pool this session made, in the order of its events."""

    seq: int
    at: datetime | None
    kind: MoveKind
    """A void gives the hand's award back and takes its drop out."""
    chips: int
    """Signed, from the pool's side: an award is negative."""
    hand_number: int | None
    pool_after: int
    """The room's pool once it was made (every table's changes before it included)."""
    by: str = ""
    """Who signed a seed."""


@dataclass(frozen=True)
class HandRecord:
    """A settled hand as stored."""

    number: int
    button: str
    seats: tuple[SeatResult, ...]
    transfers: tuple[TransferRecord, ...]
    matchups: tuple[MatchupRecord, ...] = ()
    started_at: datetime | None = None
    settled_at: datetime | None = None
    rake: int = 0
    jackpot_drop: int = 0
    voided: bool = False
    stacks_after: tuple[tuple[str, int], ...] = ()
    """Every seated player's stack once the hand was settled (or voided), in seat order."""
    dealers: tuple[str, ...] = ()
    """The dealers on duty while it was dealt, in order (two when one took over mid-hand)."""
    jackpot: HandJackpot | None = None
    """The room's pool around the hand, where it dropped into it or its table pays an award."""
    whole_deal: bool = False
    """A Chinese hand paid on the whole deal (`pool`, `single-winner`), where no row bonus is paid."""

    @property
    def award(self) -> JackpotAward | None:
        """The room's pool's award the hand paid, if it paid one."""
        return self.jackpot.award if self.jackpot is not None else None

    @property
    def jackpot_award(self) -> int:
        """The chips the hand's award paid out of the room's pool onto the stacks."""
        return self.award.total if self.award is not None else 0


@dataclass(frozen=True)
class HandCorrection:
    """A settled hand corrected by a supervisor (docs/rules.md §12): the hand as recorded (or as
    last corrected) and as corrected, each player's difference, what was paid now and what is
    not covered (for the floor to settle off the table)."""

    seq: int
    at: datetime | None
    hand_number: int
    supervisor: str
    reason: str
    recorded: tuple[SeatResult, ...]
    corrected: tuple[SeatResult, ...]
    difference: Mapping[str, int]
    paid: Mapping[str, int]
    not_covered: Mapping[str, int]
    stacks_after: Mapping[str, int]
    description: str
    """The correction in the audit log's words (Fantasyland it would have changed among them)."""


@dataclass(frozen=True)
class ChipTransaction:
    """Chips that came onto or left the table between hands, in the order they happened."""

    seq: int
    at: datetime | None
    kind: ChipKind
    player: str
    amount: int
    """Signed, from the player's stack: a cash-out is negative."""
    after_hand: int
    """The last hand settled before this transaction (0 = before the first hand)."""
    actor: str = ""
    approver: str = ""
    note: str = ""


@dataclass(frozen=True)
class Adjustment:
    """A void, chip correction, undo or rules change, with who did and who approved it."""

    seq: int
    at: datetime | None
    kind: AdjustmentKind
    hand_number: int | None
    description: str
    actor: str = ""
    approver: str = ""
    after_hand: int = 0
    """Hands settled before it: it came between hand `after_hand` and the next one dealt."""
    reentered: str = ""
    """For an undo: the entry the player made in place of the one taken back ('' if none was)."""
    settings: tuple[RuleSetting, ...] = ()
    """For a rules change: every new setting as the rules page says them (the sentence names only
    the game, preset, unit and settlement, and the supervisor signs for all of them)."""


@dataclass(frozen=True)
class SummaryPart:
    """A game's own counts of a player's session (OFC's Fantasyland hands, Chinese poker's
    surrenders and specials): subclassed in the game's part of the reports, filled by its
    `ReportGame.summary` and read only there (`ReportGame.player_figures`)."""


@dataclass(frozen=True)
class PlayerSummary:
    """A player's whole session."""

    name: str
    chips_by_kind: Mapping[ChipKind, int]
    """The chips each kind of transaction moved onto (+) or off (-) the player's stack."""
    final_stack: int
    hands_played: int
    fouls: int
    row_points: int = 0
    """The rows' own points of the hands that stood (`SeatResult.row_points`)."""
    part: SummaryPart | None = None
    """The game's own counts (`ReportGame.summary`); None where the game counts nothing more."""

    def chip_total(self, total: ChipTotal) -> int:
        """One of the reports' totals of the player's chip transactions (`chip_total`)."""
        return chip_total(self.chips_by_kind, total)

    @property
    def net(self) -> int:
        """Won (+) or lost (-) at the table: what they leave with less what they brought.

        Every chip transaction is taken out: buy-ins and rebuys were brought, cash-outs are left
        with, and supervisor corrections fix a miscount, which is no winning; a corrected hand's
        difference was won or lost at play and stays in.
        """
        moved = self.chips_by_kind.items()
        brought = (chips for kind, chips in moved if not kind.said.total.said.won_in_play)
        return self.final_stack - sum(brought)


def chips_by_kind(transactions: Iterable[ChipTransaction]) -> dict[ChipKind, int]:
    """The signed chips each kind of transaction moved, in the order the kinds first came."""
    moved: dict[ChipKind, int] = {}
    for t in transactions:
        moved[t.kind] = moved.get(t.kind, 0) + t.amount
    return moved


def pool_totals(moves: Iterable[PoolMove]) -> dict[MoveKind, int]:
    """The signed chips each kind of pool change moved, from the pool's side (awards negative);
    every kind present, 0 if none came."""
    totals = dict.fromkeys(MoveKind, 0)
    for move in moves:
        totals[move.kind] += move.chips
    return totals


def chip_total(by_kind: Mapping[ChipKind, int], total: ChipTotal) -> int:
    """The chips of every kind that adds to `total` (`ChipKind.said`), as the reports print it:
    chips taken off the stacks (cash-outs) as a positive amount."""
    return total.said.sign * sum(chips for kind, chips in by_kind.items() if kind.said.total is total)


@dataclass(frozen=True)
class SessionRecord:
    """A whole table session, from the stored events."""

    table: str
    session_id: int
    started_at: datetime | None
    ended_at: datetime | None
    preset_name: str
    variant: str
    unit: int
    settlement_policy: str
    settle_from: str
    players: tuple[PlayerSummary, ...]
    hands: tuple[HandRecord, ...]
    final_hash: str
    room: str = ""
    room_head: str = ""
    """The newest event of the whole database when the report was read (`room_chain.RoomHead`)."""
    dealers: tuple[str, ...] = ()
    dealer_hands: tuple[DealerShift, ...] = ()
    """Each dealer with the hands they dealt (any part of), in the order they took the table."""
    supervisors: tuple[str, ...] = ()
    rules: tuple[RuleSetting, ...] = ()
    pair_units: tuple[PairUnit, ...] = ()
    opening_button: str = ""
    chip_transactions: tuple[ChipTransaction, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()
    event_count: int = 0
    replay_script: dict[str, object] | None = field(default=None, compare=False)
    """The session in `ofc-desk replay` script form, when the loader could rebuild it."""
    live_hand: int | None = None
    """A hand dealt and not yet settled (being played, or awaiting the dealer's confirmation)."""
    pool_moves: tuple[PoolMove, ...] = ()
    """The session's drops, seeds, awards and voids of the room's jackpot pool."""
    hand_corrections: tuple[HandCorrection, ...] = ()
    """Each settled hand a supervisor corrected, in the order corrected (docs/rules.md §12)."""
    set_aside: tuple[str, ...] = ()
    """Stored rows the verification set aside (a signature that does not hold, a row no event
    gives): nothing printed comes from them; the command line names them."""

    @property
    def counted_hands(self) -> tuple[HandRecord, ...]:
        """Hands that stand (voided hands are listed but moved no chips in the end)."""
        return tuple(h for h in self.hands if not h.voided)

    @property
    def rake_total(self) -> int:
        return sum(h.rake for h in self.counted_hands)

    @property
    def jackpot_total(self) -> int:
        return sum(h.jackpot_drop for h in self.counted_hands)

    @property
    def jackpot_awards(self) -> int:
        """Chips the room's pool paid onto this table's stacks (voided hands gave theirs back)."""
        return sum(h.jackpot_award for h in self.counted_hands)

    def chip_total(self, total: ChipTotal) -> int:
        """One of the reports' totals of the session's chip transactions (`chip_total`)."""
        return chip_total(chips_by_kind(self.chip_transactions), total)

    @property
    def final_stacks_total(self) -> int:
        return sum(p.final_stack for p in self.players)

    def stack_series(self) -> tuple[tuple[str, tuple[tuple[int, int], ...]], ...]:
        """Each player's stack after every hand: (name, ((hand number, stack), ...)).

        Point 0 is the opening buy-in; a player who joins later starts from their buy-in at the
        hand they joined after, and a player who cashed out stays out of the later points.
        """
        joined: dict[tuple[str, int], int] = {}
        for t in self.chip_transactions:
            if t.kind.said.seat is SeatMove.TAKES:
                joined[t.player, t.after_hand] = joined.get((t.player, t.after_hand), 0) + t.amount
        # At one hand, the stack after it before a buy-in made after it (a player who left and
        # came back): (hand, 0) sorts before (hand, 1).
        points: dict[str, list[tuple[int, int, int]]] = {p.name: [] for p in self.players}
        for (name, after_hand), chips in joined.items():
            points.setdefault(name, []).append((after_hand, 1, chips))
        for hand in self.hands:
            for name, stack in hand.stacks_after:
                points.setdefault(name, []).append((hand.number, 0, stack))
        order = {0: 0} | {hand.number: index for index, hand in enumerate(self.hands, start=1)}
        return tuple(
            (
                name,
                tuple(
                    (hand, chips)
                    for hand, _kind, chips in sorted(dots, key=lambda d: (order.get(d[0], 0), d[1]))
                ),
            )
            for name, dots in points.items()
        )
