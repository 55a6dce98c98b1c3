"""Closed Chinese poker's part of the desk: each hand typed whole at showdown (no discards, no
unknown cards), `s` then Enter or the Surrender button for a surrender where the table plays one, a
misset rather than a foul, the preset's proposed settlement in the New table, and the Chinese
settlement (how the deal pays, each showdown, the pairs). The showdown's entry itself is
`chinese_showdown`'s, made for each showdown's turn (`entry_for`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ofc_desk.core.chinese.deal import CHINESE
from ofc_desk.core.chinese.deal_input import DEFAULT_PRESET
from ofc_desk.core.chinese.house_words import house_variant_line
from ofc_desk.core.chinese.payment import Payment
from ofc_desk.core.chinese.presets import load_chinese_preset
from ofc_desk.core.chinese.schemes import payment_outcome
from ofc_desk.core.presets import Game, PresetError
from ofc_desk.desk.entry.key_syntax import KeyedText
from ofc_desk.desk.games.base import (
    PROMPT_SEPARATOR,
    THREE_ROWS,
    EntryForm,
    HelpLine,
    RulesOption,
    SetWords,
    StagedCards,
    TableAsked,
    TakenBy,
    award_words,
)
from ofc_desk.desk.games.chinese_settlement import chinese_details_html, payment_html
from ofc_desk.desk.games.chinese_showdown import ShowdownEntry, asks_surrender
from ofc_desk.desk.records.columns import Column
from ofc_desk.desk.table.seatface import NO_MARKS, SeatMark, SeatMarks
from ofc_desk.i18n import LazyText, _, lazy_gettext, ngettext
from ofc_desk.service.store.records import HandRecord
from ofc_desk.service.table.games.chinese.game import payment_rules, plays_surrender
from ofc_desk.service.table.games.chinese.view_parts import ChineseSeatView, ChineseTurn
from ofc_desk.service.terms.snapshot import RowView, SeatView, TableSnapshot, Turn

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from ofc_desk.core.results import HandResult
    from ofc_desk.core.settlement import ProposedSettlement
    from ofc_desk.desk.games.chinese_controls import ChineseControls
    from ofc_desk.desk.table.table_view import ServiceGetter, TableView
    from ofc_desk.service.front.table_service import TableService

SHOWDOWN_FORM = EntryForm(
    confirm_caption=lazy_gettext("Confirm hand (Enter)"),
    confirm_name=lazy_gettext("Confirm hand"),
    hidden_keys=("x", "?"),
    # Whole beside the picker at 1366 px; the prompt above says that s surrenders.
    hint=lazy_gettext("qh f · 10d m · 7c b … 13 cards — Enter confirms"),
    hint_keys="qh f · 10d m · 7c b …",
)
# TRANSLATORS: at a Chinese poker showdown, the key s (then Enter) gives up the hand.
SURRENDER_WORDS = lazy_gettext("s surrenders")
"""The prompt's word for the surrender key, at a table that plays a surrender."""
SURRENDER_KEY = HelpLine(
    lazy_gettext("s  then Enter"),
    lazy_gettext("Chinese poker: the player whose hand is being entered surrenders (or `3: s` for seat 3)"),
)
DECLARE_KEY = HelpLine(
    "Alt+1, Alt+2 …",
    lazy_gettext("Chinese poker: declare the special offered on that button for the 13 cards typed"),
)
SHOWDOWN_EXAMPLE = lazy_gettext(
    "Chinese poker, a whole hand at showdown: `6s f 6h f 6d f 4s m …` (13 cards) then Enter;"
    " click a seat (or type `3:`) to enter its hand out of turn."
)


def _plays_surrender(service: TableService | None) -> bool:
    """A `pool` or `single-winner` table plays none: the service says."""
    return service is not None and plays_surrender(service.machine)


