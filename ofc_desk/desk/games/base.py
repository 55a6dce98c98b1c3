"""What the desk asks of a game's part (`DeskGame`): each game answers in its own module, and the
desk asks the part of the table's game instead of asking which game is played.

A part decides only what the desk shows and which service call it makes; the rules stay the core's
and the service's. A turn the desk's street entry does not take (a Chinese showdown) the part
enters itself (`DeskGame.entry_for`), with controls of its own in the card entry where it has some
(`DeskGame.entry_controls`). Nothing here imports Qt: the staging model reads a part too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum, auto
from typing import TYPE_CHECKING, NamedTuple, Protocol

from ofc_desk.core.presets import Game
from ofc_desk.core.rows import ROW_SIZE, ROWS, Row
from ofc_desk.desk.entry.key_syntax import KeyedPlacement, KeyedText
from ofc_desk.i18n import LazyText, _
from ofc_desk.reports.spoken import data_words

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog, QWidget

    from ofc_desk.core.jackpot import JackpotAward
    from ofc_desk.core.results import HandResult
    from ofc_desk.core.settlement import ProposedSettlement
    from ofc_desk.desk.records.columns import Column
    from ofc_desk.desk.table.seatface import SeatMarks
    from ofc_desk.desk.table.table_view import ServiceGetter, TableView
    from ofc_desk.service.front.table_service import TableService
    from ofc_desk.service.store.records import HandRecord
    from ofc_desk.service.table.games.base import PlayedTable
    from ofc_desk.service.terms.setup import TableRules
    from ofc_desk.service.terms.snapshot import RowView, SeatView, TableSnapshot, Turn


class EntryForm(NamedTuple):
    """How the card entry looks for a game: its confirm button, the row keys it leaves out, the
    hint in the empty line, and whether the game's own controls that only some of its tables play
    are shown."""

    confirm_caption: LazyText
    confirm_name: LazyText
    hidden_keys: tuple[str, ...]
    hint: LazyText
    """The whole hint, shown where the line has room for it."""
    hint_keys: str
    """The hint's keys alone, the same in every language: shown where the whole hint would be cut."""
    extra_controls: bool = False
    """The game's own controls that only some of its tables play are shown (`EntryControls.show_form`
    reads it: Chinese poker's Surrender button, at a table whose preset plays a surrender)."""


class EntryControls(Protocol):
    """A game's own controls in the card entry (Chinese poker's, for example), built once by its
    part (`DeskGame.entry_controls`) and laid out by the entry: shown at that game's tables only.
    They ask the turn's entry they follow, which their game made (`DeskGame.entry_for`) and they
    know by its own type: the generic entry passes it on without reading it."""

    @property
    def beside_confirm(self) -> Sequence[QWidget]:
        """The controls in the entry's row of buttons, before the confirm button."""
        ...

    @property
    def below_buttons(self) -> Sequence[QWidget]:
        """The controls under the row of buttons."""
        ...

    def show_form(self, form: EntryForm) -> None:
        """Shown at a table of the game, as its form says (`EntryForm.extra_controls`)."""
        ...

    def follow(self, entry: TurnEntry | None) -> None:
        """The turn's entry, made for each table drawn (each card staged too): what the controls ask
        and show what it offers for (None: the desk's street entry takes the turn, or no hand is
        being dealt)."""
        ...

    def hide(self) -> None:
        """Hidden: the table plays another game."""
        ...


class NoControls:
    """`EntryControls` of a game with none of its own: the entry's line and row buttons do."""

    beside_confirm: Sequence[QWidget] = ()
    below_buttons: Sequence[QWidget] = ()

    def show_form(self, form: EntryForm) -> None:
        """Nothing to show."""

    def follow(self, entry: TurnEntry | None) -> None:
        """Nothing asks it."""

    def hide(self) -> None:
        """Nothing to hide."""


