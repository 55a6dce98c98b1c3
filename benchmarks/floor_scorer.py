"""A lower bound for `ofc-desk score` in CPython: the least a scorer must do, written for speed only.

Not a scorer to use: it reads only standard-preset regular deals with 1-6 scoring and win-cap
settlement from the player left of the dealer, trusts its input apart from duplicate cards, and
writes the contract's fields with short reasons. It does what any scorer must: read the JSON, look
up 52 cards, evaluate 12 rows with eval7, name them, count royalties and fouls, score six pairs,
settle under the win cap, decide Fantasyland entry and write the JSON. `core_bench.py` times it
beside the real command to show how much of the goal's budget CPython itself takes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from json.encoder import encode_basestring
from typing import Any

import eval7

from ofc_desk.core.cards import FULL_DECK, Rank
from ofc_desk.core.hands import HandClass, hand_facts
from ofc_desk.core.presets import load_preset

evaluate = eval7.evaluate
_EVAL7 = {card.text: eval7.Card(card.text) for card in FULL_DECK}  # canonical spellings only
_ROYALTIES = load_preset("standard").royalties
_FANTASYLAND_CARDS = load_preset("standard").fantasyland.cards["regular"]
_PLAYER = (
    '{"name": %s, "foul": %s, "rows": {"front": {"hand": "%s", "royalty": %d}, '
    '"middle": {"hand": "%s", "royalty": %d}, "back": {"hand": "%s", "royalty": %d}}, '
    '"royalties": %d, "points": %d, "fantasyland": {"next": %s, "cards": %d}, '
    '"stack_before": %d, "stack_after": %d}'
)
_MATCHUP = (
    '{"players": [%s, %s], "rows": [%d, %d, %d], "scoop": %d, "royalties": %d, "foul": %s, "points": %d}'
)
_quoted = cache(encode_basestring)
_DEAL = '{"players": [%s], "matchups": [%s], "transfers": [%s]}'
_TRANSFER = '{"from": %s, "to": %s, "owed": %d, "paid": %d, "reason": "%s"}'


class _RowFacts(dict[int, tuple[str, int]]):
    """A row's name and royalty by strength value, each worked out on first sight."""

    def __init__(self, royalty: Callable[[HandClass, Rank], int]) -> None:
        super().__init__()
        self.royalty = royalty

    def __missing__(self, value: int) -> tuple[str, int]:
        category, top, name = hand_facts(value)
        facts = self[value] = (name, self.royalty(category, top))
        return facts


def _front_royalty(category: HandClass, top: Rank) -> int:
    if category is HandClass.TRIPS:
        return _ROYALTIES.front_trips.get(top.value, 0)
    return _ROYALTIES.front_pairs.get(top.value, 0) if category is HandClass.PAIR else 0


_FRONT = _RowFacts(_front_royalty)
_MIDDLE = _RowFacts(lambda category, _: _ROYALTIES.middle.get(category.key, 0))
_BACK = _RowFacts(lambda category, _: _ROYALTIES.back.get(category.key, 0))
_LEAST_ENTRY_ROYALTY = _ROYALTIES.front_pairs["Q"]


def _seat(player: dict[str, Any], dealt: list[eval7.Card]) -> list[Any]:
    front = list(map(_EVAL7.__getitem__, player["front"].split()))
    middle = list(map(_EVAL7.__getitem__, player["middle"].split()))
    back = list(map(_EVAL7.__getitem__, player["back"].split()))
    dealt += front + middle + back
    values = evaluate(front), evaluate(middle), evaluate(back)
    foul = values[1] < values[0] or values[2] < values[1]
    named = _FRONT[values[0]], _MIDDLE[values[1]], _BACK[values[2]]
    royalties = 0 if foul else named[0][1] + named[1][1] + named[2][1]
    entry = not foul and named[0][1] >= _LEAST_ENTRY_ROYALTY
    return [player["name"], player["stack"], values, named, foul, royalties, 0, entry]


def _matchup(first: list[Any], second: list[Any]) -> tuple[int, int, int, int, int, int]:
    """Rows, scoop, royalties and points from the first player's side."""
    if first[4] or second[4]:
        if first[4] and second[4]:
            return 0, 0, 0, 0, 0, 0
        sign = -1 if first[4] else 1
        royalties = sign * (second[5] if first[4] else first[5])
        return sign, sign, sign, 0, royalties, royalties + 6 * sign
    (a1, a2, a3), (b1, b2, b3) = first[2], second[2]
    front, middle, back = (a1 > b1) - (a1 < b1), (a2 > b2) - (a2 < b2), (a3 > b3) - (a3 < b3)
    net = front + middle + back
    scoop = 3 if net == 3 else -3 if net == -3 else 0
    royalties = first[5] - second[5]
    return front, middle, back, scoop, royalties, net + scoop + royalties


def score_deal_text(deal: dict[str, Any]) -> str:
    dealt: list[eval7.Card] = []
    seats = [_seat(player, dealt) for player in deal["players"]]
    if len(set(dealt)) != len(dealt):
        raise ValueError("a card is dealt twice")
    dealer = [seat[0] for seat in seats].index(deal["dealer"]) + 1
    order = seats[dealer:] + seats[:dealer]
    start = {seat[0]: seat[1] for seat in seats}
    stacks, complete = dict(start), set()
    matchups, transfers = [], []
    for place, first in enumerate(order):
        for second in order[place + 1 :]:
            *scores, points = _matchup(first, second)
            first[6] += points
            second[6] -= points
            matchups.append(_MATCHUP % (_quoted(first[0]), _quoted(second[0]), *scores, "null", points))
            if not points:
                continue
            debtor, creditor = (second[0], first[0]) if points > 0 else (first[0], second[0])
            owed = abs(points)
            if debtor in complete or creditor in complete:
                paid, reason = 0, "complete"
            else:
                paid = min(owed, stacks[debtor], 2 * start[creditor] - stacks[creditor])
                reason = "paid in full" if paid == owed else "capped"
            stacks[debtor] -= paid
            stacks[creditor] += paid
            if stacks[creditor] == 2 * start[creditor]:
                complete.add(creditor)
            transfers.append(_TRANSFER % (_quoted(debtor), _quoted(creditor), owed, paid, reason))
    players = [
        _PLAYER
        % (
            _quoted(seat[0]),
            "true" if seat[4] else "false",
            *[part for name, royalty in seat[3] for part in (name, 0 if seat[4] else royalty)],
            seat[5],
            seat[6],
            "true" if seat[7] else "false",
            _FANTASYLAND_CARDS if seat[7] else 0,
            seat[1],
            stacks[seat[0]],
        )
        for seat in seats
    ]
    parts = ", ".join(players), ", ".join(matchups), ", ".join(transfers)
    return _DEAL % parts


def score_text(text: str) -> str:
    """JSON list of deals in, JSON list of results out."""
    return "[" + ", ".join([score_deal_text(deal) for deal in json.loads(text)]) + "]"
