"""OFC's part of `verify`'s re-scoring beside the fold (`base.GameRescoring`, `audit.rescoring`):
a stored player's line as settling reads it (Fantasyland carried on), an OFC `Deal` written out as
`ofc-desk score` reads it, and such a deal scored by the core."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ofc_desk.core.ofc.deal import Deal, DealResult, score_deal
from ofc_desk.core.ofc.deal_input import deal_from_json, deal_hands_json, deal_rules_json


@dataclass(frozen=True)
class StoredPlayer:
    """A player's line of a stored OFC result, as far as settling the hand reads it
    (`scoring.ScoredPlayer`)."""

    name: str
    stack_before: int
    stack_after: int
    fantasyland_next: int


class OfcRescoring:
    """How `verify` re-scores an OFC hand in its second process."""

    def stored_player(self, line: Any) -> StoredPlayer:
        player = StoredPlayer(
            line["name"], line["stack_before"], line["stack_after"], line["fantasyland"]["cards"]
        )
        counts = (player.stack_before, player.stack_after, player.fantasyland_next)
        if not isinstance(player.name, str) or not all(type(count) is int for count in counts):
            raise TypeError("not a stored player's line")
        return player

    def rules_of(self, deal: Deal) -> tuple[object, ...]:
        """What `deal_rules_json` reads of a deal (the preset compared as the same object first)."""
        return (
            deal.preset,
            deal.scoring,
            deal.variant,
            deal.progressive,
            deal.unit,
            deal.pair_units,
            deal.settlement,
            deal.settle_from,
        )

    def rules_json(self, deal: Deal) -> dict[str, object]:
        return deal_rules_json(deal)

    def hands_json(self, deal: Deal) -> dict[str, object]:
        return deal_hands_json(deal)

    def players(self, deal: Deal) -> list[str]:
        return [seat.name for seat in deal.players]

    def score(self, deal: Deal) -> DealResult:
        return score_deal(deal)

    def score_json(self, data: Mapping[str, object]) -> DealResult:
        return score_deal(deal_from_json(data))


OFC_RESCORING = OfcRescoring()
