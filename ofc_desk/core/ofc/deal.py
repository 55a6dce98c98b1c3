"""One finished deal scored and settled: the engine behind `ofc-desk score` and the live table.

>>> from ofc_desk.core.ofc.deal_input import deal_from_json
>>> deal = deal_from_json({"dealer": "Bob", "players": [
...     {"name": "Ann", "stack": 100, "front": "Qs Qd 2c", "middle": "Ah Kh 9h 4h 2h",
...      "back": "7s 7d 7c 3s 3d"},
...     {"name": "Bob", "stack": 100, "front": "Ks 5d 2d", "middle": "Jc Jd 9c 4c 3c",
...      "back": "Ts 9s 8d 7h 6c"}]})
>>> result = score_deal(deal)
>>> [(p.name, p.points, p.stack_after, p.fantasyland_next) for p in result.players]
[('Ann', 25, 125, 13), ('Bob', -25, 75, 0)]
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ofc_desk.core.jackpot import JackpotResult, PairRows, RowClasses, jackpot_after_deal
from ofc_desk.core.ofc.fantasyland import fantasyland_cards
from ofc_desk.core.ofc.presets import RulesPreset, refuse_award_for_variant
from ofc_desk.core.ofc.scoring import (
    HandReport,
    MatchupScore,
    RowReport,
    evaluate_hand,
    score_matchup,
)
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import Game
from ofc_desk.core.results import HandResult, ResultPair, ResultRow, ResultSeat, ResultTransfer, jackpot_view
from ofc_desk.core.rows import ROWS, SetHand
from ofc_desk.core.settlement import (
    Obligation,
    SettleFrom,
    Settlement,
    SettlementPolicy,
    Transfer,
    pair_order,
    settle,
    settlement_order,
)


def _row_json(report: RowReport) -> dict[str, Any]:
    return {
        "cards": " ".join([card.text for card in report.cards]),
        "hand": report.hand,
        "royalty": report.royalty,
    }


class SeatHand(NamedTuple):
    name: str
    stack: int
    hand: SetHand


@dataclass(frozen=True)
class Deal:
    """Everything needed to score and settle a finished deal; players in clockwise order."""

    preset: RulesPreset
    dealer: str
    players: tuple[SeatHand, ...]
    scoring: str | None = None
    variant: Variant = Variant.REGULAR
    progressive: bool = False
    unit: int = 1
    pair_units: Mapping[frozenset[str], int] = field(default_factory=dict)
    settlement: SettlementPolicy = SettlementPolicy.WIN_CAP
    settle_from: SettleFrom = SettleFrom.LEFT_OF_DEALER
    in_fantasyland: frozenset[str] = frozenset()
    fantasyland_streaks: Mapping[str, int] = field(default_factory=dict)
    """Consecutive Fantasyland hands each player has played, this one included (for the cap)."""
    jackpot_pool: int | None = None
    """The room's jackpot pool before the deal, as `ofc-desk score` is given it; None when not given."""

    def unit_between(self, first: str, second: str) -> int:
        if not self.pair_units:
            return self.unit
        return self.pair_units.get(frozenset((first, second)), self.unit)


class PlayerResult(NamedTuple):
    name: str
    report: HandReport
    points: int
    fantasyland_next: int
    stack_before: int
    stack_after: int

    def to_json(self, award: int = 0) -> dict[str, Any]:
        """`award`: the chips the jackpot gave the player, on the stack after the deal."""
        report = self.report
        front, middle, back = report.rows.values()
        return {
            "name": self.name,
            "foul": report.foul,
            "foul_reason": report.foul_reason or None,
            "rows": {"front": _row_json(front), "middle": _row_json(middle), "back": _row_json(back)},
            "royalties": report.royalties,
            "points": self.points,
            "fantasyland": {"next": self.fantasyland_next > 0, "cards": self.fantasyland_next},
            "stack_before": self.stack_before,
            "stack_after": self.stack_after + award,
        }

    def view(self, award: int = 0) -> ResultSeat:
        """The player's line as `to_json(award)` gives it, typed."""
        report = self.report
        front, middle, back = (
            ResultRow(row, report.rows[row].cards, report.rows[row].hand, report.rows[row].royalty)
            for row in ROWS
        )
        return ResultSeat(
            name=self.name,
            stack_before=self.stack_before,
            stack_after=self.stack_after + award,
            points=self.points,
            foul=report.foul,
            foul_reason=report.foul_reason or None,
            rows=(front, middle, back),
            royalties=report.royalties,
            fantasyland_next=self.fantasyland_next,
            showdown=None,
        )


class MatchupResult(NamedTuple):
    first: str
    second: str
    score: MatchupScore
    unit: int

    @property
    def fouled_players(self) -> list[str]:
        return [
            name for name, fouled in zip((self.first, self.second), self.score.fouled, strict=True) if fouled
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [self.first, self.second],
            "rows": list(self.score.rows),
            "scoop": self.score.scoop,
            "royalties": self.score.royalties,
            "foul_penalty": self.score.penalty,
            "foul": self.fouled_players or None,
            "points": self.score.points,
            "unit": self.unit,
        }

    def view(self) -> ResultPair:
        score = self.score
        return ResultPair(
            first=self.first,
            second=self.second,
            points=score.points,
            unit=self.unit,
            rows=score.rows,
            scoop=score.scoop,
            royalties=score.royalties,
            foul_penalty=score.penalty,
            fouled=tuple(self.fouled_players),
            special=None,
        )


