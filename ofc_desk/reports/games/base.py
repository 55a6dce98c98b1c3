"""What the reports ask of the game a table played, so that none of them asks which game it was.

Each game answers in its own words: OFC (`games.ofc`) and closed Chinese poker (`games.chinese`).
`games.report_game` is the one way from a session's record or its rules to the game's part.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ofc_desk.core.results import HandResult, ResultPair, ResultSeat, ResultTransfer
from ofc_desk.reports.record import (
    HandRecord,
    MatchupRecord,
    PlayerSummary,
    RuleSetting,
    SeatPart,
    SeatResult,
    TransferRecord,
)
from ofc_desk.service.store.records import HandRecord as StoredHand
from ofc_desk.service.terms.events import EventKind


class ReportGame(Protocol):
    """A game's part of the session report, the rules page, the CSV exports and the replay script."""

    # The players table: the game's three columns after "Hands", and every column's width.
    @property
    def player_headings(self) -> tuple[str, str, str]: ...

    def player_figures(self, player: PlayerSummary) -> tuple[int, int, int]:
        """The figures under `player_headings`, from the summary and its part (`summary`)."""
        ...

    def summary(self, player: PlayerSummary, seats: Sequence[SeatResult]) -> PlayerSummary:
        """`player`'s summary with the game's own counts of the hands they played (`seats`, the
        standing ones) as its part (`PlayerSummary.part`): Fantasyland hands at OFC, surrenders
        and specials at Chinese poker."""
        ...

    @property
    def player_widths(self) -> tuple[float, ...]:
        """The players table's columns but the last (which takes the rest of the page)."""
        ...

    # A hand's table and its transfers.
    @property
    def row_points_heading(self) -> str:
        """The heading of the column after "Stack before", the points a hand's rows earn beyond
        the matchups: royalties at OFC, row bonuses at Chinese."""
        ...

    @property
    def flag(self) -> str:
        """The word under the name of a player whose hand did not stand (foul, misset)."""
        ...

    def seat_part(self, seat: ResultSeat, stored: StoredHand) -> SeatPart | None:
        """What the game's record of a player adds to the rows, as the game's own type, from the
        result's seat and the stored hand it is of (OFC's Fantasyland dealt and earned: `OfcSeat`;
        a Chinese surrender, declared special, misset's reason: `ChineseSeat`); None for a game
        whose record adds nothing. The record keeps it (`SeatResult.part`) for the game's part to
        read."""
        ...

    def matchup(self, pair: ResultPair) -> MatchupRecord:
        """A pair's line of the record: every point the pair settled, and the game's own part of
        it (a Chinese special pass, `ChinesePair`); `plain_matchup` for a game that adds none."""
        ...

    def transfer(self, transfer: ResultTransfer) -> TransferRecord:
        """A payment's line of the record, with the game's own part (what a Chinese payment is for
        and its pass, `ChinesePayment`); `plain_transfer` for a game that adds none."""
        ...

    def title_parts(self, hand: HandRecord) -> tuple[str, ...]:
        """What the game adds to a hand's title line, after its button and dealers (OFC: who
        played it in Fantasyland)."""
        ...

    def under_name(self, seat: SeatResult) -> str:
        """A line under a player's name in a hand's table, after the flag ("": none; OFC: the
        Fantasyland they go to)."""
        ...

    def in_place_of_rows(self, seat: SeatResult) -> str:
        """What runs across a player's three row cells in place of rows not set (empty: the rows)."""
        ...

    def pair_note(self, matchup: MatchupRecord) -> str:
        """What a hand's "Points by pair" line says after a pair's points, from a space ("": nothing;
        Chinese poker: the special pass)."""
        ...

    @property
    def why_heading(self) -> str: ...

    def why(self, transfer: TransferRecord, hand: HandRecord) -> str | None:
        """A transfer of `hand`, its last cell: why it was paid, and capped (None: an empty cell)."""
        ...

    def hand_note(self, hand: HandRecord) -> str:
        """A line under a hand's table ("": none): the Chinese row bonuses it held that paid
        nothing, and why."""
        ...

    def shown_result(self, result: HandResult, rules: Mapping[str, Any]) -> HandResult:
        """A stored result as the report counts it under the rules it was dealt by: a Chinese row
        bonus its bonus mode did not pay is no bonus (OFC's as stored)."""
        ...

    # The rules page.
    def resolve_preset(self, rules: Mapping[str, Any]) -> tuple[str, dict[str, Any] | None]:
        """The preset's name and its data with house options applied (None if unreadable)."""
        ...

    def play_options(self, rules: Mapping[str, Any], preset: Mapping[str, Any] | None) -> list[RuleSetting]:
        """The table's own choices of play beyond the preset (before the house options)."""
        ...

    def preset_lines(self, preset: Mapping[str, Any]) -> list[RuleSetting]:
        """Every number and flag of the preset the hands were scored with."""
        ...

    # The hands CSV and the chip-transactions CSV (in the record's English).
    def hand_columns(self, seat: SeatResult) -> Mapping[str, object]:
        """The hands CSV's columns the game fills for a player's line (`exports.GAME_COLUMNS`: the
        ones it leaves keep their empty value)."""
        ...

    def transfer_note(self, transfer: TransferRecord) -> str: ...

    # The replay script.
    @property
    def entry_kinds(self) -> frozenset[EventKind]:
        """The events a player's entry of a hand is stored as."""
        ...

    def script_entry(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """An entry as a replay script spells it among a hand's actions."""
        ...


def unreadable_preset(chosen: object) -> tuple[str, None]:
    """`resolve_preset`'s answer for a preset that cannot be read: the name it was stored under
    (a custom preset's own, else "custom"; a named one's name), and no data."""
    return (str(chosen.get("name", "custom")) if isinstance(chosen, Mapping) else str(chosen), None)


def plain_matchup(pair: ResultPair) -> MatchupRecord:
    """`ReportGame.matchup` of a game whose pair's line holds its points alone."""
    return MatchupRecord((pair.first, pair.second), pair.points, pair.unit)


def plain_transfer(transfer: ResultTransfer) -> TransferRecord:
    """`ReportGame.transfer` of a game whose payment's line holds no part of its own."""
    return TransferRecord(transfer.payer, transfer.payee, transfer.owed, transfer.paid, transfer.reason)
