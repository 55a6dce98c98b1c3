"""The toy game's part of the desk (`desk.games.base.DeskGame`): each row typed whole, five cards
keyed to the back row (`as b ad b …`), then Enter."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ofc_desk.core.hands import strength
from ofc_desk.core.presets import Game
from ofc_desk.core.rows import Row
from ofc_desk.desk.entry.key_syntax import KeyedText
from ofc_desk.desk.games.base import (
    EntryForm,
    HelpLine,
    NoControls,
    RulesOption,
    SetWords,
    StagedCards,
    TableAsked,
    TakenBy,
)
from ofc_desk.desk.records.columns import Column
from ofc_desk.desk.table.seatface import NO_MARKS, SeatMarks
from ofc_desk.i18n import LazyText
from tests.toy_game.rules import ROW_CARDS, TOY, TOY_WORD, ToyShown, row_name
from tests.toy_game.table import ShowRow

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from ofc_desk.core.results import HandResult
    from ofc_desk.core.settlement import ProposedSettlement
    from ofc_desk.desk.table.table_view import ServiceGetter, TableView
    from ofc_desk.service.front.table_service import TableService
    from ofc_desk.service.store.records import HandRecord
    from ofc_desk.service.terms.snapshot import RowView, SeatView, TableSnapshot, Turn

ROW_FORM = EntryForm(
    confirm_caption=LazyText("Confirm row (Enter)"),
    confirm_name=LazyText("Confirm row"),
    hidden_keys=("f", "m", "x", "?"),  # one row, the back: no other row's button
    hint=LazyText("as b · kd b … 5 cards — Enter confirms"),
    hint_keys="as b · kd b …",
)


def _best_row_text(hand: HandRecord) -> str:
    rows = [seat.showdown.row for seat in hand.result.seats if isinstance(seat.showdown, ToyShown)]
    return row_name(max(rows, key=strength)) if rows else ""


BEST_ROW_COLUMN: Column[HandRecord] = Column(LazyText("Best row"), _best_row_text, _best_row_text)
"""The hand history's column of the toy's own (`DeskGame.history_columns`): the winning row's name."""


class RowEntry:
    """`TurnEntry` for a toy row: the staged cards, for the player whose row is being typed."""

    def __init__(self, staging: StagedCards, service: ServiceGetter, view: TableView) -> None:
        self.staging, self.service, self.view = staging, service, view

    def confirm(self, keyed: KeyedText) -> None:
        service, player = self.service(), self.staging.player(self.view.snapshot, keyed)
        if service is None or player is None or keyed.rest or not self.staging.placements:
            self.view.show_refusal("type a row of five cards")
            return
        cards = self.staging.lists()[0]
        self.view.enter(f"{player}: {' '.join(cards)}", lambda: service.do(ShowRow(player, cards)))


ROW_EXAMPLE = LazyText("A toy row: `as b ad b ac b 2d b 3d b` then Enter.")


class ToyDesk:
    """`DeskGame` for the toy game."""

    game: Game = TOY
    choices: tuple[tuple[LazyText, str], ...] = ((LazyText("Toy"), TOY_WORD),)
    default_preset = "toy"
    rules_options: tuple[RulesOption, ...] = ()
    history_columns = (BEST_ROW_COLUMN,)
    set_words: SetWords | None = None
    counts_cards = False
    felt_rows: tuple[tuple[Row, int], ...] = ((Row.BACK, ROW_CARDS),)
    """One row of five, keyed `b` (`table._rows` shows it as the back row)."""

    def card_keys(self, service: TableService | None) -> tuple[HelpLine, ...]:
        return ()

    def help_keys(self, service: TableService | None) -> tuple[HelpLine, ...]:
        return ()

    def help_examples(self, service: TableService | None) -> tuple[LazyText, ...]:
        return (ROW_EXAMPLE,)

    def proposed_settlement(self, preset: str) -> ProposedSettlement | None:
        return None

    def pays_line(self, preset: str) -> str:
        return "each other player pays the highest row a unit"

    def entry_for(
        self, turn: Turn | None, staging: StagedCards, service: ServiceGetter, view: TableView
    ) -> RowEntry:
        return RowEntry(staging, service, view)

    def entry_form(self, service: TableService | None) -> EntryForm:
        return ROW_FORM

    def entry_controls(self, parent: QWidget) -> NoControls:
        return NoControls()  # the line and the row buttons do

    def prompt_keys(self, service: TableService | None) -> list[str]:
        return []

    def word_typed(self, keyed: KeyedText, player: str, table: TableAsked | None) -> str:
        return ""

    def taken_back_words(self, count: int) -> str:
        return f"{count} cards taken back: type the row again"

    def foul_word(self) -> str:
        return ""

    def seat_marks(self, snapshot: TableSnapshot, seat: SeatView) -> SeatMarks:
        return NO_MARKS  # the toy's seats show nothing of their own

    def row_worth(self, row: RowView) -> str:
        return ""

    def hand_progress(self, snapshot: TableSnapshot) -> str:
        return ""

    def button_words(self, snapshot: TableSnapshot, button: str) -> str:
        return button

    def taken_by(self, turn: Turn) -> TakenBy:
        return TakenBy.ANY_SEAT  # the rows are typed in any order

    def turn_status(self, snapshot: TableSnapshot, turn: Turn, hand: str) -> str:
        return f"{hand}, rows: {turn.player}'s row next"

    def turn_prompt(self, turn: Turn, keys: Sequence[str]) -> str:
        return f"▶ {turn.player}: a row of {turn.take} cards"

    def turn_floor(self, turn: Turn) -> str:
        return f"{turn.player} (row)"

    def sets_due(self, snapshot: TableSnapshot) -> tuple[str, ...]:
        return ()

    def phase_words(self, snapshot: TableSnapshot) -> str:
        return str(snapshot.phase.label)

    def set_entry(
        self, staging: StagedCards, service: ServiceGetter, view: TableView, parent: QWidget
    ) -> None:
        return None

    def settlement_html(self, result: HandResult, table: TableAsked | None, foul_ink: str) -> str:
        return "".join(f"<p>{seat.name}: {seat.points:+d}</p>" for seat in result.seats)