class DealResult(NamedTuple):
    players: tuple[PlayerResult, ...]
    matchups: tuple[MatchupResult, ...]
    settlement: Settlement

    @property
    def transfers(self) -> tuple[Transfer, ...]:
        return self.settlement.transfers

    def player(self, name: str) -> PlayerResult:
        return next(player for player in self.players if player.name == name)

    def to_json(self, jackpot: JackpotResult | None = None) -> dict[str, Any]:
        """The result as `ofc-desk score` answers it; with `jackpot`, its object and each player's
        stack after the deal with the award on it."""
        answer: dict[str, Any] = {
            "players": [
                player.to_json(jackpot.chips_for(player.name) if jackpot else 0) for player in self.players
            ],
            "matchups": [matchup.to_json() for matchup in self.matchups],
            "transfers": [transfer.to_json() for transfer in self.transfers],
        }
        if jackpot is not None:
            answer["jackpot"] = jackpot.to_json()
        return answer

    def transfers_view(self) -> tuple[ResultTransfer, ...]:
        return tuple(
            ResultTransfer(t.debtor, t.creditor, t.owed, t.paid, t.reason, None, "") for t in self.transfers
        )

    def view(self, jackpot: JackpotResult | None = None) -> HandResult:
        """The result `to_json(jackpot)` stores, typed: what the faces read."""
        return HandResult(
            game=Game.OFC,
            preset=None,
            seats=tuple(
                player.view(jackpot.chips_for(player.name) if jackpot else 0) for player in self.players
            ),
            pairs=tuple(matchup.view() for matchup in self.matchups),
            transfers=self.transfers_view(),
            payment=None,
            jackpot=jackpot_view(jackpot),
        )


def score_deal(deal: Deal) -> DealResult:
    """Score every pair in settlement order, then settle the chips under table stakes."""
    system = deal.preset.scoring_system(deal.scoring)
    reports = {seat.name: evaluate_hand(seat.hand, deal.preset, deal.variant) for seat in deal.players}
    order = settlement_order([seat.name for seat in deal.players], deal.dealer, deal.settle_from)
    matchups = tuple(
        MatchupResult(
            first,
            second,
            score_matchup(reports[first], reports[second], system, deal.preset),
            deal.unit_between(first, second),
        )
        for first, second in pair_order(order)
    )
    settlement = settle(
        {seat.name: seat.stack for seat in deal.players},
        [_obligation(matchup) for matchup in matchups if matchup.score.points],
        deal.settlement,
    )
    points = _net_points(deal, matchups)
    players = tuple(
        PlayerResult(
            seat.name,
            reports[seat.name],
            points[seat.name],
            _fantasyland_next(deal, seat, reports[seat.name]),
            seat.stack,
            settlement.stacks_after[seat.name],
        )
        for seat in deal.players
    )
    return DealResult(players, matchups, settlement)


def deal_jackpot(deal: Deal, result: DealResult, pool_before: int, drop: int = 0) -> JackpotResult:
    """What the room's jackpot pays after this deal (docs/rules.md §11), from the pool as it stands
    before the deal and this hand's drop (taken after settlement, with the rake): the call a table
    makes once the hand's rake is known. A 2-7 pineapple deal with an award is refused."""
    refuse_award_for_variant(deal.preset.jackpot_award, deal.variant)
    names = [seat.name for seat in deal.players]
    return jackpot_after_deal(deal.preset.jackpot_award, jackpot_pairs(result), names, pool_before, drop)


def jackpot_pairs(result: DealResult) -> list[PairRows]:
    """The pairs in settlement order as the award looks at them: the rows each won, and the row
    classes of a hand that can qualify (not fouled)."""
    classes = {player.name: _row_classes(player.report) for player in result.players}
    return [
        PairRows(
            matchup.first, matchup.second, matchup.score.rows, classes[matchup.first], classes[matchup.second]
        )
        for matchup in result.matchups
    ]


def _row_classes(report: HandReport) -> RowClasses | None:
    if report.foul:
        return None
    front, middle, back = (report.rows[row].category for row in ROWS)
    return (front, middle, back)


def _obligation(matchup: MatchupResult) -> Obligation:
    points = matchup.score.points
    owed = abs(points) * matchup.unit
    if points > 0:
        return Obligation(matchup.second, matchup.first, owed)
    return Obligation(matchup.first, matchup.second, owed)


def _net_points(deal: Deal, matchups: tuple[MatchupResult, ...]) -> dict[str, int]:
    """Each player's points over all their matchups, before caps."""
    points = dict.fromkeys([seat.name for seat in deal.players], 0)
    for matchup in matchups:
        points[matchup.first] += matchup.score.points
        points[matchup.second] -= matchup.score.points
    return points


def _fantasyland_next(deal: Deal, seat: SeatHand, report: HandReport) -> int:
    return fantasyland_cards(
        report,
        deal.preset,
        deal.variant,
        progressive=deal.progressive,
        in_fantasyland=seat.name in deal.in_fantasyland,
        consecutive=deal.fantasyland_streaks.get(seat.name, 1),
    )