def award_words(award: JackpotAward | None) -> list[str]:
    """A preset's jackpot award in the words of its `pays_line`, both games' ([] without one): which
    hands win it (at least these classes, front to back, losing every row) and its shares."""
    if award is None:
        return []
    front, middle, back = (data_words(least.key) for least in award.least)
    return [
        _(
            "jackpot award to {front}, {middle} and {back} or better losing every row:"
            " loser {loser}%, winner {winner}%, table {table}%"
        ).format(
            front=front, middle=middle, back=back, loser=award.loser, winner=award.winner, table=award.table
        )
    ]


THREE_ROWS: tuple[tuple[Row, int], ...] = tuple((row, ROW_SIZE[row]) for row in ROWS)
"""A seat's rows in both shipped games (`DeskGame.felt_rows`): front 3, middle 5, back 5."""


PROMPT_SEPARATOR = " · "
"""Between the parts of a prompt that says more than the cards to type (a showdown's keys)."""


class HelpLine(NamedTuple):
    """A line of the keyboard reference (`entry.keyboard_help`): the keys, and what they do."""

    keys: str | LazyText
    meaning: LazyText


class SetWords(NamedTuple):
    """F6's words in a game that sets a whole hand in its own dialog (`DeskGame.set_words`): its
    menu caption, with its mnemonic, and its line in the keyboard reference."""

    caption: LazyText
    help: LazyText


class RulesOption(NamedTuple):
    """A yes-or-no option of a table's rules that only some games offer (`DeskGame.rules_options`:
    OFC's "Progressive Fantasyland"): a check box of the rules form (the New table, a change of
    rules), shown whichever game is chosen and enabled where the chosen game offers it."""

    caption: LazyText
    is_on: Callable[[TableRules], bool]
    """Whether a table's rules have it on."""
    turned: Callable[[TableRules, bool], TableRules]
    """A table's rules with it on (True) or off: off at a game that does not offer it."""


class TakenBy(Enum):
    """How the desk takes a turn's cards (`DeskGame.taken_by`): the desk's flow, not the game's
    words for it."""

    LINE = auto()
    """The entry's line, for the player on turn (an OFC street, face-down cards revealed)."""
    ANY_SEAT = auto()
    """The entry's line, for any seat without a hand yet, picked by its number and a colon or a
    click (a Chinese showdown): the staged cards are drawn at that seat."""
    DIALOG = auto()
    """A whole hand set at once in its own dialog, opened by itself and by F6 (OFC's Fantasyland
    set): nothing of it is a draft of the line."""


class TableAsked(Protocol):
    """What a game's part reads of a table beside its snapshot: the table its game's own queries
    ask (`TableService.machine`: whether a Chinese table plays a surrender)."""

    @property
    def machine(self) -> PlayedTable: ...


class StagedCards(Protocol):
    """What a game's own entry reads of the cards staged at the desk: `entry.staging.Staging`,
    not named here because it reads the games' parts itself."""

    placements: list[KeyedPlacement]

    def player(self, snapshot: TableSnapshot | None, keyed: KeyedText | None = None) -> str | None:
        """Whose hand is being typed."""
        ...

    def addressed_refusal(
        self, keyed: KeyedText, snapshot: TableSnapshot | None, checks: TableService | None
    ) -> str:
        """Why the seat the line names cannot be typed for now ("" when it can, or none is named)."""
        ...

    def lists(self) -> tuple[list[str], list[str]]:
        """The staged cards and their rows, as the service takes them."""
        ...

    def drop(self) -> None:
        """Nothing staged any more."""
        ...

    def show(self, placements: list[KeyedPlacement]) -> None:
        """What a set's dialog holds, drawn dashed at the seat until it is entered."""
        ...


class TurnEntry(Protocol):
    """A turn a game's part enters itself rather than the desk's street entry (a Chinese showdown:
    each hand typed whole): Enter here; what else its game's own controls ask of it, they ask
    through its own type (`EntryControls.follow`)."""

    def confirm(self, keyed: KeyedText) -> None:
        """Enter, with the line as typed."""
        ...


