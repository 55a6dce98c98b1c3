"""The kinds of event a table's log holds. Each accepted action is exactly one event."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from ofc_desk.i18n import LazyText, lazy_gettext, lazy_pgettext


class EventKind(StrEnum):
    TABLE_OPENED = "table_opened"
    HAND_STARTED = "hand_started"
    PLACED = "placed"
    REVEALED = "revealed"
    SHOWN = "shown"
    """A Chinese poker player's hand at showdown: set rows, a surrender or a declared special."""
    UNDONE = "undone"
    HAND_SETTLED = "hand_settled"
    JOINED = "joined"
    REBOUGHT = "rebought"
    CASHED_OUT = "cashed_out"
    SAT_OUT = "sat_out"
    SAT_IN = "sat_in"
    HAND_VOIDED = "hand_voided"
    CHIPS_CORRECTED = "chips_corrected"
    HAND_CORRECTED = "hand_corrected"
    """A floor supervisor corrects a settled hand's entries: re-scored, re-settled, the difference
    paid now (docs/rules.md §12)."""
    RULES_CHANGED = "rules_changed"
    SESSION_CLOSED = "session_closed"
    RULES_PINNED = "rules_pinned"
    """Appended by migration 0007 to a session that named its presets: their numbers, pinned."""
    REQUEST_MADE = "request_made"
    """The dealer asks the floor for a void, a chip correction or a rules change (`requests`)."""
    REQUEST_DECIDED = "request_decided"
    """A floor supervisor approves or declines a request, at the floor view or at the desk."""
    HANDED_OVER = "handed_over"
    """The dealer on duty hands the table over to another dealer (recorded as the outgoing one's,
    and signed by them); sessions recorded before it said a hand-over only by their events' actors."""
    JACKPOT_SEEDED = "jackpot_seeded"
    """A floor supervisor adds the house's chips to the room's jackpot pool, between hands."""
    TAKEN_OVER = "taken_over"
    """A floor supervisor hands a table live at one desk to a dealer at another (issue 34): a
    hand-over the outgoing dealer was not there to sign, so the supervisor signs it; the desk that
    held the table is read-only from then on (`desk_holds`)."""


class LedgerKind(StrEnum):
    """What moved chips on a stack, as the chip ledger stores it (its `kind` column)."""

    BUY_IN = "buy_in"
    """The opening buy-ins (note "opening") and a newcomer's."""
    HAND = "hand"
    RAKE = "rake"
    REBUY = "rebuy"
    CASH_OUT = "cash_out"
    VOID = "void"
    CORRECTION = "correction"
    HAND_CORRECTION = "hand_correction"
    """A settled hand's difference paid when a supervisor corrected it (docs/rules.md §12)."""
    JACKPOT = "jackpot"
    """A jackpot award's chips, from the room's pool (the house's, not another player's)."""

    @property
    def label(self) -> LazyText:
        """The kind in the reader's words, as the records browser shows the chip ledger."""
        return _LEDGER_KIND_WORDS[self]

    @classmethod
    def read(cls, stored: str) -> LedgerKind | None:
        """The kind a stored row names; None for a word none of the desk's (a row added by hand),
        which a reader that does not verify shows as stored.

        >>> LedgerKind.read("rebuy"), LedgerKind.read("gift")
        (<LedgerKind.REBUY: 'rebuy'>, None)
        """
        try:
            return cls(stored)
        except ValueError:
            return None


_LEDGER_KIND_WORDS: Final[dict[LedgerKind, LazyText]] = {
    LedgerKind.BUY_IN: lazy_pgettext("ledger kind", "buy-in"),
    LedgerKind.HAND: lazy_pgettext("ledger kind", "hand"),
    LedgerKind.RAKE: lazy_pgettext("ledger kind", "rake"),
    LedgerKind.REBUY: lazy_pgettext("ledger kind", "rebuy"),
    LedgerKind.CASH_OUT: lazy_pgettext("ledger kind", "cash-out"),
    LedgerKind.VOID: lazy_pgettext("ledger kind", "void"),
    LedgerKind.CORRECTION: lazy_pgettext("ledger kind", "correction"),
    LedgerKind.HAND_CORRECTION: lazy_pgettext("ledger kind", "hand_correction"),
    LedgerKind.JACKPOT: lazy_pgettext("ledger kind", "jackpot"),
}


class ChipTotal(StrEnum):
    """A total the reports add chip transactions into: a players-table column, a line of the session's
    house figures and of the table close's sum, a figure of the shift (`CHIP_TOTALS`)."""

    BUY_INS = "buy_ins"
    REBUYS = "rebuys"
    CASH_OUTS = "cash_outs"
    CORRECTIONS = "corrections"
    HAND_CORRECTIONS = "hand_corrections"

    @property
    def said(self) -> TotalSaid:
        """Its words in the reports and how it adds up."""
        return CHIP_TOTALS[self]


