"""The jackpot for unusual events (docs/rules.md §11), the same for every game.

A preset's `jackpot_award` names the least hand class each row of a losing hand must hold and the
shares of the room's pool the award pays. A game lists its pairs' row results in settlement order
(`PairRows`); `qualifying_pair` finds the first pair in which such a hand lost all three rows, and
`pay_jackpot` pays the shares out of the pool as it stands after the hand's drop. Both are pure:
the pool and the drop in, the award and the pool after out.

>>> award = JackpotAward.from_json({"front": "pair", "middle": "three-of-a-kind",
...     "back": "straight-flush", "loser": 50, "winner": 25, "table": 25})
>>> paid = pay_jackpot(award, Qualifier("Bob", "Ann"), ["Ann", "Bob", "Cy", "Dee"], 1000)
>>> dict(paid.award.chips) if paid.award else None, paid.pool_after
({'Ann': 250, 'Bob': 500, 'Cy': 125, 'Dee': 125}, 0)
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from ofc_desk.core.hands import HandClass
from ofc_desk.core.rows import ROWS, Row
from ofc_desk.i18n import _

AWARD_CLASSES: Final[Mapping[str, HandClass]] = MappingProxyType({
    "high-card": HandClass.HIGH_CARD,
    "pair": HandClass.PAIR,
    "two-pair": HandClass.TWO_PAIR,
    "three-of-a-kind": HandClass.TRIPS,
    "straight": HandClass.STRAIGHT,
    "flush": HandClass.FLUSH,
    "full-house": HandClass.FULL_HOUSE,
    "four-of-a-kind": HandClass.QUADS,
    "straight-flush": HandClass.STRAIGHT_FLUSH,
})  # fmt: skip
"""The class names an award may give, weakest first (a royal flush holds a straight flush)."""
FRONT_MOST: Final = HandClass.TRIPS
"""Three cards hold at most three of a kind: a front class above it could never be held."""
SHARES: Final = ("loser", "winner", "table")
WHOLE_POOL: Final = 100
RowClasses = tuple[HandClass, HandClass, HandClass]
"""The hand class of a front, a middle and a back."""
ROWS_LOST: Final = (-1, -1, -1)
ROWS_WON: Final = (1, 1, 1)


class AwardRulesError(ValueError):
    """A `jackpot_award` that cannot be played; the message names the field."""


@dataclass(frozen=True)
class JackpotAward:
    """The least class per row (front, middle, back) and the pool's shares in percent."""

    least: RowClasses
    loser: int
    winner: int
    table: int

    @classmethod
    def from_json(cls, value: Any, path: str = "jackpot_award") -> "JackpotAward":
        """Read from preset data: all three rows and all three shares, whole numbers from 0 to 100
        adding up to at most 100, a front class no higher than three of a kind."""
        if not isinstance(value, Mapping):
            said = _("{field} must be null or an object of the three rows' classes and three shares")
            raise AwardRulesError(said.format(field=path))
        unknown = sorted(set(value) - {row.value for row in ROWS} - set(SHARES))
        if unknown:
            said = _("{field} is not a jackpot_award field (front, middle, back, {shares})")
            raise AwardRulesError(said.format(field=f"{path}.{unknown[0]}", shares=", ".join(SHARES)))
        front, middle, back = (_least_class(value, row, path) for row in ROWS)
        loser, winner, table = (_share(value, share, path) for share in SHARES)
        if loser + winner + table > WHOLE_POOL:
            said = _("{field}: the shares add up to {percent} percent of the pool; at most 100")
            raise AwardRulesError(said.format(field=path, percent=loser + winner + table))
        return cls((front, middle, back), loser, winner, table)

    def held_by(self, classes: Sequence[HandClass] | None) -> bool:
        """Whether a hand whose rows have these classes holds at least the award's in every row."""
        return classes is not None and all(
            held >= least for held, least in zip(classes, self.least, strict=True)
        )


def read_jackpot_award(value: Any, path: str = "jackpot_award") -> JackpotAward | None:
    """`null` (no award, the default) or an award."""
    return None if value is None else JackpotAward.from_json(value, path)


def _least_class(value: Mapping[str, Any], row: Row, path: str) -> HandClass:
    where = f"{path}.{row.value}"
    if row.value not in value:
        raise AwardRulesError(
            _("{field} is missing: an award names the least class of every row").format(field=where)
        )
    name = value[row.value]
    if not isinstance(name, str) or name not in AWARD_CLASSES:
        names = ", ".join(AWARD_CLASSES)
        said = _("{field}: {name} is not a hand class ({names})")
        raise AwardRulesError(said.format(field=where, name=repr(name), names=names))
    least = AWARD_CLASSES[name]
    if row is Row.FRONT and least > FRONT_MOST:
        said = _("{field}: a front of three cards never holds {name}; at most three-of-a-kind")
        raise AwardRulesError(said.format(field=where, name=name))
    return least


