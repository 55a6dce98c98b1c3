"""A settled hand's result, typed, for both games: what the desk, the floor and the reports read.

The core's `DealResult.view()` and `ChineseDealResult.view()` give it for a hand just scored, and
`core.stored_results.read_hand_result` reads it back from a stored result, each game's part by its
own package (`core/ofc/result_reader.py`, `core/chinese/result_reader.py`) with the reader here. The
stored text is never written from the view: the core's `to_json()` stays the one writer of stored
results.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple, TypeVar

from ofc_desk.core.cards import Card, CardError, parse_cards
from ofc_desk.core.jackpot import AwardPaid, JackpotResult
from ofc_desk.core.presets import Game
from ofc_desk.core.rows import ROWS, Row
from ofc_desk.core.settlement import SettlementPass
from ofc_desk.i18n import _

Choice = TypeVar("Choice", bound=StrEnum)


class ResultUnreadable(ValueError):
    """A stored result that is not one: the message names the key, like the deal reader's."""


class ResultRow(NamedTuple):
    row: Row
    cards: tuple[Card, ...]
    hand: str
    points: int
    """The row's royalty (OFC) or its bonus (Chinese poker)."""
    paid: bool = True
    """Whether `points` moved chips: a Chinese row bonus is paid only as its bonus mode says
    (`chinese.bonus_paid.mark_paid`); as stored, a row's bonus is the bonus its hand holds."""


@dataclass(frozen=True)
class SeatPart:
    """A game's own part of a player's line, beside what every game's line holds: subclassed in
    the game's package (closed Chinese poker's `core.chinese.showdown.Showdown`) and matched only
    there (issue 37: a game is a variant; this module names no game's concept)."""


@dataclass(frozen=True)
class HandPart:
    """A game's own part of a whole hand's result, subclassed in the game's package (closed Chinese
    poker's `core.chinese.schemes.PaymentOutcome`) and matched only there."""


class ResultSeat(NamedTuple):
    name: str
    stack_before: int
    stack_after: int
    """After the settlement (and a jackpot award, when the result has one)."""
    points: int
    foul: bool
    """A fouled (OFC) or misset (Chinese) hand."""
    foul_reason: str | None
    rows: tuple[ResultRow, ResultRow, ResultRow] | None
    """None for a surrender or a declared special: those are not compared row by row."""
    royalties: int
    """All rows' royalties as the OFC result stores them (0 for a fouled hand), or at Chinese poker
    all rows' bonuses (0 for a misset hand, or rows not shown)."""
    fantasyland_next: int
    """Cards the player is dealt in Fantasyland next hand; 0 when not (always at a Chinese table)."""
    showdown: SeatPart | None
    """The game's own part of the line (what a Chinese player showed besides rows); None at an OFC
    table. Its name and place are the snapshot's shape, which the recorded room pins."""


class ResultPair(NamedTuple):
    """Two players' result, from the first one's side."""

    first: str
    second: str
    points: int
    """OFC: every point between them; Chinese poker: all but the special pass (the rest)."""
    unit: int
    rows: tuple[int, int, int] | None
    """Front, middle, back: 1 won, -1 lost, 0 tied; None when not compared row by row."""
    scoop: int | None
    royalties: int | None
    foul_penalty: int | None
    fouled: tuple[str, ...]
    special: int | None
    """Chinese poker's special pass; None at an OFC table, as are the three before the fouls."""


class ResultTransfer(NamedTuple):
    payer: str
    payee: str
    owed: int
    paid: int
    reason: str
    """Why the transfer paid what it did, in the settlement's words: "paid in full", or a cap's reason."""
    settles: SettlementPass | None
    """Chinese poker's pass (the special hands, or the rest); None at an OFC table."""
    why: str
    """What the chips are for, as a floor supervisor reads it (Chinese poker); empty for OFC."""


class JackpotView(NamedTuple):
    pool_before: int
    """The room's pool before the hand."""
    pool_after: int
    award: AwardPaid | None

    @property
    def drop(self) -> int:
        """This hand's drop into the pool, added before the award was paid: what the pool gained
        less the award (a stored result keeps only the pool before and after)."""
        return self.pool_after - self.pool_before + (self.award.total if self.award is not None else 0)

    @property
    def pool_paid_from(self) -> int:
        """The pool the award's shares were taken from: the pool before and the hand's drop."""
        return self.pool_before + self.drop


