"""The kinds of event a table's log holds. Each accepted action is exactly one event."""

from __future__ import annotations

from enum import StrEnum


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
    JACKPOT = "jackpot"
    """A jackpot award's chips, from the room's pool (the house's, not another player's)."""

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


class ChipKind(StrEnum):
    """Why chips came onto or left the table outside the play of a hand, as the reports say it (an
    action's spec names it: `service.actions`)."""

    OPENING = "opening buy-in"
    BUY_IN = "buy-in"
    REBUY = "rebuy"
    CASH_OUT = "cash-out"
    CORRECTION = "correction"


FLOOR_WRITTEN = frozenset({EventKind.REQUEST_DECIDED, EventKind.JACKPOT_SEEDED})
"""The kinds the floor view records into a table's chain (and the floor's database role may
insert): a desk that finds one appended since its last action folds it in and carries on."""
