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
from json.encoder import encode_basestring
from typing import Any

import eval7

from ofc_desk.core.cards import _CARDS_AS_TYPED
from ofc_desk.core.hands import HandClass, hand_facts
from ofc_desk.core.presets import load_preset

_EVAL7 = {spelling: eval7.Card(card.text) for spelling, card in _CARDS_AS_TYPED.items()}
_ROYALTIES = load_preset("standard").royalties
_MIDDLE, _BACK = dict(_ROYALTIES.middle), dict(_ROYALTIES.back)
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
_DEAL = '{"players": [%s], "matchups": [%s], "transfers": [%s]}'
_TRANSFER = '{"from": %s, "to": %s, "owed": %d, "paid": %d, "reason": "%s"}'


def _row(value: int, table: dict[str, int] | None) -> tuple[str, int]:
    category, top, name = hand_facts(value)
    if table is not None:
        return name, table.get(category.key, 0)
    if category is HandClass.TRIPS:
        return name, _ROYALTIES.front_trips.get(top.value, 0)
    return name, _ROYALTIES.front_pairs.get(top.value, 0) if category is HandClass.PAIR else 0


def _seat(player: dict[str, Any], dealt: list[eval7.Card]) -> list[Any]:
    rows = [[_EVAL7[token] for token in player[row].split()] for row in ("front", "middle", "back")]
    for cards in rows:
        dealt += cards
    values = [eval7.evaluate(cards) for cards in rows]
    foul = values[1] < values[0] or values[2] < values[1]
    named = [_row(values[0], None), _row(values[1], _MIDDLE), _row(values[2], _BACK)]
    royalties = 0 if foul else sum(royalty for _, royalty in named)
    entry = not foul and named[0][1] >= _ROYALTIES.front_pairs["Q"]
    return [player["name"], player["stack"], values, named, foul, royalties, 0, entry]


def _matchup(first: list[Any], second: list[Any]) -> tuple[tuple[int, int, int], int, int, int]:
    if first[4] and second[4]:
        return (0, 0, 0), 0, 0, 0
    if first[4] or second[4]:
        sign = -1 if first[4] else 1
        royalties = sign * (second[5] if first[4] else first[5])
        return (sign, sign, sign), 0, royalties, royalties + 6 * sign
    rows = tuple((a > b) - (a < b) for a, b in zip(first[2], second[2], strict=True))
    net = sum(rows)
    scoop = 3 if net == 3 else -3 if net == -3 else 0
    royalties = first[5] - second[5]
    return rows, scoop, royalties, net + scoop + royalties  # type: ignore[return-value]


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
            rows, scoop, royalties, points = _matchup(first, second)
            first[6] += points
            second[6] -= points
            names = encode_basestring(first[0]), encode_basestring(second[0])
            matchups.append(_MATCHUP % (*names, *rows, scoop, royalties, "null", points))
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
            transfers.append(
                _TRANSFER % (encode_basestring(debtor), encode_basestring(creditor), owed, paid, reason)
            )
    players = [
        _PLAYER
        % (
            encode_basestring(seat[0]),
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