class HandResult(NamedTuple):
    game: Game
    preset: str | None
    """The Chinese preset's name, as the result records it; None for OFC."""
    seats: tuple[ResultSeat, ...]
    pairs: tuple[ResultPair, ...]
    transfers: tuple[ResultTransfer, ...]
    payment: HandPart | None
    """The game's own part of the hand (a Chinese `pool` deal's row winners or a `single-winner`
    deal's winner); None otherwise."""
    jackpot: JackpotView | None

    def seat(self, name: str) -> ResultSeat:
        return next(seat for seat in self.seats if seat.name == name)


def jackpot_view(jackpot: JackpotResult | None) -> JackpotView | None:
    return None if jackpot is None else JackpotView(jackpot.pool_before, jackpot.pool_after, jackpot.award)


def read_result(
    result: "ResultReader",
    game: Game,
    preset: str | None,
    seat: Callable[["ResultReader"], ResultSeat],
    pair: Callable[["ResultReader"], ResultPair],
    payment: HandPart | None = None,
) -> HandResult:
    """A stored result, each player's line and each pair's read by the game's own readers."""
    return HandResult(
        game=game,
        preset=preset,
        seats=tuple(seat(player) for player in result.items("players")),
        pairs=tuple(pair(matchup) for matchup in result.items("matchups")),
        transfers=transfers(result),
        payment=payment,
        jackpot=read_jackpot(result),
    )


def read_seat(
    player: "ResultReader",
    rows: tuple[ResultRow, ResultRow, ResultRow] | None,
    royalties: int,
    fantasyland_next: int = 0,
    showdown: SeatPart | None = None,
) -> ResultSeat:
    """A player's line: what every game stores of it, with the parts the game read itself."""
    return ResultSeat(
        name=player.text("name"),
        stack_before=player.whole("stack_before"),
        stack_after=player.whole("stack_after"),
        points=player.whole("points"),
        foul=player.flag("foul"),
        foul_reason=player.optional_text("foul_reason"),
        rows=rows,
        royalties=royalties,
        fantasyland_next=fantasyland_next,
        showdown=showdown,
    )


def read_transfers(data: object) -> tuple[ResultTransfer, ...]:
    """Only the transfers of a stored result, as `read_hand_result` reads them: all `verify` needs
    of each hand it goes on with (reading the whole result would cost a third of its time)."""
    return transfers(ResultReader(data, "result"))


def transfers(result: "ResultReader") -> tuple[ResultTransfer, ...]:
    return tuple(_transfer(transfer) for transfer in result.items("transfers"))


def _transfer(transfer: "ResultReader") -> ResultTransfer:
    settlement_pass = transfer.optional_choice("pass", SettlementPass, _("a settlement pass"))
    return ResultTransfer(
        payer=transfer.text("from"),
        payee=transfer.text("to"),
        owed=transfer.whole("owed"),
        paid=transfer.whole("paid"),
        reason=transfer.optional_text("reason") or "",
        settles=settlement_pass,
        why=transfer.optional_text("for") or "",
    )


def read_rows(rows: "ResultReader", points: str) -> tuple[ResultRow, ResultRow, ResultRow]:
    """A player's three rows, each row's points under the key `points` (royalty or bonus)."""
    front, middle, back = (_row(row, rows.section(row.value), points) for row in ROWS)
    return front, middle, back


def _row(row: Row, read: "ResultReader", points: str) -> ResultRow:
    try:
        cards = tuple(parse_cards(read.text("cards")))
    except CardError as error:
        raise ResultUnreadable(f"{read.path}.cards: {error}") from None
    return ResultRow(row, cards, read.text("hand"), read.whole(points))