def _share(value: Mapping[str, Any], share: str, path: str) -> int:
    where = f"{path}.{share}"
    if share not in value:
        said = _("{field} is missing: an award gives the loser's, the winner's and the table's shares")
        raise AwardRulesError(said.format(field=where))
    percent = value[share]
    if isinstance(percent, bool) or not isinstance(percent, int) or not 0 <= percent <= WHOLE_POOL:
        said = _("{field} must be a whole number of percent from 0 to 100, not {value}")
        raise AwardRulesError(said.format(field=where, value=repr(percent)))
    return percent


class PairRows(NamedTuple):
    """One pair of a deal as its game compared them, for the award's search."""

    first: str
    second: str
    rows: tuple[int, int, int] | None
    """Front, middle, back from the first player's side: 1 won, -1 lost, 0 tied; None when the two
    were not compared row by row (a surrender or a declared special)."""
    first_classes: RowClasses | None
    """The classes of the first player's rows; None when that hand cannot qualify (misset or
    fouled, surrendered, declared)."""
    second_classes: RowClasses | None


class Qualifier(NamedTuple):
    loser: str
    winner: str


def qualifying_pair(award: JackpotAward | None, pairs: Iterable[PairRows]) -> Qualifier | None:
    """The first pair, in the order given (the deal's settlement order), in which a hand holding
    the award's classes lost all three rows to the other: at most one award a deal."""
    if award is None:
        return None
    for pair in pairs:
        if pair.rows == ROWS_LOST and award.held_by(pair.first_classes):
            return Qualifier(pair.first, pair.second)
        if pair.rows == ROWS_WON and award.held_by(pair.second_classes):
            return Qualifier(pair.second, pair.first)
    return None


class AwardPaid(NamedTuple):
    loser: str
    winner: str
    chips: Mapping[str, int]
    """Every player dealt in with the chips the award gives them (0 included), in seat order."""

    @property
    def total(self) -> int:
        return sum(self.chips.values())

    def to_json(self) -> dict[str, Any]:
        return {"loser": self.loser, "winner": self.winner, "chips": dict(self.chips)}


class JackpotResult(NamedTuple):
    pool_before: int
    """The room's pool before the deal."""
    drop: int
    """This hand's drop into the pool (part of its rake), added before the award is paid."""
    pool_after: int
    award: AwardPaid | None

    def chips_for(self, name: str) -> int:
        return self.award.chips.get(name, 0) if self.award is not None else 0

    def to_json(self) -> dict[str, Any]:
        """The `jackpot` object of `ofc-desk score`'s answer."""
        return {
            "pool_before": self.pool_before,
            "pool_after": self.pool_after,
            "award": self.award.to_json() if self.award is not None else None,
        }


def answered_jackpot(
    pool: int | None, award: JackpotAward | None, pay: Callable[[int], JackpotResult]
) -> JackpotResult | None:
    """The `jackpot` of `ofc-desk score`'s answer: there when the deal carries a pool or its preset
    an award; the pool is 0 when left out, and the command takes no rake, so `pay` pays from the
    pool as given."""
    if pool is None and award is None:
        return None
    return pay(pool or 0)


def jackpot_after_deal(
    award: JackpotAward | None,
    pairs: Iterable[PairRows],
    dealt_in: Sequence[str],
    pool_before: int,
    drop: int = 0,
) -> JackpotResult:
    """The award a deal's pairs (in settlement order) win from the pool, and the pool after it."""
    qualifier = qualifying_pair(award, pairs) if award is not None else None
    return pay_jackpot(award, qualifier, dealt_in, pool_before, drop)


def pay_jackpot(
    award: JackpotAward | None,
    qualifier: Qualifier | None,
    dealt_in: Sequence[str],
    pool_before: int,
    drop: int = 0,
) -> JackpotResult:
    """The award out of the pool P = `pool_before` + `drop`: the loser ⌊P × loser / 100⌋, the
    winner ⌊P × winner / 100⌋, and ⌊P × table / 100⌋ split equally among every other player dealt
    in, each ⌊share / their number⌋. What rounding leaves stays in the pool. An award is paid, with
    0 chips, from an empty pool too."""
    if pool_before < 0 or drop < 0:
        raise ValueError(f"a jackpot pool of {pool_before} and a drop of {drop}: neither may be below 0")
    pool = pool_before + drop
    if award is None or qualifier is None:
        return JackpotResult(pool_before, drop, pool, None)
    table = [name for name in dealt_in if name not in qualifier]
    each = pool * award.table // WHOLE_POOL // len(table) if table else 0
    shares = {
        qualifier.loser: pool * award.loser // WHOLE_POOL,
        qualifier.winner: pool * award.winner // WHOLE_POOL,
    }
    chips = {name: shares.get(name, each) for name in dealt_in}
    paid = AwardPaid(qualifier.loser, qualifier.winner, MappingProxyType(chips))
    return JackpotResult(pool_before, drop, pool - paid.total, paid)
