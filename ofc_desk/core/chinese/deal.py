"""One finished Chinese poker deal scored and settled in two passes (docs/rules.md §10, §8).

Every pair is scored (in a bank game only the bank's pairs), then §8's settlement pays first every
pair's special-hand payment, then every pair's rest, in settlement order: one ledger for both
passes, so the caps and used chips of the first carry into the second.

>>> from ofc_desk.core.chinese.presets import load_chinese_preset
>>> from ofc_desk.core.scoring import SetHand
>>> deal = ChineseDeal(load_chinese_preset("chinese-typical"), "Bob", (
...     ChineseSeat("Ann", 20, Entry.set_rows(SetHand.parse(
...         "6s 6h 6d", "4s 4h 4d 9s 9h", "Ks Kh Kd 8s 8h"))),
...     ChineseSeat("Bob", 20, Entry.set_rows(SetHand.parse(
...         "Qs Qh 7d", "Js Jh Jd 2s 2h", "5s 5h 5d 5c Ad")))))
>>> [(t.debtor, t.creditor, t.paid) for t in score_chinese_deal(deal).transfers]
[('Ann', 'Bob', 3)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from ofc_desk.core.chinese.pairs import Outcome, PairScore, Scoops, compare_rows, scooped, score_pair
from ofc_desk.core.chinese.presets import ChinesePreset
from ofc_desk.core.chinese.showdown import Entry, Shown, ShownRow, show
from ofc_desk.core.rows import ROWS
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

CHINESE = "chinese"
"""The `variant` word of a Chinese poker deal."""
MIN_PLAYERS, MAX_PLAYERS = 2, 4


class SettlementPass(StrEnum):
    SPECIAL = "special"
    REST = "rest"


class ChineseSeat(NamedTuple):
    name: str
    stack: int
    entry: Entry


@dataclass(frozen=True)
class ChineseDeal:
    """Everything needed to score and settle a finished Chinese deal; players in clockwise order."""

    preset: ChinesePreset
    dealer: str
    players: tuple[ChineseSeat, ...]
    unit: int = 1
    pair_units: Mapping[frozenset[str], int] = field(default_factory=dict)
    settlement: SettlementPolicy = SettlementPolicy.WIN_CAP
    settle_from: SettleFrom = SettleFrom.LEFT_OF_DEALER

    def unit_between(self, first: str, second: str) -> int:
        return self.pair_units.get(frozenset((first, second)), self.unit)

    @property
    def bank(self) -> str | None:
        """The bank of a bank game: the dealer."""
        return self.dealer if self.preset.bank else None


class ChineseMatchup(NamedTuple):
    first: str
    second: str
    score: PairScore
    unit: int

    def to_json(self) -> dict[str, Any]:
        outcome = self.score.outcome
        return {
            "players": [self.first, self.second],
            "rows": list(outcome) if outcome is not None else None,
            "special": self.score.special,
            "points": self.score.rest,
            "unit": self.unit,
        }


class ChinesePlayerResult(NamedTuple):
    name: str
    shown: Shown
    points: int
    stack_before: int
    stack_after: int

    def to_json(self, preset: ChinesePreset) -> dict[str, Any]:
        shown = self.shown
        special = shown.special
        return {
            "name": self.name,
            "special": special.kind.value if special else None,
            "surrendered": shown.entry.surrendered,
            "aces": None if shown.entry.surrendered or not preset.aces else shown.aces,
            "foul": shown.misset,
            "foul_reason": shown.misset_reason or None,
            "rows": _rows_json(shown.rows),
            "points": self.points,
            "stack_before": self.stack_before,
            "stack_after": self.stack_after,
        }


def _rows_json(rows: tuple[ShownRow, ShownRow, ShownRow] | None) -> dict[str, Any] | None:
    if rows is None:
        return None
    return {
        row.value: {
            "cards": " ".join(card.text for card in shown.cards),
            "hand": shown.hand,
            "bonus": shown.bonus,
        }
        for row, shown in zip(ROWS, rows, strict=True)
    }


class ChineseTransfer(NamedTuple):
    transfer: Transfer
    settlement_pass: SettlementPass
    why: str
    """What the chips are for, as a floor supervisor reads it ("Bob's dragon", "Ann surrendered")."""

    def to_json(self) -> dict[str, object]:
        return {**self.transfer.to_json(), "pass": self.settlement_pass.value, "for": self.why}


class ChineseDealResult(NamedTuple):
    preset: ChinesePreset
    players: tuple[ChinesePlayerResult, ...]
    matchups: tuple[ChineseMatchup, ...]
    settlement: Settlement
    transfers_made: tuple[ChineseTransfer, ...]

    @property
    def transfers(self) -> tuple[Transfer, ...]:
        return self.settlement.transfers

    def player(self, name: str) -> ChinesePlayerResult:
        return next(player for player in self.players if player.name == name)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": CHINESE,
            "rules": self.preset.name,
            "players": [player.to_json(self.preset) for player in self.players],
            "matchups": [matchup.to_json() for matchup in self.matchups],
            "transfers": [transfer.to_json() for transfer in self.transfers_made],
        }


def score_chinese_deal(deal: ChineseDeal) -> ChineseDealResult:
    preset = deal.preset
    shown = {seat.name: show(seat.entry, preset) for seat in deal.players}
    pairs = deal_pairs(deal)
    outcomes = {pair: _outcome(deal, shown, *pair) for pair in pairs}
    scoops_all = _scooped_everyone(outcomes)
    matchups = tuple(
        ChineseMatchup(
            first,
            second,
            score_pair(
                shown[first],
                shown[second],
                preset,
                outcomes[first, second],
                Scoops(first in scoops_all, second in scoops_all),
            ),
            deal.unit_between(first, second),
        )
        for first, second in pairs
    )
    obligations = [
        (_obligation(matchup, points), settlement_pass, matchup)
        for settlement_pass in SettlementPass
        for matchup in matchups
        if (points := _pass_points(matchup.score, settlement_pass))
    ]
    settlement = settle(
        {seat.name: seat.stack for seat in deal.players},
        [obligation for obligation, _, _ in obligations],
        deal.settlement,
    )
    transfers = tuple(
        ChineseTransfer(transfer, settlement_pass, _why(matchup, settlement_pass, shown, transfer.creditor))
        for transfer, (_, settlement_pass, matchup) in zip(settlement.transfers, obligations, strict=True)
    )
    players = tuple(
        ChinesePlayerResult(
            seat.name,
            shown[seat.name],
            _net_points(seat.name, matchups),
            seat.stack,
            settlement.stacks_after[seat.name],
        )
        for seat in deal.players
    )
    return ChineseDealResult(preset, players, matchups, settlement, transfers)


def deal_pairs(deal: ChineseDeal) -> list[tuple[str, str]]:
    """The pairs that play, in settlement order: every pair, or in a bank game the bank's."""
    order = settlement_order([seat.name for seat in deal.players], deal.dealer, deal.settle_from)
    bank = deal.bank
    return [pair for pair in pair_order(order) if bank is None or bank in pair]


