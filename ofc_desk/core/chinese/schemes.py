"""The payment schemes of closed Chinese poker (docs/rules.md §10–§11): how each pair's result is
worked out, chosen by the preset's `payment` (`payment_scheme`).

Every scheme gives each pair that plays a `PairScore` from the first player's side, with the pair's
row-by-row outcome (what the jackpot for unusual events looks at); settlement is the deal's, in
§8's order. `pairs` is §10; `pool` and `single-winner` are §11's, settled in one pass with the aces
(when on) added to each pair's result.

>>> from ofc_desk.core.chinese.presets import load_chinese_preset
>>> from ofc_desk.core.chinese.showdown import show
>>> from ofc_desk.core.rows import SetHand
>>> pool = load_chinese_preset("pool")
>>> shown = {"Ann": show(SetHand.parse("Ah Kd 2c", "3s 3h 7d 8c 9s", "Ts Js Qs Ks 2s"), pool),
...          "Bob": show(SetHand.parse("Qh Qd 4c", "5s 5h 5d 8d 9d", "6c 6d 6h 4d 4h"), pool),
...          "Cy": show(SetHand.parse("Kh Jd 3c", "2d 2h 7c Td Tc", "Ad As Ac 7s 7h"), pool)}
>>> scored = payment_scheme(pool.payment.payment).score(pool, shown, [("Ann", "Bob"), ("Ann", "Cy"),
...     ("Bob", "Cy")], bank=None)
>>> scored.outcome.to_json() if scored.outcome else None
{'payment': 'pool', 'row_winners': {'front': 'Bob', 'middle': 'Bob', 'back': 'Cy'}}
>>> [scored.scores[pair].rows for pair in [("Ann", "Bob"), ("Ann", "Cy"), ("Bob", "Cy")]]
[-2, -1, 1]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, NamedTuple, Protocol

from ofc_desk.core.chinese.pairs import (
    ROWS_IN_HAND,
    Outcome,
    PairScore,
    Scoops,
    aces_units,
    compare_rows,
    scooped,
    score_pair,
)
from ofc_desk.core.chinese.payment import Payment
from ofc_desk.core.chinese.presets import BonusMode, ChinesePreset
from ofc_desk.core.chinese.showdown import Shown
from ofc_desk.core.results import HandPart, HandResult
from ofc_desk.core.rows import ROWS

Pair = tuple[str, str]
ROWS_TO_WIN_THE_DEAL: Final = 2


@dataclass(frozen=True)
class PaymentOutcome(HandPart):
    """What a `pool` or `single-winner` deal came to, as a whole: the row winners or the winner
    (the Chinese part of a hand's result, `HandResult.payment`)."""

    payment: Payment
    row_winners: tuple[str | None, ...] = ()
    """Under `pool`: the winner of the front, the middle and the back, None for a row nobody won."""
    winner: str | None = None
    """Under `single-winner`: the deal's winner, None when nobody won it."""

    def to_json(self) -> dict[str, Any]:
        if self.payment is Payment.POOL:
            winners = dict(zip((row.value for row in ROWS), self.row_winners, strict=True))
            return {"payment": self.payment.value, "row_winners": winners}
        return {"payment": self.payment.value, "winner": self.winner}


def payment_outcome(result: HandResult) -> PaymentOutcome | None:
    """A hand's whole-deal outcome, where a `pool` or `single-winner` deal has one."""
    part = result.payment
    return part if isinstance(part, PaymentOutcome) else None


class ScoopMultiplied(NamedTuple):
    """A pair's scoop multiplied by the house's `scoop_multipliers` (§13)."""

    times: int
    scoops: int
    """The scooper's scoop count this deal."""


class RankBonus(NamedTuple):
    """A row bonus a pair's result counts that the house pays by the hand's rank (§13)."""

    player: str
    row: int
    units: int


class SchemeScore(NamedTuple):
    scores: Mapping[Pair, PairScore]
    outcome: PaymentOutcome | None
    """None under `pairs`, whose result is every pair's own."""
    multiplied: Mapping[Pair, ScoopMultiplied] = MappingProxyType({})
    rank_bonuses: Mapping[Pair, tuple[RankBonus, ...]] = MappingProxyType({})
    """The §13 options that paid in a pair, for its "why" words; empty at their defaults."""


class PaymentScheme(Protocol):
    def score(
        self, preset: ChinesePreset, shown: Mapping[str, Shown], pairs: Sequence[Pair], bank: str | None
    ) -> SchemeScore:
        """Every pair's result, `pairs` in settlement order, `shown` in seat order."""

    def rows_words(
        self, pair: Pair, score: PairScore, shown: Mapping[str, Shown], deal: SchemeScore, winner: str
    ) -> str:
        """What a payment's rows part is for, as a floor supervisor reads it; `winner` is paid."""


def payment_scheme(payment: Payment) -> PaymentScheme:
    return _SCHEMES[payment]


class PairsScheme:
    """§10: every pair compared row by row (bank games: the bank's pairs), specials, surrender."""

    def score(
        self, preset: ChinesePreset, shown: Mapping[str, Shown], pairs: Sequence[Pair], bank: str | None
    ) -> SchemeScore:
        outcomes = {pair: _outcome(shown, *pair, bank) for pair in pairs}
        compared, scoops = _scoop_counts(outcomes)
        scoops_all = {name for name, count in compared.items() if count >= 2 and scoops[name] == count}
        scores = {
            (first, second): score_pair(
                shown[first],
                shown[second],
                preset,
                outcomes[first, second],
                Scoops(first in scoops_all, second in scoops_all, scoops[first], scoops[second]),
            )
            for first, second in pairs
        }
        multiplied = {
            pair: ScoopMultiplied(preset.house.multiplier(scoops[scooper]), scoops[scooper])
            for pair, outcome in outcomes.items()
            if preset.house.scoop_multipliers is not None
            and outcome is not None
            and (scooper := _scooper(pair, outcome))
        }
        ranked = {pair: _rank_bonuses(preset, shown, pair, outcomes[pair]) for pair in pairs}
        return SchemeScore(scores, None, multiplied, {pair: paid for pair, paid in ranked.items() if paid})

    def rows_words(
        self, pair: Pair, score: PairScore, shown: Mapping[str, Shown], deal: SchemeScore, winner: str
    ) -> str:
        """`winner` is paid; the rows may have gone the other way under `always`."""
        assert score.outcome is not None  # a rows part comes from hands compared row by row
        first, second = pair
        loser = second if winner == first else first
        won, lost = score.outcome.count(1), score.outcome.count(-1)
        if winner != first:
            won, lost = lost, won
        if shown[loser].misset:
            words = f"{winner} scooped {loser}, whose hand is misset"
        elif won == ROWS_IN_HAND:
            words = f"{winner} scooped {loser}"
        else:
            words = f"rows: {winner} won {won}, {loser} won {lost}"
        if any(row.bonus for name in pair for row in shown[name].rows or ()):
            words += ", with row bonuses"
        for paid in deal.rank_bonuses.get(pair, ()):
            words += f", {paid.player}'s {ROWS[paid.row].value} paid {paid.units} by rank"
        if pair in deal.multiplied:
            times, scoops = deal.multiplied[pair]
            words += f", ×{times} for {scoops} scoop{'' if scoops == 1 else 's'}"
        return words


def _scooper(pair: Pair, outcome: Outcome) -> str | None:
    side = scooped(outcome)
    return None if not side else pair[0] if side > 0 else pair[1]


def _rank_bonuses(
    preset: ChinesePreset, shown: Mapping[str, Shown], pair: Pair, outcome: Outcome | None
) -> tuple[RankBonus, ...]:
    """The rows of the pair whose bonus, paid by rank, the result counts: every one under
    `always`, a row its holder won under `instead` and `extra`."""
    if outcome is None:
        return ()
    every_row = preset.bonus_mode is BonusMode.ALWAYS
    return tuple(
        RankBonus(name, row, hand_row.bonus)
        for name, side in zip(pair, (1, -1), strict=True)
        for row, hand_row in enumerate(shown[name].rows or ())
        if hand_row.by_rank and hand_row.bonus and (every_row or outcome[row] == side)
    )


def _outcome(shown: Mapping[str, Shown], first: str, second: str, bank: str | None) -> Outcome | None:
    mine, theirs = shown[first], shown[second]
    if not (mine.compared_row_by_row and theirs.compared_row_by_row):
        return None
    return compare_rows(mine, theirs, (first == bank) - (second == bank))


def _scoop_counts(outcomes: Mapping[Pair, Outcome | None]) -> tuple[dict[str, int], dict[str, int]]:
    """Per player, how many opponents were compared with them row by row, and how many of those
    they scooped (a misset opponent is scooped; surrendered and declaring ones are not compared)."""
    compared: dict[str, int] = {name: 0 for pair in outcomes for name in pair}
    scoops: dict[str, int] = dict(compared)
    for (first, second), outcome in outcomes.items():
        if outcome is None:
            continue
        for name, side in ((first, 1), (second, -1)):
            compared[name] += 1
            scoops[name] += scooped(outcome) == side
    return compared, scoops


class PoolScheme:
    """§11 `pool`: each row's one strongest hand (misset hands left out) collects `pool_row` from
    every other player; a player who wins all three rows collects `pool_scoop` more."""

    def score(
        self, preset: ChinesePreset, shown: Mapping[str, Shown], pairs: Sequence[Pair], bank: str | None
    ) -> SchemeScore:
        winners = tuple(_row_winner(shown, row) for row in range(ROWS_IN_HAND))
        rules = preset.payment
        scores = {}
        for first, second in pairs:
            won, lost = winners.count(first), winners.count(second)
            scoop = (won == ROWS_IN_HAND) - (lost == ROWS_IN_HAND)
            points = rules.pool_row * (won - lost) + rules.pool_scoop * scoop
            scores[first, second] = _one_pass(preset, shown[first], shown[second], points)
        return SchemeScore(scores, PaymentOutcome(Payment.POOL, row_winners=winners))

    def rows_words(
        self, pair: Pair, score: PairScore, shown: Mapping[str, Shown], deal: SchemeScore, winner: str
    ) -> str:
        """ "the pool: Bob won the front and the middle, Ann the back"."""
        assert deal.outcome is not None  # the pool's row winners
        winners = deal.outcome.row_winners
        loser = pair[1] if winner == pair[0] else pair[0]
        if winners.count(winner) == ROWS_IN_HAND:
            return f"the pool: {winner} won all three rows"
        won = [f"{name} won the {_rows_won(winners, name)}" for name in (winner, loser) if name in winners]
        return "the pool: " + ", ".join(won)


def _rows_won(winners: Sequence[str | None], name: str) -> str:
    rows = [ROWS[row].value for row, winner in enumerate(winners) if winner == name]
    return " and the ".join(rows)


def _row_winner(shown: Mapping[str, Shown], row: int) -> str | None:
    """The one player whose hand in that row is stronger than every other set hand's; None when
    two or more share the strongest (the row's units are not split) or nobody set a hand."""
    values = {
        name: hand.rows[row].value
        for name, hand in shown.items()
        if hand.rows is not None and not hand.misset
    }
    if not values:
        return None
    best = max(values.values())
    strongest = [name for name, value in values.items() if value == best]
    return strongest[0] if len(strongest) == 1 else None


def _one_pass(preset: ChinesePreset, first: Shown, second: Shown, points: int) -> PairScore:
    """A §11 pair result: the payment's points and the aces, compared row by row for the record."""
    return PairScore(0, points, 0, aces_units(first, second, preset), compare_rows(first, second, 0))


class SingleWinnerScheme:
    """§11 `single-winner`: the player who wins at least two rows against every other player
    collects `stake` from each of them; nobody else pays anybody."""

    def score(
        self, preset: ChinesePreset, shown: Mapping[str, Shown], pairs: Sequence[Pair], bank: str | None
    ) -> SchemeScore:
        outcomes = {pair: compare_rows(shown[pair[0]], shown[pair[1]], 0) for pair in pairs}
        winner = next((name for name in shown if _beats_everyone(name, outcomes)), None)
        stake = preset.payment.stake
        scores = {
            (first, second): _one_pass(
                preset, shown[first], shown[second], stake * ((first == winner) - (second == winner))
            )
            for first, second in pairs
        }
        return SchemeScore(scores, PaymentOutcome(Payment.SINGLE_WINNER, winner=winner))

    def rows_words(
        self, pair: Pair, score: PairScore, shown: Mapping[str, Shown], deal: SchemeScore, winner: str
    ) -> str:
        return f"{winner} won the deal: two rows or more against every other player"


def _beats_everyone(name: str, outcomes: Mapping[Pair, Outcome]) -> bool:
    return all(
        outcome.count(1 if first == name else -1) >= ROWS_TO_WIN_THE_DEAL
        for (first, second), outcome in outcomes.items()
        if name in (first, second)
    )


_SCHEMES: Final[Mapping[Payment, PaymentScheme]] = {
    Payment.PAIRS: PairsScheme(),
    Payment.POOL: PoolScheme(),
    Payment.SINGLE_WINNER: SingleWinnerScheme(),
}
