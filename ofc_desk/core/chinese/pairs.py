"""The result between two Chinese poker players, from the first one's side (docs/rules.md §10).

A pair's result has two parts, settled in two passes: the special-hand payment, then the rest
(rows and their bonuses, surrender, aces).

>>> from ofc_desk.core.chinese.presets import load_chinese_preset
>>> from ofc_desk.core.chinese.showdown import show
>>> from ofc_desk.core.ofc.scoring import SetHand
>>> typical = load_chinese_preset("chinese-typical")
>>> a = show(SetHand.parse("6s 6h 6d", "4s 4h 4d 9s 9h", "Ks Kh Kd 8s 8h"), typical)
>>> b = show(SetHand.parse("Qs Qh 7d", "Js Jh Jd 2s 2h", "5s 5h 5d 5c Ad"), typical)
>>> outcome = compare_rows(a, b, bank_side=0)
>>> outcome
(1, -1, -1)
>>> score_pair(a, b, typical, outcome, Scoops()).rest
-3
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ofc_desk.core.chinese.presets import BonusMode, ChinesePreset, Scheme, SpecialVsSpecial
from ofc_desk.core.chinese.showdown import Shown

Outcome = tuple[int, int, int]
"""Per row (front, middle, back): 1 the first player won it, -1 the second did, 0 a tie."""
ROWS_IN_HAND = 3


class Scoops(NamedTuple):
    """Whether each player of the pair scooped every opponent compared row by row (two or more),
    and how many opponents each scooped this deal (the scoop count of §13)."""

    first_all: bool = False
    second_all: bool = False
    first_count: int = 0
    second_count: int = 0


class PairScore(NamedTuple):
    """Units between two players, from the first one's side."""

    special: int
    """The special-hand pass."""
    rows: int
    """Rows, their bonuses, sweeps, the overall point and multipliers (or the majority scheme)."""
    surrender: int
    aces: int
    outcome: Outcome | None
    """The row-by-row result, None when the two were not compared row by row."""

    @property
    def rest(self) -> int:
        """The second pass: everything but the special hands."""
        return self.rows + self.surrender + self.aces

    @property
    def total(self) -> int:
        return self.special + self.rest


def compare_rows(first: Shown, second: Shown, bank_side: int) -> Outcome:
    """Row by row, misset hands losing every row (§10); `bank_side` is 1 when the first player is
    the bank of a bank game, -1 when the second is, 0 otherwise: the bank takes a tied row."""
    if first.misset or second.misset:
        result = 0 if first.misset and second.misset else (-1 if first.misset else 1)
        return (result, result, result)
    assert first.rows is not None and second.rows is not None  # both compared row by row
    front, middle, back = (
        (mine.value > theirs.value) - (mine.value < theirs.value) or bank_side
        for mine, theirs in zip(first.rows, second.rows, strict=True)
    )
    return (front, middle, back)


def scooped(outcome: Outcome) -> int:
    """1 when the first player won all three rows, -1 when the second did, else 0."""
    if outcome.count(1) == ROWS_IN_HAND:
        return 1
    return -1 if outcome.count(-1) == ROWS_IN_HAND else 0


def score_pair(
    first: Shown, second: Shown, preset: ChinesePreset, outcome: Outcome | None, scoops: Scoops
) -> PairScore:
    if first.entry.surrendered or second.entry.surrendered:
        # A preset without a surrender (None) takes none: the entry was refused before scoring.
        paid = (second.entry.surrendered - first.entry.surrendered) * (preset.surrender or 0)
        return PairScore(0, 0, paid, 0, None)
    aces = aces_units(first, second, preset)
    special = _special(first, second, preset)
    if outcome is None:
        return PairScore(special, 0, 0, aces, None)
    return PairScore(special, _rows(first, second, preset, outcome, scoops), 0, aces, outcome)


def aces_units(first: Shown, second: Shown, preset: ChinesePreset) -> int:
    """The aces option between two players who did not surrender, from the first one's side."""
    return preset.aces_worth(first.aces) - preset.aces_worth(second.aces) if preset.aces else 0


def _special(first: Shown, second: Shown, preset: ChinesePreset) -> int:
    mine, theirs = first.special, second.special
    if mine is None or theirs is None:
        return (mine.units if mine else 0) - (theirs.units if theirs else 0)
    if preset.special_vs_special is SpecialVsSpecial.DIFFERENCE:
        return mine.units - theirs.units
    if mine.kind is theirs.kind:
        return 0
    # `higher`: the one later in the preset's list takes its full units, whatever the numbers.
    return mine.units if preset.special_rank(mine) > preset.special_rank(theirs) else -theirs.units


def _rows(first: Shown, second: Shown, preset: ChinesePreset, outcome: Outcome, scoops: Scoops) -> int:
    if first.misset and second.misset:
        return 0
    mine, theirs = _bonuses(first), _bonuses(second)
    if preset.scheme is Scheme.MAJORITY:
        base = _majority(outcome, preset, scoops)
    else:
        base = _won_rows(outcome, mine, theirs, preset)
    if preset.bonus_mode is BonusMode.EXTRA:
        base += sum(
            mine[row] if result > 0 else -theirs[row] if result < 0 else 0
            for row, result in enumerate(outcome)
        )
    elif preset.bonus_mode is BonusMode.ALWAYS:
        base += sum(mine) - sum(theirs)
    return base if preset.scheme is Scheme.MAJORITY else _sweep_and_multiply(base, outcome, preset, scoops)


def _bonuses(shown: Shown) -> Sequence[int]:
    return [row.bonus for row in shown.rows] if shown.rows is not None else [0, 0, 0]


def _won_rows(outcome: Outcome, mine: Sequence[int], theirs: Sequence[int], preset: ChinesePreset) -> int:
    """Step 1 of the rows scheme: a row won is worth 1, or its bonus under `instead`."""
    instead = preset.bonus_mode is BonusMode.INSTEAD

    def worth(bonus: int) -> int:
        return bonus if instead and bonus else 1

    return sum(
        worth(mine[row]) if result > 0 else -worth(theirs[row]) if result < 0 else 0
        for row, result in enumerate(outcome)
    )


def _sweep_and_multiply(points: int, outcome: Outcome, preset: ChinesePreset, scoops: Scoops) -> int:
    """Steps 2–4 of the rows scheme: the sweep, the overall point, then the scoop multipliers."""
    scoop = scooped(outcome)
    points += scoop * preset.sweep
    points += preset.overall_point * ((points > 0) - (points < 0))
    if scoop and preset.house.scoop_multipliers is not None:
        return points * preset.house.multiplier(scoops.first_count if scoop > 0 else scoops.second_count)
    if scoop > 0:
        return points * (preset.scoop_all_multiplier if scoops.first_all else preset.scoop_multiplier)
    if scoop < 0:
        return points * (preset.scoop_all_multiplier if scoops.second_all else preset.scoop_multiplier)
    return points


def _majority(outcome: Outcome, preset: ChinesePreset, scoops: Scoops) -> int:
    """The majority scheme: more rows won takes `majority`, a scoop `scoop` or `scoop_all`."""
    scoop = scooped(outcome)
    if scoop > 0:
        return preset.scoop_all if scoops.first_all else preset.scoop
    if scoop < 0:
        return -(preset.scoop_all if scoops.second_all else preset.scoop)
    won, lost = outcome.count(1), outcome.count(-1)
    return preset.majority * ((won > lost) - (won < lost))