def _outcome(deal: ChineseDeal, shown: Mapping[str, Shown], first: str, second: str) -> Outcome | None:
    mine, theirs = shown[first], shown[second]
    if not (mine.compared_row_by_row and theirs.compared_row_by_row):
        return None
    bank_side = (first == deal.bank) - (second == deal.bank)
    return compare_rows(mine, theirs, bank_side)


def _scooped_everyone(outcomes: Mapping[tuple[str, str], Outcome | None]) -> set[str]:
    """Players who scooped every opponent compared with them row by row, two or more of them."""
    compared: dict[str, int] = {}
    scoops: dict[str, int] = {}
    for (first, second), outcome in outcomes.items():
        if outcome is None:
            continue
        for name, side in ((first, 1), (second, -1)):
            compared[name] = compared.get(name, 0) + 1
            scoops[name] = scoops.get(name, 0) + (scooped(outcome) == side)
    return {name for name, count in compared.items() if count >= 2 and scoops[name] == count}


def _pass_points(score: PairScore, settlement_pass: SettlementPass) -> int:
    return score.special if settlement_pass is SettlementPass.SPECIAL else score.rest


def _obligation(matchup: ChineseMatchup, points: int) -> Obligation:
    owed = abs(points) * matchup.unit
    if points > 0:
        return Obligation(matchup.second, matchup.first, owed)
    return Obligation(matchup.first, matchup.second, owed)


def _net_points(name: str, matchups: tuple[ChineseMatchup, ...]) -> int:
    total = 0
    for matchup in matchups:
        if name == matchup.first:
            total += matchup.score.total
        elif name == matchup.second:
            total -= matchup.score.total
    return total


def _why(
    matchup: ChineseMatchup, settlement_pass: SettlementPass, shown: Mapping[str, Shown], winner: str
) -> str:
    """The words on a transfer: what the winner is paid for."""
    loser = matchup.second if winner == matchup.first else matchup.first
    if settlement_pass is SettlementPass.SPECIAL:
        return _why_special(shown[winner], shown[loser], winner, loser)
    score = matchup.score
    if score.surrender:
        return f"{loser} surrendered"
    parts = []
    if score.outcome is not None and score.rows:
        bonuses = any(row.bonus for name in (winner, loser) for row in shown[name].rows or ())
        parts.append(
            _why_rows(score.outcome, winner == matchup.first, (winner, loser), shown[loser].misset, bonuses)
        )
    if score.aces:
        parts.append(f"aces: {winner} {shown[winner].aces}, {loser} {shown[loser].aces}")
    return "; ".join(parts)


def _why_special(winner_shown: Shown, loser_shown: Shown, winner: str, loser: str) -> str:
    mine, theirs = winner_shown.special, loser_shown.special
    assert mine is not None  # the special pass pays only the holder of a special
    if theirs is not None:
        return f"{winner}'s {mine.words} against {loser}'s {theirs.words}"
    return f"{winner}'s {mine.words} ({mine.units} units)"


def _why_rows(
    outcome: Outcome, first_won: bool, pair: tuple[str, str], loser_misset: bool, bonuses: bool
) -> str:
    """`pair` is (winner, loser) of the chips; the rows may have gone the other way under `always`."""
    winner, loser = pair
    won, lost = outcome.count(1), outcome.count(-1)
    if not first_won:
        won, lost = lost, won
    if loser_misset:
        words = f"{winner} scooped {loser}, whose hand is misset"
    elif won == len(outcome):
        words = f"{winner} scooped {loser}"
    else:
        words = f"rows: {winner} won {won}, {loser} won {lost}"
    return f"{words}, with row bonuses" if bonuses else words
