"""One finished Chinese poker deal scored and settled in two passes (docs/rules.md §10, §8, §11).

Every pair is scored by the preset's payment scheme (`schemes`; in a bank game only the bank's
pairs), then §8's settlement pays first every pair's special-hand payment, then every pair's rest,
in settlement order: one ledger for both passes, so the caps and used chips of the first carry into
the second (a `pool` or `single-winner` deal has no specials, so it settles in the one pass).

>>> from ofc_desk.core.chinese.presets import load_chinese_preset
>>> from ofc_desk.core.rows import SetHand
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
from typing import Any, Final, NamedTuple

from ofc_desk.core.chinese.pairs import PairScore
from ofc_desk.core.chinese.presets import ChinesePreset
from ofc_desk.core.chinese.schemes import PaymentOutcome, PaymentScheme, SchemeScore, payment_scheme
from ofc_desk.core.chinese.showdown import Entry, Showdown, Shown, ShownRow, show
from ofc_desk.core.hands import category_of
from ofc_desk.core.jackpot import JackpotResult, PairRows, RowClasses, jackpot_after_deal
from ofc_desk.core.presets import Game
from ofc_desk.core.results import (
    HandResult,
    ResultPair,
    ResultRow,
    ResultSeat,
    ResultTransfer,
    jackpot_view,
)
from ofc_desk.core.rows import ROWS
from ofc_desk.core.settlement import (
    Obligation,
    SettleFrom,
    Settlement,
    SettlementPass,
    SettlementPolicy,
    Transfer,
    pair_order,
    settle,
    settlement_order,
)

CHINESE: Final = Game.CHINESE.value
"""The `variant` word of a Chinese poker deal: the game's own name, as a preset file says it."""
MIN_PLAYERS, MAX_PLAYERS = 2, 4


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
    jackpot_pool: int | None = None
    """The room's jackpot pool before the deal, as `ofc-desk score` is given it; None when not given."""

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

    def view(self) -> ResultPair:
        outcome = self.score.outcome
        return ResultPair(
            first=self.first,
            second=self.second,
            points=self.score.rest,
            unit=self.unit,
            rows=None if outcome is None else (outcome[0], outcome[1], outcome[2]),
            scoop=None,
            royalties=None,
            foul_penalty=None,
            fouled=(),
            special=self.score.special,
        )


class ChinesePlayerResult(NamedTuple):
    name: str
    shown: Shown
    points: int
    stack_before: int
    stack_after: int

    def to_json(self, preset: ChinesePreset, award: int = 0) -> dict[str, Any]:
        """`award`: the chips the jackpot gave the player, on the stack after the deal."""
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
            "stack_after": self.stack_after + award,
        }

    def view(self, preset: ChinesePreset, award: int = 0) -> ResultSeat:
        """The player's line as `to_json(preset, award)` gives it, typed."""
        shown = self.shown
        special = shown.special
        surrendered = shown.entry.surrendered
        rows = _rows_view(shown.rows)
        return ResultSeat(
            name=self.name,
            stack_before=self.stack_before,
            stack_after=self.stack_after + award,
            points=self.points,
            foul=shown.misset,
            foul_reason=shown.misset_reason or None,
            rows=rows,
            royalties=sum(row.points for row in rows or ()),
            fantasyland_next=0,
            showdown=Showdown(
                surrendered,
                special.kind if special else None,
                None if surrendered or not preset.aces else shown.aces,
            ),
        )


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


def _rows_view(
    rows: tuple[ShownRow, ShownRow, ShownRow] | None,
) -> tuple[ResultRow, ResultRow, ResultRow] | None:
    if rows is None:
        return None
    front, middle, back = (
        ResultRow(row, shown.cards, shown.hand, shown.bonus) for row, shown in zip(ROWS, rows, strict=True)
    )
    return front, middle, back


class ChineseTransfer(NamedTuple):
    transfer: Transfer
    settlement_pass: SettlementPass
    why: str
    """What the chips are for, as a floor supervisor reads it ("Bob's dragon", "Ann surrendered")."""

    def to_json(self) -> dict[str, object]:
        return {**self.transfer.to_json(), "pass": self.settlement_pass.value, "for": self.why}

    def view(self) -> ResultTransfer:
        t = self.transfer
        return ResultTransfer(t.debtor, t.creditor, t.owed, t.paid, t.reason, self.settlement_pass, self.why)


