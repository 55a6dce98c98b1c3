"""Open-face Chinese poker's part of the desk: streets typed card by card (discards and unknown
cards among them), Fantasyland (a seat's badges, the button held, the sets due: OFC's parts of the
snapshot, `OfcSeatView` and `OfcTableView`), the three variants in the New table, and the OFC
settlement."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ofc_desk.core.ofc.presets import load_preset
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import DEFAULT_PRESET, Game, PresetError
from ofc_desk.desk.entry.key_syntax import KeyedText
from ofc_desk.desk.games.base import (
    THREE_ROWS,
    EntryForm,
    HelpLine,
    NoControls,
    RulesOption,
    SetWords,
    StagedCards,
    TableAsked,
    TakenBy,
    TurnEntry,
    award_words,
)
from ofc_desk.desk.records.columns import Column
from ofc_desk.desk.table.seatface import NO_MARKS, SeatMark, SeatMarks
from ofc_desk.i18n import LazyText, _, lazy_gettext, ngettext
from ofc_desk.service.store.records import HandRecord
from ofc_desk.service.table.games.ofc.record import OfcRecord
from ofc_desk.service.table.games.ofc.view_parts import OfcSeatView, OfcTableView, OfcTurn
from ofc_desk.service.terms.snapshot import Phase, RowView, SeatView, TableSnapshot

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from ofc_desk.core.results import HandResult
    from ofc_desk.core.settlement import ProposedSettlement
    from ofc_desk.desk.games.ofc_set_entry import FantasylandEntry
    from ofc_desk.desk.table.table_view import ServiceGetter, TableView
    from ofc_desk.service.front.table_service import TableService
    from ofc_desk.service.terms.snapshot import Turn

STREET_FORM = EntryForm(
    confirm_caption=lazy_gettext("Confirm street (Enter)"),
    confirm_name=lazy_gettext("Confirm street"),
    hidden_keys=(),
    hint=lazy_gettext("qh f · 10d m · 7c x · ? — Enter confirms"),
    hint_keys="qh f · 10d m · 7c x · ?",
)
"""A street: every row key, discards and unknown cards too; short enough to be read whole beside
the picker at 1366 px (F1 has the rest)."""
NO_DISCARD_FORM = STREET_FORM._replace(
    hidden_keys=("x", "?"),
    hint=lazy_gettext("qh f · 10d m · 7c b — Enter confirms"),
    hint_keys="qh f · 10d m · 7c b",
)
"""A street of a variant that discards nothing (regular OFC): no Discard or Unknown button, and
no discard in the hint. A Fantasyland set's discards are its dialog's."""

DISCARD_KEYS = (
    HelpLine("x", lazy_gettext("discard the card just typed (pineapple)")),
    HelpLine("?", lazy_gettext("a discard nobody saw (unknown, face down)")),
)
"""The keyboard reference's keys of a street that discards (`NO_DISCARD_FORM` hides them)."""
FIRST_STREET_EXAMPLE = lazy_gettext("First street, five cards: `qh f qd f 10s m 9s m 2c b` then Enter.")
PINEAPPLE_EXAMPLE = lazy_gettext(
    "Pineapple street: `ks b 4d m ?` then Enter (the third card was discarded unseen)."
)

PROGRESSIVE = RulesOption(
    lazy_gettext("Progressive Fantasyland"),
    lambda rules: rules.progressive,
    lambda rules, on: replace(rules, progressive=on),
)
"""The rules form's check box for progressive Fantasyland (`TableRules.progressive`), OFC's alone."""


def _fantasyland_text(hand: HandRecord) -> str:
    return ", ".join(f"{name} ({cards})" for name, cards in OfcRecord.of(hand.part).fantasyland.items())


FANTASYLAND_COLUMN: Column[HandRecord] = Column(
    lazy_gettext("Fantasyland"), _fantasyland_text, _fantasyland_text
)
"""The hand history's column of who played the hand in Fantasyland, with their cards ("Ann (14)")."""


