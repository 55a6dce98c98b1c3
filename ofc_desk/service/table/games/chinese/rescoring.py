"""Chinese poker's part of `verify`'s re-scoring beside the fold (`base.GameRescoring`,
`audit.rescoring`): a stored player's line as settling reads it (stacks only: nothing is carried to
the next hand), a `ChineseDeal` written out as `ofc-desk score` reads it, and such a deal scored by
the core."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ofc_desk.core.chinese.deal import ChineseDeal, ChineseDealResult, score_chinese_deal
from ofc_desk.core.chinese.deal_input import chinese_deal_from_json, chinese_hands_json, chinese_rules_json


@dataclass(frozen=True)
class StoredPlayer:
    """A player's line of a stored Chinese result, as far as settling the hand reads it."""

    name: str
    stack_before: int
    stack_after: int


class ChineseRescoring:
    """How `verify` re-scores a Chinese poker hand in its second process."""

    def stored_player(self, line: Any) -> StoredPlayer:
        player = StoredPlayer(line["name"], line["stack_before"], line["stack_after"])
        counts = (player.stack_before, player.stack_after)
        if not isinstance(player.name, str) or not all(type(count) is int for count in counts):
            raise TypeError("not a stored player's line")
        return player

    def rules_of(self, deal: ChineseDeal) -> tuple[object, ...]:
        """What `chinese_rules_json` reads of a deal (the preset compared as the same object first)."""
        return deal.preset, deal.unit, deal.pair_units, deal.settlement, deal.settle_from

    def rules_json(self, deal: ChineseDeal) -> dict[str, object]:
        return chinese_rules_json(deal)

    def hands_json(self, deal: ChineseDeal) -> dict[str, object]:
        return chinese_hands_json(deal)

    def players(self, deal: ChineseDeal) -> list[str]:
        return [seat.name for seat in deal.players]

    def score(self, deal: ChineseDeal) -> ChineseDealResult:
        return score_chinese_deal(deal)

    def score_json(self, data: Mapping[str, object]) -> ChineseDealResult:
        return score_chinese_deal(chinese_deal_from_json(data))


CHINESE_RESCORING = ChineseRescoring()
