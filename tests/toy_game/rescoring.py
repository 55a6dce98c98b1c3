"""The toy's part of `verify`'s re-scoring beside the fold (`base.GameRescoring`): a toy deal
written out and scored by the toy's rules in the second process, as OFC's and Chinese poker's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tests.toy_game.rules import ToyDeal, ToyPlayer, ToyResult, read_row, toy_deal_from_json


class ToyRescoring:
    """How `verify` re-scores a toy hand in its second process."""

    def stored_player(self, line: Any) -> ToyPlayer:
        player = ToyPlayer(line["name"], line["stack_before"], line["stack_after"], read_row(line["row"]))
        counts = (player.stack_before, player.stack_after)
        if not isinstance(player.name, str) or not all(type(count) is int for count in counts):
            raise TypeError("not a stored player's line")
        return player

    def rules_of(self, deal: ToyDeal) -> tuple[object, ...]:
        return (deal.unit,)

    def rules_json(self, deal: ToyDeal) -> dict[str, object]:
        return {key: value for key, value in deal.to_json().items() if key != "players"}

    def hands_json(self, deal: ToyDeal) -> dict[str, object]:
        return {"players": deal.to_json()["players"]}

    def players(self, deal: ToyDeal) -> list[str]:
        return list(deal.rows)

    def score(self, deal: ToyDeal) -> ToyResult:
        return deal.score()

    def score_json(self, data: Mapping[str, object]) -> ToyResult:
        return toy_deal_from_json(data).score()


TOY_RESCORING = ToyRescoring()