class OfcDesk:
    """`DeskGame` for open-face Chinese poker."""

    game = Game.OFC
    choices: tuple[tuple[LazyText, str], ...] = tuple(
        # TRANSLATORS: a game in the New table dialog; {variant} is regular, pineapple or 2-7 pineapple.
        (lazy_gettext("OFC {variant}"), variant.value)
        for variant in Variant
    )
    default_preset = DEFAULT_PRESET
    rules_options = (PROGRESSIVE,)
    history_columns = (FANTASYLAND_COLUMN,)
    set_words = SetWords(lazy_gettext("&Fantasyland set…"), lazy_gettext("Fantasyland set dialog"))
    counts_cards = True
    felt_rows = THREE_ROWS

    def card_keys(self, service: TableService | None) -> tuple[HelpLine, ...]:
        return DISCARD_KEYS if service is None or _discards(service.rules.variant) else ()

    def help_keys(self, service: TableService | None) -> tuple[HelpLine, ...]:
        return ()  # its other keys are the card entry's

    def help_examples(self, service: TableService | None) -> tuple[LazyText, ...]:
        if service is None or _discards(service.rules.variant):
            return (FIRST_STREET_EXAMPLE, PINEAPPLE_EXAMPLE)
        return (FIRST_STREET_EXAMPLE,)

    def proposed_settlement(self, preset: str) -> ProposedSettlement | None:
        return None  # an OFC preset names no settlement: the table's stays

    def pays_line(self, preset: str) -> str:
        try:
            award = load_preset(preset).jackpot_award
        except PresetError:
            return ""
        return " · ".join([_("pays pair by pair"), *award_words(award)])

    def entry_for(
        self, turn: Turn | None, staging: StagedCards, service: ServiceGetter, view: TableView
    ) -> TurnEntry | None:
        return None  # every turn is the desk's street entry's (the Fantasyland set its dialog's)

    def entry_form(self, service: TableService | None) -> EntryForm:
        if service is None or _discards(service.rules.variant):
            return STREET_FORM
        return NO_DISCARD_FORM

    def entry_controls(self, parent: QWidget) -> NoControls:
        return NoControls()  # the line and the row buttons do

    def prompt_keys(self, service: TableService | None) -> list[str]:
        return []  # a street's turn says its own keys (`Turn.describe`)

    def word_typed(self, keyed: KeyedText, player: str, table: TableAsked | None) -> str:
        return ""  # every word typed at a street is a card or a row

    def taken_back_words(self, count: int) -> str:
        return ngettext(
            "{count} card taken back, none of them recorded: type the street again",
            "{count} cards taken back, none of them recorded: type the street again",
            count,
        ).format(count=count)

    def foul_word(self) -> str:
        return _("FOUL")

    def seat_marks(self, snapshot: TableSnapshot, seat: SeatView) -> SeatMarks:
        """Fantasyland: while a hand is dealt the cards of this hand's, else of the next one's."""
        dealing = snapshot.phase is Phase.LIVE
        part = OfcSeatView.of(seat)
        count = part.fantasyland_cards if dealing else part.fantasyland_next
        return SeatMarks(dealt=_fantasyland_mark(count, dealing)) if count else NO_MARKS

    def row_worth(self, row: RowView) -> str:
        """A full row's royalty, its `points` (none on a fouled hand's rows: the service says 0)."""
        return f"+{row.points}" if row.points else ""

    def hand_progress(self, snapshot: TableSnapshot) -> str:
        street = OfcTableView.of(snapshot).street
        if not street:  # between streets: the phase says it
            return ""
        return _("#{hand} · street {street}").format(hand=snapshot.hand_number, street=street)

    def button_words(self, snapshot: TableSnapshot, button: str) -> str:
        if OfcTableView.of(snapshot).button_held_for_fantasyland:
            return _("{button} (held: Fantasyland)").format(button=button)
        return button

    def taken_by(self, turn: Turn) -> TakenBy:
        return TakenBy.DIALOG if turn.kind is OfcTurn.FANTASYLAND_SET else TakenBy.LINE

    def turn_status(self, snapshot: TableSnapshot, turn: Turn, hand: str) -> str:
        street = (
            _("Fantasyland set")
            if turn.kind is OfcTurn.FANTASYLAND_SET
            else _("street {number}").format(number=OfcTableView.of(snapshot).street)
        )
        return _("{hand}, {street}: {player} to act").format(hand=hand, street=street, player=turn.player)

    def turn_prompt(self, turn: Turn, keys: Sequence[str]) -> str:
        if turn.kind is OfcTurn.FANTASYLAND_SET:
            return ngettext(
                "{player}: Fantasyland set of {count} card — F6 opens the set dialog",
                "{player}: Fantasyland set of {count} cards — F6 opens the set dialog",
                turn.take,
            ).format(player=turn.player, count=turn.take)
        if turn.kind is OfcTurn.FACE_DOWN_REVEAL:
            return ngettext(
                "{player}: enter the {count} face-down card as revealed",
                "{player}: enter the {count} face-down cards as revealed",
                turn.take,
            ).format(player=turn.player, count=turn.take)
        return "▶ " + turn.describe

    def turn_floor(self, turn: Turn) -> str:
        if turn.kind is OfcTurn.FANTASYLAND_SET:
            return _("{player} (Fantasyland set)").format(player=turn.player)
        if turn.kind is OfcTurn.FACE_DOWN_REVEAL:
            return _("{player} (face-down cards)").format(player=turn.player)
        return turn.player

    def sets_due(self, snapshot: TableSnapshot) -> tuple[str, ...]:
        return tuple(seat.name for seat in snapshot.seats if OfcSeatView.of(seat).fantasyland_cards)

    def phase_words(self, snapshot: TableSnapshot) -> str:
        turn = snapshot.to_act
        if snapshot.phase is Phase.LIVE and turn is not None and turn.kind is OfcTurn.FANTASYLAND_SET:
            return _("waiting for Fantasyland sets")
        return str(snapshot.phase.label)

    def set_entry(
        self, staging: StagedCards, service: ServiceGetter, view: TableView, parent: QWidget
    ) -> FantasylandEntry:
        """The Fantasyland set's dialog, with Qt (imported here: the staging model reads this part
        without it)."""
        from ofc_desk.desk.games.ofc_set_entry import FantasylandEntry

        return FantasylandEntry(self, staging, service, view, parent)

    def settlement_html(self, result: HandResult, table: TableAsked | None, foul_ink: str) -> str:
        # Its lines (and `html`'s entity tables) are loaded at the first hand's end (issue 39.3).
        from ofc_desk.desk.games.ofc_settlement import ofc_details_html

        return ofc_details_html(result, self.foul_word(), foul_ink)


def _fantasyland_mark(count: int, this_hand: bool) -> SeatMark:
    """A seat dealt `count` cards in Fantasyland, this hand or the next."""
    if this_hand:
        note = ngettext(
            "in Fantasyland this hand, {cards} card", "in Fantasyland this hand, {cards} cards", count
        )
    else:
        note = ngettext(
            "goes to Fantasyland next hand, {cards} card",
            "goes to Fantasyland next hand, {cards} cards",
            count,
        )
    return SeatMark(
        # TRANSLATORS: a small badge on the seat: Fantasyland, and how many cards it deals.
        badge=_("FL {count}").format(count=count),
        spoken=ngettext("Fantasyland, {count} card", "Fantasyland, {count} cards", count).format(count=count),
        # TRANSLATORS: a seat's badge on the floor: dealt {cards} cards in Fantasyland; keep it short.
        floor_badge=_("[FL {cards}]").format(cards=count),
        floor_note=note.format(cards=count),
    )


def _discards(variant: str) -> bool:
    """Whether the variant's streets discard (pineapple's do); an unknown word offers everything."""
    try:
        return Variant(variant).structure.later_street_discards > 0
    except ValueError:
        return True