class SetEntry(Protocol):
    """The entry of a whole hand set at once in its own dialog (`TakenBy.DIALOG`, F6): a game's
    own (OFC's Fantasyland set, `ofc_set_entry`), built once per desk (`DeskGame.set_entry`); the
    desk opens it by itself at the set's turn."""

    @property
    def dialog(self) -> QDialog | None:
        """The set's dialog while it is open."""
        ...

    def open(self) -> None:
        """The set's dialog at its turn; before it, why not yet, said at the table."""
        ...


class DeskGame(Protocol):
    """One game's part of the desk."""

    @property
    def game(self) -> Game: ...

    @property
    def choices(self) -> tuple[tuple[LazyText, str], ...]:
        """The New table's game choices this game gives: the caption the dealer reads (with
        {variant} for the variant's words) and the variant the rules name."""
        ...

    @property
    def default_preset(self) -> str:
        """The preset a table of this game starts with until the dealer picks another."""
        ...

    @property
    def rules_options(self) -> tuple[RulesOption, ...]:
        """The rules form's options this game offers (OFC's progressive Fantasyland); () where it
        offers none. The form shows every game's, enabled for the chosen game's."""
        ...

    @property
    def history_columns(self) -> Sequence[Column[HandRecord]]:
        """The hand history's columns of this game's own, read from a record's part
        (`HandRecord.part`: OFC's Fantasyland, `ofc.FANTASYLAND_COLUMN`); none in a game without.
        A column shows where a hand of a game that gives it does."""
        ...

    @property
    def counts_cards(self) -> bool:
        """Whether the status line counts the cards seen and left (streets dealt from one deck),
        or has nothing to count (a Chinese showdown is entered whole)."""
        ...

    @property
    def felt_rows(self) -> tuple[tuple[Row, int], ...]:
        """The rows a seat of this game shows on the felt, top first, and how many cards each holds
        (an empty seat's slots too): `THREE_ROWS` in both shipped games; a game dealing fewer rows
        names only those, and its seats are drawn that much shorter."""
        ...

    def proposed_settlement(self, preset: str) -> ProposedSettlement | None:
        """How a preset of this game proposes its tables settle (None: it says nothing)."""
        ...

    def pays_line(self, preset: str) -> str:
        """How a preset of this game pays, in one line for the New table ("pays pair by pair ·
        jackpot award: …"); "" for a name that is no preset file (the table's own preset)."""
        ...

    def entry_for(
        self, turn: Turn | None, staging: StagedCards, service: ServiceGetter, view: TableView
    ) -> TurnEntry | None:
        """The entry the part enters `turn` with, or None where the desk's street entry takes it."""
        ...

    def entry_form(self, service: TableService | None) -> EntryForm:
        """The card entry's form at this game's table (`service`: what the table plays)."""
        ...

    def entry_controls(self, parent: QWidget) -> EntryControls:
        """The game's own controls in the card entry `parent` (`NoControls` where it has none),
        asking the turn's entry they follow; built once per desk."""
        ...

    def prompt_keys(self, service: TableService | None) -> list[str]:
        """The words of the keys a turn takes besides the cards (a Chinese showdown's), for the
        entry's prompt."""
        ...

    def word_typed(self, keyed: KeyedText, player: str, table: TableAsked | None) -> str:
        """What Enter does with a word typed instead of cards for `player` (at a Chinese showdown,
        "Enter: Bo surrenders" where the `table` plays a surrender), or "" when the line is cards."""
        ...

    def taken_back_words(self, count: int) -> str:
        """What Esc says after taking back `count` staged cards: type the street (OFC) or the hand
        (Chinese poker) again."""
        ...

    def foul_word(self) -> str:
        """The seat's mark for a hand that loses every row (FOUL, MISSET)."""
        ...

    def seat_marks(self, snapshot: TableSnapshot, seat: SeatView) -> SeatMarks:
        """The game's own marks on `seat`, read from its part of the seat's view (`SeatView.part`):
        on the felt, to a screen reader and on the floor (OFC's Fantasyland, a Chinese surrender)."""
        ...

    def row_worth(self, row: RowView) -> str:
        """What `row` is worth, drawn beside its hand's name on the felt ("+6": OFC's royalty), or
        "" where it shows nothing."""
        ...

    def hand_progress(self, snapshot: TableSnapshot) -> str:
        """The floor's Hand column where the game says how far the hand is dealt ("#3 · street
        2"), or "" where the table's phase says it (`phase_words`)."""
        ...

    def button_words(self, snapshot: TableSnapshot, button: str) -> str:
        """The status line's words for the button ("button Ann"), with why it stayed where it is
        when the game held it (its part of the snapshot, `TableSnapshot.part`)."""
        ...

    def taken_by(self, turn: Turn) -> TakenBy:
        """How the desk takes the cards of `turn`, one of the game's turns (`Turn.kind`)."""
        ...

    def turn_status(self, snapshot: TableSnapshot, turn: Turn, hand: str) -> str:
        """The status line's words for `turn` of a hand being dealt, after the `hand`'s words
        ("Hand 3, street 2: Ann to act", "Hand 3, showdown: Ann's hand next")."""
        ...

    def turn_prompt(self, turn: Turn, keys: Sequence[str]) -> str:
        """The entry's prompt at `turn` (its player the seat picked, at a turn taken from any seat):
        what to type ("▶ Ann: take 3, place 2, discard 1"); `keys` the words of the keys the table
        takes besides the cards (`prompt_keys`)."""
        ...

    def turn_floor(self, turn: Turn) -> str:
        """The floor's To act column at `turn`: the player, and the turn where it is not plain
        ("Ann (Fantasyland set)")."""
        ...

    def sets_due(self, snapshot: TableSnapshot) -> tuple[str, ...]:
        """The players dealt this hand a whole hand to set at once in its own dialog (F6, OFC's
        Fantasyland set), in the seats' order; none in a game without."""
        ...

    def phase_words(self, snapshot: TableSnapshot) -> str:
        """The table's phase in the reader's words: its label, or the game's own words for a live
        hand's wait of its own (OFC's "waiting for Fantasyland sets", as the service says it)."""
        ...

    @property
    def set_words(self) -> SetWords | None:
        """F6's menu caption and keyboard reference line in a game whose `set_entry` is one (OFC's
        "&Fantasyland set…", "Fantasyland set dialog"); None in a game without. The first game's
        serve every table."""
        ...

    def card_keys(self, service: TableService | None) -> tuple[HelpLine, ...]:
        """The keyboard reference's lines of this game's own keys for the card just typed, after the
        rows' (OFC's discard and unknown card, in a variant that discards); every variant's with no
        table (`service` None); none in a game without."""
        ...

    def help_keys(self, service: TableService | None) -> tuple[HelpLine, ...]:
        """The keyboard reference's lines of this game's own keys, after the card entry's (Chinese
        poker's surrender, only at a table that plays one, and declare); every table's with no
        table (`service` None); none in a game without."""
        ...

    def help_examples(self, service: TableService | None) -> tuple[LazyText, ...]:
        """The keyboard reference's examples of typing this game's turns (OFC's streets, pineapple's
        only in a variant that discards, every variant's with no table; a Chinese showdown). With no
        table the first game's, in the New table's order, lead the examples (the entry's game before
        any table, `desk.games.first_game`); the others' follow the generic one on cards."""
        ...

    def set_entry(
        self, staging: StagedCards, service: ServiceGetter, view: TableView, parent: QWidget
    ) -> SetEntry | None:
        """The entry of the whole hands of `sets_due`, its dialog over `parent` (built once per desk,
        the first time the game's table asks); None in a game without."""
        ...

    def settlement_html(self, result: HandResult, table: TableAsked | None, foul_ink: str) -> str:
        """The settlement's details: the hands and the pairs (the transfers are drawn apart);
        `table`: the table the hand was scored at, for what its preset pays (None: not read)."""
        ...