class ChineseDealResult(NamedTuple):
    preset: ChinesePreset
    players: tuple[ChinesePlayerResult, ...]
    matchups: tuple[ChineseMatchup, ...]
    settlement: Settlement
    transfers_made: tuple[ChineseTransfer, ...]
    payment_outcome: PaymentOutcome | None = None
    """A `pool` deal's row winners or a `single-winner` deal's winner; None under `pairs`."""

    @property
    def transfers(self) -> tuple[Transfer, ...]:
        return self.settlement.transfers

    def player(self, name: str) -> ChinesePlayerResult:
        return next(player for player in self.players if player.name == name)

    def to_json(self, jackpot: JackpotResult | None = None) -> dict[str, Any]:
        """The result as `ofc-desk score` answers it; with `jackpot`, its object and each player's
        stack after the deal with the award on it."""
        answer: dict[str, Any] = {
            "variant": CHINESE,
            "rules": self.preset.name,
            "players": [
                player.to_json(self.preset, jackpot.chips_for(player.name) if jackpot else 0)
                for player in self.players
            ],
            "matchups": [matchup.to_json() for matchup in self.matchups],
            "transfers": [transfer.to_json() for transfer in self.transfers_made],
        }
        if self.payment_outcome is not None:
            answer["payment"] = self.payment_outcome.to_json()
        if jackpot is not None:
            answer["jackpot"] = jackpot.to_json()
        return answer

    def transfers_view(self) -> tuple[ResultTransfer, ...]:
        return tuple(transfer.view() for transfer in self.transfers_made)

    def view(self, jackpot: JackpotResult | None = None) -> HandResult:
        """The result `to_json(jackpot)` stores, typed: what the faces read."""
        return HandResult(
            game=Game.CHINESE,
            preset=self.preset.name,
            seats=tuple(
                player.view(self.preset, jackpot.chips_for(player.name) if jackpot else 0)
                for player in self.players
            ),
            pairs=tuple(matchup.view() for matchup in self.matchups),
            transfers=self.transfers_view(),
            payment=self.payment_outcome,
            jackpot=jackpot_view(jackpot),
        )


def score_chinese_deal(deal: ChineseDeal) -> ChineseDealResult:
    preset = deal.preset
    _refuse_unplayed_entries(deal)
    shown = {seat.name: show(seat.entry, preset) for seat in deal.players}
    pairs = deal_pairs(deal)
    scheme = payment_scheme(preset.payment.payment)
    scored = scheme.score(preset, shown, pairs, deal.bank)
    matchups = tuple(
        ChineseMatchup(first, second, scored.scores[first, second], deal.unit_between(first, second))
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
        ChineseTransfer(
            transfer,
            settlement_pass,
            _why(matchup, settlement_pass, shown, (scheme, scored), transfer.creditor),
        )
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
    return ChineseDealResult(preset, players, matchups, settlement, transfers, scored.outcome)


def _refuse_unplayed_entries(deal: ChineseDeal) -> None:
    """A surrender or a declaration the preset does not play never reaches the scoring: the desk
    and `ofc-desk score` refuse it when it is entered."""
    for seat in deal.players:
        refusal = deal.preset.unplayed(
            surrender=seat.entry.surrendered, declaration=seat.entry.declared is not None
        )
        if refusal:
            raise ValueError(f"{seat.name}: {refusal}")


def chinese_jackpot(
    deal: ChineseDeal, result: ChineseDealResult, pool_before: int, drop: int = 0
) -> JackpotResult:
    """What the room's jackpot pays after this deal (docs/rules.md §11), from the pool as it stands
    before the deal and this hand's drop (taken after settlement, with the rake): the call a table
    makes once the hand's rake is known."""
    names = [seat.name for seat in deal.players]
    return jackpot_after_deal(deal.preset.jackpot_award, jackpot_pairs(result), names, pool_before, drop)


def jackpot_pairs(result: ChineseDealResult) -> list[PairRows]:
    """The pairs that played, in settlement order, as the award looks at them: each pair's rows as
    the game compared them (the bank takes a tied row), and the row classes of a hand that can
    qualify (set, not misset)."""
    classes = {player.name: _row_classes(player.shown) for player in result.players}
    return [
        PairRows(
            matchup.first,
            matchup.second,
            matchup.score.outcome,
            classes[matchup.first],
            classes[matchup.second],
        )
        for matchup in result.matchups
    ]


def _row_classes(shown: Shown) -> RowClasses | None:
    if shown.rows is None or shown.misset:
        return None
    front, middle, back = (category_of(row.value) for row in shown.rows)
    return (front, middle, back)


def deal_pairs(deal: ChineseDeal) -> list[tuple[str, str]]:
    """The pairs that play, in settlement order: every pair, or in a bank game the bank's."""
    order = settlement_order([seat.name for seat in deal.players], deal.dealer, deal.settle_from)
    bank = deal.bank
    return [pair for pair in pair_order(order) if bank is None or bank in pair]


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
    matchup: ChineseMatchup,
    settlement_pass: SettlementPass,
    shown: Mapping[str, Shown],
    paid_by: tuple[PaymentScheme, SchemeScore],
    winner: str,
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
        scheme, scored = paid_by
        parts.append(scheme.rows_words((matchup.first, matchup.second), score, shown, scored, winner))
    if score.aces:
        parts.append(f"aces: {winner} {shown[winner].aces}, {loser} {shown[loser].aces}")
    return "; ".join(parts)


def _why_special(winner_shown: Shown, loser_shown: Shown, winner: str, loser: str) -> str:
    mine, theirs = winner_shown.special, loser_shown.special
    assert mine is not None  # the special pass pays only the holder of a special
    if theirs is not None:
        return f"{winner}'s {mine.words} against {loser}'s {theirs.words}"
    return f"{winner}'s {mine.words} ({mine.units} units)"