class ChineseDesk:
    """`DeskGame` for closed Chinese poker."""

    game = Game.CHINESE
    choices: tuple[tuple[LazyText, str], ...] = ((lazy_gettext("Chinese poker"), CHINESE),)
    default_preset = DEFAULT_PRESET
    rules_options: tuple[RulesOption, ...] = ()
    history_columns: tuple[Column[HandRecord], ...] = ()
    set_words: SetWords | None = None
    counts_cards = False
    felt_rows = THREE_ROWS

    def card_keys(self, service: TableService | None) -> tuple[HelpLine, ...]:
        return ()  # a card is sent to a row, never discarded

    def help_keys(self, service: TableService | None) -> tuple[HelpLine, ...]:
        if service is None or _plays_surrender(service):
            return (SURRENDER_KEY, DECLARE_KEY)
        return (DECLARE_KEY,)

    def help_examples(self, service: TableService | None) -> tuple[LazyText, ...]:
        return (SHOWDOWN_EXAMPLE,)

    def proposed_settlement(self, preset: str) -> ProposedSettlement | None:
        """A Chinese preset may name how its tables usually settle (Hawaiian Gardens: chip
        exposure from the dealer)."""
        try:
            return load_chinese_preset(preset).proposed_settlement
        except PresetError:
            return None  # not a preset file (the table's own): nothing to propose

    def pays_line(self, preset: str) -> str:
        """ "pool: each row's winner collects 1 unit from each other player; all three rows, 3
        more", then the house variants it plays (§13: "A-2-3-4-5 second-highest · strict six
        pairs"), then the jackpot award, if the preset has one."""
        try:
            loaded = load_chinese_preset(preset)
        except PresetError:
            return ""
        rules = loaded.payment
        if rules.payment is Payment.POOL:
            pays = _("pool: {terms}").format(terms=rules.pool_terms())
        elif rules.payment is Payment.SINGLE_WINNER:
            pays = ngettext(
                "single winner: who beats everyone on two rows collects {units} unit from each other player",
                "single winner: who beats everyone on two rows collects {units} units from each other player",
                rules.stake,
            ).format(units=rules.stake)
        else:
            pays = _("pays pair by pair")
        return " · ".join([pays, *house_variant_line(loaded.house), *award_words(loaded.jackpot_award)])

    def entry_for(
        self, turn: Turn | None, staging: StagedCards, service: ServiceGetter, view: TableView
    ) -> ShowdownEntry | None:
        """A showdown's turn: each hand typed whole, `s`, a seat picked out of turn, a special."""
        if turn is None or turn.kind is not ChineseTurn.SHOWDOWN:
            return None
        return ShowdownEntry(staging, service, view)

    def entry_form(self, service: TableService | None) -> EntryForm:
        return SHOWDOWN_FORM._replace(extra_controls=_plays_surrender(service))

    def entry_controls(self, parent: QWidget) -> ChineseControls:
        """The Surrender button and the bar of specials, the one part of the desk's games built
        with Qt (imported here: the staging model reads this part without it)."""
        from ofc_desk.desk.games.chinese_controls import ChineseControls

        return ChineseControls(parent)

    def prompt_keys(self, service: TableService | None) -> list[str]:
        return [str(SURRENDER_WORDS)] if _plays_surrender(service) else []

    def word_typed(self, keyed: KeyedText, player: str, table: TableAsked | None) -> str:
        if asks_surrender(keyed) and table is not None and plays_surrender(table.machine):
            return _("Enter: {player} surrenders").format(player=player)
        return ""

    def taken_back_words(self, count: int) -> str:
        return ngettext(
            "{count} card taken back, none of them recorded: type the hand again",
            "{count} cards taken back, none of them recorded: type the hand again",
            count,
        ).format(count=count)

    def foul_word(self) -> str:
        return _("MISSET")

    def seat_marks(self, snapshot: TableSnapshot, seat: SeatView) -> SeatMarks:
        """A surrender or a declared special, after the seat's misset."""
        words = ChineseSeatView.of(seat).showdown
        return SeatMarks(shown=SeatMark(words.upper(), words)) if words else NO_MARKS

    def row_worth(self, row: RowView) -> str:
        return ""  # a row's worth is its pairs', in the settlement

    def hand_progress(self, snapshot: TableSnapshot) -> str:
        return ""  # one showdown: the phase says it

    def button_words(self, snapshot: TableSnapshot, button: str) -> str:
        return button  # the button moves after every hand

    def taken_by(self, turn: Turn) -> TakenBy:
        return TakenBy.ANY_SEAT  # a showdown takes the hands in any order

    def turn_status(self, snapshot: TableSnapshot, turn: Turn, hand: str) -> str:
        return _("{hand}, showdown: {player}'s hand next").format(hand=hand, player=turn.player)

    def turn_prompt(self, turn: Turn, keys: Sequence[str]) -> str:
        cards = ngettext(
            "▶ {player}: {count} card with their rows",
            "▶ {player}: {count} cards with their rows",
            turn.take,
        ).format(player=turn.player, count=turn.take)
        other_seat = _("another seat: click it or type its number and a colon")
        return PROMPT_SEPARATOR.join([cards, *keys, other_seat])

    def turn_floor(self, turn: Turn) -> str:
        return _("{player} (showdown)").format(player=turn.player)

    def sets_due(self, snapshot: TableSnapshot) -> tuple[str, ...]:
        return ()  # every hand is entered whole at the showdown's turn

    def phase_words(self, snapshot: TableSnapshot) -> str:
        return str(snapshot.phase.label)

    def set_entry(
        self, staging: StagedCards, service: ServiceGetter, view: TableView, parent: QWidget
    ) -> None:
        return None  # no hand is set in a dialog of its own

    def settlement_html(self, result: HandResult, table: TableAsked | None, foul_ink: str) -> str:
        details = chinese_details_html(result, self.foul_word(), foul_ink)
        return (
            payment_html(payment_outcome(result), payment_rules(table.machine) if table else None) + details
        )
