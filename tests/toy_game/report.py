"""The toy game's part of the reports (`reports.games.base.ReportGame`): no preset numbers, no
row bonus, a row shown as the player's entry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib.units import mm

from ofc_desk.core.results import HandResult, ResultPair, ResultSeat, ResultTransfer
from ofc_desk.reports.games.base import plain_matchup, plain_transfer
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
from tests.toy_game.rules import ToyShown, row_name


@dataclass(frozen=True)
class ToySeat(SeatPart):
    """The toy's own part of a player's line in the report: the row shown, and its hand."""

    cards: str
    hand: str


class ToyReport:
    """What the reports ask of a toy table, answered for the toy game."""

    player_headings = ("Rows", "Wins", "Losses")
    player_widths = (28 * mm, 17 * mm, 16 * mm, 18 * mm, 19 * mm, 19 * mm, 13 * mm, 12 * mm, 18 * mm)
    row_points_heading = "Bonus"
    flag = ""
    why_heading = "Why"
    entry_kinds = frozenset({EventKind.SHOWN})

    def player_figures(self, player: PlayerSummary) -> tuple[int, int, int]:
        return (player.hands_played, 0, 0)

    def summary(self, player: PlayerSummary, seats: Sequence[SeatResult]) -> PlayerSummary:
        return player  # the hands played say it all

    def seat_part(self, seat: ResultSeat, stored: StoredHand) -> ToySeat | None:
        shown = seat.showdown
        if not isinstance(shown, ToyShown):
            return None
        return ToySeat(" ".join(card.text for card in shown.row), row_name(shown.row))

    def matchup(self, pair: ResultPair) -> MatchupRecord:
        return plain_matchup(pair)

    def transfer(self, transfer: ResultTransfer) -> TransferRecord:
        return plain_transfer(transfer)

    def pair_note(self, matchup: MatchupRecord) -> str:
        return ""

    def in_place_of_rows(self, seat: SeatResult) -> str:
        part = seat.part
        return f"{part.cards}: {part.hand}" if isinstance(part, ToySeat) else ""

    def why(self, transfer: TransferRecord, hand: HandRecord) -> str | None:
        return "the stronger row"

    def hand_note(self, hand: HandRecord) -> str:
        return ""

    def shown_result(self, result: HandResult, rules: Mapping[str, Any]) -> HandResult:
        return result

    def resolve_preset(self, rules: Mapping[str, Any]) -> tuple[str, dict[str, Any] | None]:
        return str(rules.get("rules", "toy")), None

    def play_options(self, rules: Mapping[str, Any], preset: Mapping[str, Any] | None) -> list[RuleSetting]:
        return []

    def preset_lines(self, preset: Mapping[str, Any]) -> list[RuleSetting]:
        return []

    def title_parts(self, hand: HandRecord) -> tuple[str, ...]:
        return ()

    def under_name(self, seat: SeatResult) -> str:
        return ""

    def hand_columns(self, seat: SeatResult) -> Mapping[str, object]:
        return {}

    def transfer_note(self, transfer: TransferRecord) -> str:
        return transfer.reason

    def script_entry(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        return {"player": payload["player"], "cards": " ".join(payload["cards"])}