@dataclass(frozen=True)
class TotalSaid:
    """A `ChipTotal` in the reports: its words, its sign and where it counts."""

    figure: LazyText
    close_line: LazyText
    column: LazyText | None = None
    sign: int = 1
    in_drop: bool = False
    either_way: bool = False
    won_in_play: bool = False
    """Chips won or lost at the table (a corrected hand's difference), part of a player's net."""


CHIP_TOTALS: Final[dict[ChipTotal, TotalSaid]] = {
    ChipTotal.BUY_INS: TotalSaid(
        figure=lazy_gettext("Buy-ins (opening and later)"),
        close_line=lazy_gettext("Buy-ins (opening and later)"),
        column=lazy_gettext("Buy-ins"),
        in_drop=True,
    ),
    ChipTotal.REBUYS: TotalSaid(
        figure=lazy_gettext("Rebuys"),
        close_line=lazy_gettext("Rebuys and top-ups"),
        column=lazy_gettext("Rebuys"),
        in_drop=True,
    ),
    ChipTotal.CASH_OUTS: TotalSaid(
        figure=lazy_gettext("Cash-outs"),
        close_line=lazy_gettext("Cash-outs"),
        column=lazy_gettext("Cash-outs"),
        sign=-1,
    ),
    # A correction fixes a miscount: no column of the players' (their net leaves it out).
    ChipTotal.CORRECTIONS: TotalSaid(
        figure=lazy_gettext("Chip corrections"),
        close_line=lazy_gettext("Supervisor chip corrections"),
        either_way=True,
    ),
    # A corrected hand's differences move chips between players (they add up to 0 at the table,
    # less what is not covered): won or lost at play, so in the players' net.
    ChipTotal.HAND_CORRECTIONS: TotalSaid(
        figure=lazy_gettext("Corrected hands (differences paid)"),
        close_line=lazy_gettext("Corrected hands (differences paid)"),
        either_way=True,
        won_in_play=True,
    ),
}
"""Each total's words in the reports and how it adds up. A new total gets its line in the session's
figures and in the table close's sum from here; a players-table column takes a width in each
game's report part, and a shift column (its CSV's too) a field in `reports.shift.TableShift`."""


class SeatMove(StrEnum):
    """What a chip transaction does to the player's seat, as the stack chart draws it."""

    TAKES = "takes"
    """The player sits down with these chips: their line starts."""
    KEEPS = "keeps"
    """Chips added to or taken off a seated player's stack: their line steps."""
    LEAVES = "leaves"
    """The player leaves with them: their line ends."""


class ChipKind(StrEnum):
    """Why chips came onto or left the table outside the play of a hand, as the reports say it (an
    action's spec names it: `service.table.actions`). Its words and the total it adds to are said once, in
    `CHIP_KINDS_SAID`; the reports read them from there."""

    OPENING = "opening buy-in"
    BUY_IN = "buy-in"
    REBUY = "rebuy"
    CASH_OUT = "cash-out"
    CORRECTION = "correction"
    HAND_CORRECTION = "hand correction"

    @property
    def said(self) -> KindSaid:
        """Its words in the reports, the total it adds to and what it does to the seat."""
        return CHIP_KINDS_SAID[self]


@dataclass(frozen=True)
class KindSaid:
    """A `ChipKind` in the reports: its words, the total it adds to, what it does to the seat."""

    label: LazyText
    total: ChipTotal
    seat: SeatMove = SeatMove.KEEPS


CHIP_KINDS_SAID: Final[dict[ChipKind, KindSaid]] = {
    ChipKind.OPENING: KindSaid(lazy_gettext("opening buy-in"), ChipTotal.BUY_INS, SeatMove.TAKES),
    ChipKind.BUY_IN: KindSaid(lazy_gettext("buy-in"), ChipTotal.BUY_INS, SeatMove.TAKES),
    ChipKind.REBUY: KindSaid(lazy_gettext("rebuy"), ChipTotal.REBUYS),
    ChipKind.CASH_OUT: KindSaid(lazy_gettext("cash-out"), ChipTotal.CASH_OUTS, SeatMove.LEAVES),
    ChipKind.CORRECTION: KindSaid(lazy_gettext("chip correction"), ChipTotal.CORRECTIONS),
    ChipKind.HAND_CORRECTION: KindSaid(lazy_gettext("corrected hand"), ChipTotal.HAND_CORRECTIONS),
}
"""Each kind's words, the total it adds to and what it does to the seat: a new kind is one line
here (and its words in the catalogs), every report reads it from this table."""


FLOOR_WRITTEN = frozenset({EventKind.REQUEST_DECIDED, EventKind.JACKPOT_SEEDED})
"""The kinds the floor view records into a table's chain (and the floor's database role may
insert): a desk that finds one appended since its last action folds it in and carries on."""
