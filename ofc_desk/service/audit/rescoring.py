"""`verify` re-scores a long session's hands in a second process, beside the rules' fold.

The fold needs each finished hand's settled stacks before it can check the next hand; scoring the
hand is most of what settling it costs. So for a long session the fold goes on with the result
stored for the hand, and sends the hand's deal (the core's, built from the folded state, written
out as `ofc-desk score` reads it: the one form that crosses to a second process) to a second
process, which scores it with the core and compares that with the stored result. Nothing is left
unchecked: the deal comes from the fold, the score from the core, and a stored result that is not
the core's is named ("hand 12: stored result differs from the rules") before any fault the fold
met after going on with it. A stored result the fold cannot read as one
(missing, malformed, other players) is not used: the fold scores that hand itself, and the
comparison of the stored rows names it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ofc_desk.core.deal_input import DealInputError
from ofc_desk.core.presets import Game
from ofc_desk.core.results import HandResult, ResultTransfer, read_transfers
from ofc_desk.core.stored_results import read_hand_result
from ofc_desk.i18n import _
from ofc_desk.service.audit.side_check import Beside
from ofc_desk.service.table.games.base import GameRescoring, SettledPlayer, SettledResult
from ofc_desk.service.table.games.choose import RESCORING
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.outcome import ScoredResult
from ofc_desk.storage.audit import canonical_json, read_json

Rescore = tuple[str, int, int, dict[str, object] | None, dict[str, object]]
"""What the second process is sent for each finished hand: its game's word (`Game`), its number,
the event that finished it, the rules' keys of its deal (None when those of the hand before), the
rest of its deal."""


@dataclass(frozen=True)
class StoredResult:
    """A hand's stored result, read as far as settling the hand needs (each player's line as its
    game's part reads it: `GameRescoring.stored_player`), and its stored text (which the second
    process compares with the core's, byte for byte)."""

    players: tuple[SettledPlayer, ...]
    transfers: tuple[ResultTransfer, ...]
    data: dict[str, Any]
    text: str

    def to_json(self) -> dict[str, Any]:
        return self.data

    def view(self) -> HandResult:
        return read_hand_result(self.data)

    def transfers_view(self) -> tuple[ResultTransfer, ...]:
        return self.transfers


def stored_result(text: str | None, seating: list[str], part: GameRescoring[Any]) -> StoredResult | None:
    """The stored result of a hand of `part`'s game dealt to `seating`, or None when it cannot be one."""
    if text is None:
        return None
    try:
        data = read_json(text)
        players = tuple(part.stored_player(player) for player in data["players"])
        transfers = read_transfers(data)  # ResultUnreadable is a ValueError
    except (ValueError, TypeError, KeyError):
        return None
    if not isinstance(data, dict):
        return None
    if [player.name for player in players] != seating:
        return None
    return StoredResult(players, transfers, data, text)


@dataclass
class ScoresBeside:
    """The fold's scorer: each finished hand's deal goes to the second process; the fold goes on
    with the hand's stored result."""

    stored: Mapping[int, str]
    """Each settled hand's stored result (canonical JSON), by hand number."""
    second: Beside
    event_id: int = 0
    """The event being folded: the one that finishes a hand, when a hand is scored."""
    rules_for: tuple[object, ...] | None = None
    rules_keys: dict[str, object] = field(default_factory=dict)
    """The rules' keys of a deal, worked out again only when the deal's rules change."""
    rules_sent: dict[str, object] | None = None

    # Any: the deal is the game's core's, which only its part (`RESCORING`) reads.
    def __call__(self, game: Game, number: int, deal: Any) -> SettledResult:
        """A `games.base.HandScorer` of the deals of any game with a part in `RESCORING`."""
        part = RESCORING[game]
        result = stored_result(self.stored.get(number), part.players(deal), part)
        if result is None:
            return part.score(deal)
        rules_of = (game, *part.rules_of(deal))
        if rules_of != self.rules_for:
            self.rules_for, self.rules_keys = rules_of, part.rules_json(deal)
        # The rules (a whole pinned preset) are sent when they change: sending them with every
        # hand cost more than the scoring saved.
        changed = self.rules_keys is not self.rules_sent
        message: Rescore = (
            game.value,
            number,
            self.event_id,
            self.rules_keys if changed else None,
            part.hands_json(deal),
        )
        self.second.send(message)
        self.rules_sent = self.rules_keys
        return result


def score_deal_input(game: str, number: int, data: Mapping[str, object]) -> ScoredResult:
    """Hand `number`'s deal, as the second process is sent it, scored by its game's core, or
    refused as the rules refuse it (a deal built from a hand the fold accepted is not)."""
    try:
        return RESCORING[Game(game)].score_json(data)
    except DealInputError as error:
        raise ActionRefused(
            _("hand {number} cannot be scored: {problem}").format(number=number, problem=error)
        ) from None


def rescore(stored: Mapping[int, str], hands: Iterator[Rescore]) -> str | None:
    """In the second process: each hand scored by the core and compared with its stored result;
    the first fault, in the words the fold would have used. A hand finished, undone and finished
    again is scored each time (as the fold would score it), and its last score, the one settled,
    is compared."""
    rules_keys: dict[str, object] = {}
    last: tuple[int, ScoredResult] | None = None
    for game, number, event_id, new_rules_keys, hand_keys in hands:
        if last is not None and last[0] != number and (fault := _differs(*last, stored)):
            return fault
        rules_keys = rules_keys if new_rules_keys is None else new_rules_keys
        try:
            last = number, score_deal_input(game, number, {**rules_keys, **hand_keys})
        except ActionRefused as error:
            return breaks_the_rules(event_id, error)
    return None if last is None else _differs(*last, stored)


def breaks_the_rules(event_id: object, refusal: object) -> str:
    """The fault of a stored event the rules refuse, said alike by `verify` and its second process."""
    return _("event {event} breaks the rules: {refusal}").format(event=event_id, refusal=refusal)


def result_differs(number: int) -> str:
    """The fault of a stored result the rules score otherwise, said alike by both processes."""
    return _("hand {number}: stored result differs from the rules").format(number=number)


def _differs(number: int, result: ScoredResult, stored: Mapping[int, str]) -> str | None:
    if canonical_json(result.to_json()) != stored[number]:
        return result_differs(number)
    return None
