"""The game a table plays, as the machine asks it (issue 27: a game is a part).

`TableGame` is a game under the rules in force: its seats, rake and award, whether a hand can be
dealt and how, and its part of the snapshot. `LiveHand` is one hand of it being dealt: the entries
only it takes, what it waits for, the undo, its score and what settling it does to the seats and
the button. `TableMachine` holds one of each and never asks which game it is; a new game is a new
package beside `ofc` and `chinese`, named once in `choose`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol, TypeVar

from ofc_desk.core.cards import UNKNOWN_TOKEN
from ofc_desk.core.jackpot import JackpotAward, PairRows
from ofc_desk.core.presets import Game, RakeRules
from ofc_desk.core.results import HandResult
from ofc_desk.core.rows import placement_label
from ofc_desk.i18n import LazyText, _
from ofc_desk.service.table.carry import NOTHING_CARRIED, CarryOver
from ofc_desk.service.table.seats import Seat
from ofc_desk.service.table.view_parts import GameView
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.outcome import ScoredResult
from ofc_desk.service.terms.payloads import EventPayload, RawPayload, Undone
from ofc_desk.service.terms.setup import TableRules
from ofc_desk.service.terms.snapshot import Phase

if TYPE_CHECKING:
    from ofc_desk.service.room.room_pool import JackpotScored


class SettledPlayer(Protocol):
    """A player's line in any game's settled result, as paying out reads it."""

    @property
    def name(self) -> str: ...
    @property
    def stack_before(self) -> int: ...
    @property
    def stack_after(self) -> int: ...


class SettledResult(ScoredResult, Protocol):
    """A scored hand as settling it reads it: each player's stacks before and after."""

    @property
    def players(self) -> Sequence[SettledPlayer]: ...


DealT_contra = TypeVar("DealT_contra", contravariant=True)


class HandScorer(Protocol[DealT_contra]):
    """How `verify` has a finished hand scored beside its fold (`rescoring.ScoresBeside`): from the
    hand's game, its number and its deal, the game core's typed one. Without one, every hand is
    scored by the core. Only a game with a `GameRescoring` (`choose.RESCORING`) calls it."""

    def __call__(self, game: Game, number: int, deal: DealT_contra) -> SettledResult: ...


class GameRescoring(Protocol[DealT_contra]):
    """A game's part of `verify`'s re-scoring beside the fold (`audit.rescoring`, issue 37): what
    the generic re-scoring asks of a game's typed deal and stored result, never naming the game.
    The stored result's transfers are read in every game's form (`core.results.read_transfers`):
    a result that spells them otherwise is not gone on with, and each hand is scored in the fold."""

    def stored_player(self, line: Any) -> SettledPlayer:
        """A player's line of a stored result as settling reads it; `KeyError`, `TypeError` or
        `ValueError` when it cannot be one."""
        ...

    def rules_of(self, deal: DealT_contra) -> tuple[object, ...]:
        """What `rules_json` reads of a deal: the rules are written out again only when it changes."""
        ...

    def rules_json(self, deal: DealT_contra) -> dict[str, object]:
        """The keys of a deal its table's rules give, as `ofc-desk score` reads them."""
        ...

    def hands_json(self, deal: DealT_contra) -> dict[str, object]:
        """The keys of a deal the hand itself gives, as `ofc-desk score` reads them."""
        ...

    def players(self, deal: DealT_contra) -> list[str]:
        """Who the deal seats, in its order (a stored result of others is not used)."""
        ...

    def score(self, deal: DealT_contra) -> SettledResult:
        """A hand with no stored result to go on with, scored by the game's core there and then."""
        ...

    def score_json(self, data: Mapping[str, object]) -> SettledResult:
        """A deal as `rules_json` and `hands_json` wrote it, scored by the game's core;
        `DealInputError` when the core refuses it."""
        ...


@dataclass(frozen=True)
class HandDeal:
    """What the table deals a new hand with: its number, who deals, who plays (left of the dealer
    first), their stacks, and what the game carried over from the hand before (`carry`: OFC's
    Fantasyland hands owed; nothing in a game without)."""

    number: int
    button: str
    order: tuple[str, ...]
    stacks: dict[str, int]
    carried: CarryOver = NOTHING_CARRIED


@dataclass(frozen=True)
class JackpotDeal:
    """A scored hand as the room's jackpot award reads it: the pairs of rows it compares, the
    result the award is written into, and who was dealt in."""

    pairs: Sequence[PairRows]
    scored: JackpotScored
    dealt_in: list[str]


class GameTable(Protocol):
    """What a game reads and changes of its table (`TableMachine` is one), so it never imports the
    machine: the seats, the button, and what the game carries to the next hand (`carry`), which
    settling a hand replaces."""

    seats: list[Seat]
    button: str | None
    button_held: bool
    carried: CarryOver
    hand_settled: bool

    def seat(self, name: str) -> Seat: ...
    def next_clockwise(self, name: str) -> str: ...


class CheckedEntry(NamedTuple):
    """An entry of a hand its live hand accepted (`LiveHand.check_event`): the canonical payload
    (what is stored, and what `verify` compares with what was) and the entry applied to that hand
    as the check read it. The apply is the check's own, bound to its game's payload: the payload
    is never narrowed back from `EventPayload` (nor, for a street, read a second time). (A named
    tuple, as `CheckedAction`: one is made for every entry `verify` reads.)"""

    payload: EventPayload
    apply: Callable[[], None]


