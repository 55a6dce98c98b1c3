"""A toy third game, for the tests only (issue 37, point 6): one row of five cards each, the
highest hand by the core's strength wins, every other player pays each winner one unit (as much as
their stack holds). It is plugged in only through the registries (`register.py`), to show a new game
needs no change to the generic modules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from ofc_desk.core.cards import Card, CardError, parse_cards
from ofc_desk.core.deal_input import DealInputError
from ofc_desk.core.hands import hand_name, strength
from ofc_desk.core.presets import new_game
from ofc_desk.core.results import HandResult, ResultReader, ResultSeat, ResultTransfer, SeatPart

TOY_WORD: Final = "toy"
ROW_CARDS: Final = 5
ROW_TURN: Final = "row"
"""The toy's own kind of turn (`Turn.kind`), in no enum of the service: a row typed whole."""
MOST_PLAYERS: Final = 6


TOY: Final = new_game("TOY", TOY_WORD)
"""The toy game's `Game` member, one of `Game`'s while `register.toy_registered` has it registered."""


class ToyRefused(ValueError):
    """An entry the toy's rules refuse."""


def read_row(cards: object) -> tuple[Card, ...]:
    """Five different cards, or the rule they break."""
    try:
        row = tuple(parse_cards(cast(str | Sequence[object], cards)))
    except CardError as error:
        raise ToyRefused(str(error)) from None
    if len(row) != ROW_CARDS or len(set(row)) != ROW_CARDS:
        raise ToyRefused(f"a toy row is {ROW_CARDS} different cards")
    return row


@dataclass(frozen=True)
class ToyPlayer:
    name: str
    stack_before: int
    stack_after: int
    row: tuple[Card, ...]


@dataclass(frozen=True)
class ToyResult:
    """A scored toy hand (`base.SettledResult`)."""

    players: tuple[ToyPlayer, ...]
    transfers: tuple[ResultTransfer, ...]

    def to_json(self) -> dict[str, Any]:
        """Its transfers spelt as every game's (`from`, `to`, `owed`, `paid`): `verify` reads them
        so (`core.results.read_transfers`) to go on with a stored result beside its re-scoring."""
        return {
            "variant": TOY_WORD,
            "players": [
                {
                    "name": p.name,
                    "stack_before": p.stack_before,
                    "stack_after": p.stack_after,
                    "row": [card.text for card in p.row],
                }
                for p in self.players
            ],
            "transfers": [
                {"from": t.payer, "to": t.payee, "owed": t.owed, "paid": t.paid, "reason": t.reason}
                for t in self.transfers
            ],
        }

    def view(self) -> HandResult:
        return read_toy_result(ResultReader(self.to_json(), "result"))

    def transfers_view(self) -> tuple[ResultTransfer, ...]:
        return self.transfers


@dataclass(frozen=True)
class ToyShown(SeatPart):
    """The toy's own part of a player's line in a hand's result (`ResultSeat.showdown`): the row."""

    row: tuple[Card, ...]


def score_toy(stacks: Mapping[str, int], rows: Mapping[str, tuple[Card, ...]], unit: int) -> ToyResult:
    """Each player who is not among the strongest rows pays each winner a unit, while chips last."""
    best = max(strength(row) for row in rows.values())
    winners = [name for name, row in rows.items() if strength(row) == best]
    after = dict(stacks)
    transfers = []
    for payer in (name for name in rows if name not in winners):
        for payee in winners:
            paid = min(unit, after[payer])
            after[payer] -= paid
            after[payee] += paid
            reason = "paid in full" if paid == unit else "capped at the stack"
            transfers.append(ResultTransfer(payer, payee, unit, paid, reason, None, ""))
    players = tuple(ToyPlayer(name, stacks[name], after[name], rows[name]) for name in rows)
    return ToyResult(players, tuple(transfers))


def read_toy_result(result: ResultReader) -> HandResult:
    """A stored toy result as every game's `HandResult` (`core.stored_results.READERS`)."""
    seats = tuple(
        ResultSeat(
            player.text("name"),
            player.whole("stack_before"),
            player.whole("stack_after"),
            player.whole("stack_after") - player.whole("stack_before"),
            False,
            None,
            None,
            0,
            0,
            ToyShown(read_row(player.value("row"))),
        )
        for player in result.items("players")
    )
    transfers = tuple(
        ResultTransfer(
            t.text("from"), t.text("to"), t.whole("owed"), t.whole("paid"), t.text("reason"), None, ""
        )
        for t in result.items("transfers")
    )
    return HandResult(TOY, None, seats, (), transfers, None, None)


def row_name(row: Sequence[Card]) -> str:
    return hand_name(row)


def is_toy_deal(data: Any) -> bool:
    """A deal `ofc-desk score` reads as the toy's: it names the toy's variant."""
    return isinstance(data, Mapping) and data.get("variant") == TOY_WORD


@dataclass(frozen=True)
class ToyDeal:
    """A finished toy hand: each player's stack and row, in the table's order, and the unit."""

    stacks: Mapping[str, int]
    rows: Mapping[str, tuple[Card, ...]]
    unit: int

    def score(self) -> ToyResult:
        return score_toy(self.stacks, self.rows, self.unit)

    def to_json(self) -> dict[str, object]:
        """The deal as `toy_deal_from_json` reads it."""
        players = [
            {"name": name, "stack": self.stacks[name], "row": [card.text for card in row]}
            for name, row in self.rows.items()
        ]
        return {"variant": TOY_WORD, "unit": self.unit, "players": players}


def toy_deal_from_json(data: Any) -> ToyDeal:
    """A toy deal as `ofc-desk score` reads it: {"variant": "toy", "unit": 1, "players": [{"name",
    "stack", "row"}]}; a row the toy refuses is a `DealInputError`."""
    players = data["players"]
    try:
        rows = {player["name"]: read_row(player["row"]) for player in players}
    except ToyRefused as error:
        raise DealInputError("players", str(error)) from None
    stacks = {player["name"]: int(player["stack"]) for player in players}
    return ToyDeal(stacks, rows, int(data.get("unit", 1)))


def score_toy_deal_json(data: Any) -> dict[str, Any]:
    """A toy deal as `ofc-desk score` reads it, scored and settled."""
    return toy_deal_from_json(data).score().to_json()


def load_toy_preset(name: str) -> str:
    """The toy has one preset, its own rules, whatever its name."""
    return name