def read_pair(
    matchup: "ResultReader",
    *,
    scoop: int | None = None,
    royalties: int | None = None,
    foul_penalty: int | None = None,
    fouled: tuple[str, ...] = (),
    special: int | None = None,
) -> ResultPair:
    """A pair's line: what every game stores of it, with the parts the game read itself."""
    names = matchup.value("players")
    if not isinstance(names, list) or len(names) != 2 or not all(isinstance(name, str) for name in names):
        raise ResultUnreadable(
            _("{field} must be the pair's two names").format(field=f"{matchup.path}.players")
        )
    return ResultPair(
        first=names[0],
        second=names[1],
        points=matchup.whole("points"),
        unit=matchup.whole("unit"),
        rows=_pair_rows(matchup),
        scoop=scoop,
        royalties=royalties,
        foul_penalty=foul_penalty,
        fouled=fouled,
        special=special,
    )


def _pair_rows(matchup: "ResultReader") -> tuple[int, int, int] | None:
    """Front, middle, back from the first player's side; None when not compared row by row."""
    rows = matchup.optional("rows")
    if rows is None:
        return None
    if not (isinstance(rows, list) and len(rows) == len(ROWS) and all(type(row) is int for row in rows)):
        raise ResultUnreadable(
            _("{field} must be three whole numbers or null").format(field=f"{matchup.path}.rows")
        )
    return rows[0], rows[1], rows[2]


def read_jackpot(result: "ResultReader") -> JackpotView | None:
    """The result's `jackpot` object; None when it has none (no stored result has one yet)."""
    if result.optional("jackpot") is None:
        return None
    jackpot = result.section("jackpot")
    paid = None
    if jackpot.optional("award") is not None:
        award = jackpot.section("award")
        chips = award.section("chips")
        shares = {name: chips.whole(name) for name in chips.data}
        paid = AwardPaid(award.text("loser"), award.text("winner"), shares)
    return JackpotView(jackpot.whole("pool_before"), jackpot.whole("pool_after"), paid)


class ResultReader:
    """Reads typed values out of a stored result, naming the key in every complaint."""

    def __init__(self, data: object, path: str) -> None:
        if not isinstance(data, Mapping):
            raise ResultUnreadable(_("{field} must be an object").format(field=path))
        self.data: Mapping[str, object] = data
        self.path = path

    def optional(self, key: str) -> object:
        return self.data.get(key)

    def value(self, key: str) -> object:
        if key not in self.data:
            raise ResultUnreadable(_("{field} is missing").format(field=f"{self.path}.{key}"))
        return self.data[key]

    def section(self, key: str) -> "ResultReader":
        return ResultReader(self.value(key), f"{self.path}.{key}")

    def items(self, key: str) -> list["ResultReader"]:
        values = self.value(key)
        if not isinstance(values, list):
            raise ResultUnreadable(_("{field} must be a list").format(field=f"{self.path}.{key}"))
        return [ResultReader(value, f"{self.path}.{key}[{index}]") for index, value in enumerate(values)]

    def text(self, key: str) -> str:
        value = self.value(key)
        if not isinstance(value, str):
            raise ResultUnreadable(_("{field} must be text").format(field=f"{self.path}.{key}"))
        return value

    def optional_text(self, key: str) -> str | None:
        value = self.data.get(key)
        if value is not None and not isinstance(value, str):
            raise ResultUnreadable(_("{field} must be text or null").format(field=f"{self.path}.{key}"))
        return value

    def optional_choice(self, key: str, choices: type[Choice], what: str) -> Choice | None:
        """One of an enum's values, or None when the key is null or left out."""
        value = self.optional_text(key)
        try:
            return None if value is None else choices(value)
        except ValueError:
            said = _("{field}: {value} is not {what}")
            raise ResultUnreadable(
                said.format(field=f"{self.path}.{key}", value=repr(value), what=what)
            ) from None

    def whole(self, key: str) -> int:
        value = self.value(key)
        if type(value) is not int:
            raise ResultUnreadable(_("{field} must be a whole number").format(field=f"{self.path}.{key}"))
        return value

    def flag(self, key: str) -> bool:
        value = self.value(key)
        if not isinstance(value, bool):
            raise ResultUnreadable(_("{field} must be true or false").format(field=f"{self.path}.{key}"))
        return value