class LiveHand(Protocol):
    """One hand of a game being dealt, from its start until the next one starts."""

    @property
    def number(self) -> int: ...
    @property
    def button(self) -> str: ...
    @property
    def stacks_before(self) -> dict[str, int]: ...
    @property
    def owed(self) -> dict[str, int]:
        """What the hand was dealt owing each player owed something (`CarryOver.owed`: OFC's
        Fantasyland cards), as its settled hand records it."""
        ...

    @property
    def complete(self) -> bool: ...
    @property
    def phase(self) -> Phase:
        """Where the unsettled hand is: live or to be settled."""
        ...

    @property
    def phase_words(self) -> LazyText:
        """The hand's phase in the reader's words: its label, or the game's own words for a wait
        of its own (OFC's "waiting for Fantasyland sets")."""
        ...

    def waiting(self) -> str:
        """What the hand waits for before it can be settled: "Ann: take 3"."""
        ...

    def check_event(self, kind: EventKind, raw: RawPayload) -> CheckedEntry:
        """An entry of this hand checked: its canonical payload and its apply (a kind its game does
        not play is refused; the machine refuses it first, `TableGame.entry_kinds`)."""
        ...

    def check_typing(self, kind: EventKind, player: str, cards: object, rows: object) -> None:
        """Refuse an entry being typed as soon as what is typed so far breaks a rule."""
        ...

    def last_entry(self) -> Undone:
        """What an undo would take back, or `ActionRefused` when nothing is left."""
        ...

    def take_back(self) -> None: ...

    def score(
        self, rules: TableRules, seats: Sequence[Seat], scorer: HandScorer[Any] | None
    ) -> SettledResult:
        """The complete hand scored by the core (or, at an OFC table without an award, by
        `verify`'s `scorer`, which goes on with the stored result). The scorer takes the deal of
        the hand's game: the machine holding it never reads which."""
        ...

    def dealt_in(self, seats: Sequence[Seat]) -> list[str]:
        """The players the hand's chips move between, in the order its ledger lists them."""
        ...

    def after_settling(self, table: GameTable, result: SettledResult) -> None:
        """What settling does besides the chips: the table's carry-over replaced (OFC: Fantasyland
        carried on), the button held or moved."""
        ...

    def jackpot_deal(self, result: SettledResult, seats: Sequence[Seat]) -> JackpotDeal: ...


class TableGame(Protocol):
    """A game played under the rules in force (made anew when the rules change)."""

    @property
    def game(self) -> Game: ...
    @property
    def label(self) -> LazyText:
        """The game's word in the seats' sentences: the OFC variant, or "Chinese poker"."""
        ...

    @property
    def seat_limits(self) -> tuple[int, int]:
        """How many players it seats, at least and at most."""
        ...

    @property
    def rake(self) -> RakeRules: ...
    @property
    def jackpot_award(self) -> JackpotAward | None: ...
    @property
    def entry(self) -> EventKind:
        """The game's usual entry (a street, a showdown): how an undo is refused between hands."""
        ...

    @property
    def entry_kinds(self) -> frozenset[EventKind]:
        """The events its hands take (a street and a set revealed, a showdown): an entry of any
        other kind is refused before a live hand sees it, in its own game's words
        (`choose.entry_refused`)."""
        ...

    def nothing_to_settle(self) -> ActionRefused:
        """The refusal of a settlement between hands."""
        ...

    def check_deal(self, playing: Sequence[Seat], carried: CarryOver) -> None:
        """Refuse a hand these seats cannot be dealt with what the hand before carried over (OFC:
        more cards than the deck holds)."""
        ...

    def start(self, deal: HandDeal) -> LiveHand: ...

    def entry_kind(self, live: LiveHand | None, raw: RawPayload) -> EventKind:
        """The event a scripted entry makes in this game (a street, a Fantasyland set, a showdown)."""
        ...

    @property
    def action_keys(self) -> tuple[str, ...]:
        """The keys a replay script's entry of this game carries, each of them (OFC's and Chinese
        poker's: `ROW_ENTRY_KEYS`); an entry only one game has says its own keys besides
        (`choose.OWN_ENTRY_KEYS`)."""
        ...

    def view(self, table: GameTable, live: LiveHand | None) -> GameView:
        """The game's part of the table's snapshot."""
        ...

    def shown_result(self, result: HandResult) -> HandResult:
        """A scored hand's result as the table shows it: a Chinese row bonus marked paid or not
        under this table's preset (`core.chinese.bonus_paid`); OFC's as scored."""
        ...


ROW_ENTRY_KEYS: Final = ("player", "cards", "rows")
"""A script's entry of cards set in rows: a street or a Fantasyland set (OFC), a hand set in its
rows (Chinese poker)."""


def no_hand_being_dealt() -> ActionRefused:
    """An entry's refusal where no hand takes it, unless its game says it in words of its own
    (`choose.entry_refused`): between hands, or at a table of a game that plays no such entry."""
    return ActionRefused(_("no hand is being dealt: start the next hand"))


def by_row(cards: Sequence[str | None], rows: Sequence[str] | None) -> str:
    """A whole hand at once, its `cards` in their `rows`: "front Ah Ad 3c · middle … · back … ·
    discard 9c" (an OFC Fantasyland set, a Chinese showdown); no rows, nothing said."""
    said: dict[str, list[str]] = {}
    for card, row in zip(cards, rows or (), strict=False):
        said.setdefault(str(placement_label(str(row))), []).append(card or UNKNOWN_TOKEN)
    return " · ".join(f"{row} {' '.join(in_row)}" for row, in_row in said.items())


class PlayedTable(Protocol):
    """A table as a game's own queries read it (`TableMachine` is one, `TableService.machine` gives
    it): the game, the hand being dealt and whether it is scored. What only one game asks (which
    specials a Chinese hand makes) is that game's function of it, in its own package."""

    @property
    def game(self) -> TableGame: ...
    @property
    def live(self) -> LiveHand | None: ...
    @property
    def hand_settled(self) -> bool: ...
