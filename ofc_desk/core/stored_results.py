"""A stored result of either game read back as a `HandResult`, in every shape the database has held:
an OFC result as the first commit wrote it; a Chinese one with or without its `payment`, with nulls
for a surrender's or a declaration's rows, aces not played and rows not compared. Each game reads its
own part (`core/ofc/result_reader.py`, `core/chinese/result_reader.py`).

>>> from ofc_desk.core.ofc.deal_input import deal_from_json
>>> from ofc_desk.core.ofc.deal import score_deal
>>> result = score_deal(deal_from_json({"dealer": "Bob", "players": [
...     {"name": "Ann", "stack": 100, "front": "Qs Qd 2c", "middle": "Ah Kh 9h 4h 2h",
...      "back": "7s 7d 7c 3s 3d"},
...     {"name": "Bob", "stack": 100, "front": "Ks 5d 2d", "middle": "Jc Jd 9c 4c 3c",
...      "back": "Ts 9s 8d 7h 6c"}]}))
>>> view = read_hand_result(result.to_json())
>>> view == result.view(), view.seat("Ann").fantasyland_next, view.transfers[0][:4]
(True, 13, ('Bob', 'Ann', 25, 25))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ofc_desk.core.ofc.result_reader import read_ofc_result
from ofc_desk.core.presets import Game
from ofc_desk.core.registries import OnFirstUse, Registry
from ofc_desk.core.results import HandResult, ResultReader


def _chinese_reader() -> Callable[[ResultReader], HandResult]:
    from ofc_desk.core.chinese.result_reader import read_chinese_result  # with the first such result

    return read_chinese_result


READERS: Final[Registry[str, Callable[[ResultReader], HandResult]]] = Registry(
    {Game.CHINESE.value: OnFirstUse(_chinese_reader)}
)
"""Each game's reader by the `variant` word its stored results start with; an OFC result names none
(a game registered at run time is added by `core.games.register_game`)."""


def read_hand_result(data: object) -> HandResult:
    """A stored result (the parsed JSON of `DealResult.to_json()` or `ChineseDealResult.to_json()`)
    as a `HandResult`; `ResultUnreadable` names the first key that is not as those write it."""
    result = ResultReader(data, "result")
    variant = result.optional("variant")
    return READERS.get(variant if isinstance(variant, str) else "", read_ofc_result)(result)
