"""The only road to an OFC hand's scores and chips: a core `Deal` for the finished hand, scored by
the core (and the OFC rules' check)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from ofc_desk.core.ofc.deal import DealResult, score_deal
from ofc_desk.core.ofc.deal_input import (
    DealInputError,
    deal_from_json,
    read_choice,
    read_pair_units,
    read_preset,
)
from ofc_desk.core.ofc.hand import HandState
from ofc_desk.core.ofc.presets import RulesPreset
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import PresetError
from ofc_desk.core.rows import ROWS
from ofc_desk.core.settlement import MAX_CHIPS, SettleFrom, SettlementPolicy
from ofc_desk.i18n import _, formatting
from ofc_desk.service.errors import ActionRefused
from ofc_desk.service.games.base import SettledPlayer
from ofc_desk.service.outcome import ScoredResult
from ofc_desk.service.setup import TableRules


def rules_deal_keys(rules: TableRules, players: set[str]) -> dict[str, object]:
    """The table's rules as the `ofc-desk score` keys, pair units kept to seated pairs."""
    keys = rules.to_json()
    pair_units = [pair for pair in keys["pair_units"] if set(pair["players"]) <= players]
    deal_keys: dict[str, object] = {**keys, "pair_units": pair_units}
    for table_only in ("last_three_face_down", "preset_name", "preset_sha256"):
        deal_keys.pop(table_only, None)
    return {key: value for key, value in deal_keys.items() if value is not None}


def check_rules(rules: TableRules) -> tuple[RulesPreset, Variant]:
    """Refuse rules the core would not score; give the preset and variant they name."""
    try:
        preset = read_preset(rules.preset, rules.house_options)
        data = rules_deal_keys(rules, set())
        variant = read_choice(data, "variant", Variant, Variant.REGULAR)
        read_choice(data, "settlement", SettlementPolicy, SettlementPolicy.WIN_CAP)
        read_choice(data, "settle_from", SettleFrom, SettleFrom.LEFT_OF_DEALER)
        preset.scoring_system(rules.scoring)
        # Each pair once, two different players: checked now, not when a hand is scored. A pair
        # may name a player not (or no longer) seated; it applies while both are.
        named = sorted({name for pair in rules.pair_units for name in pair.players})
        read_pair_units(rules.to_json()["pair_units"], named)
    except (DealInputError, PresetError) as error:
        raise ActionRefused(_("rules: {problem}").format(problem=error)) from None
    if not all(1 <= unit <= MAX_CHIPS for unit in (rules.unit, *(pair.unit for pair in rules.pair_units))):
        said = _("rules: a unit must be a whole number of chips from 1 to {most}")
        raise ActionRefused(said.format(most=formatting.number(MAX_CHIPS)))
    if preset.jackpot_award is not None and variant.lowball_middle:
        raise ActionRefused(
            _(
                "rules: a {variant} table pays no jackpot award: its middle is a low hand, which has no"
                " class in the award's order (choose a preset without jackpot_award)"
            ).format(variant=variant.value)
        )
    if rules.last_three_face_down and variant is not Variant.REGULAR:
        raise ActionRefused(_("rules: the last 3 cards face down is an option of regular OFC"))
    return preset, variant


class ScoredPlayer(SettledPlayer, Protocol):
    """A player's line in a scored OFC hand: paid out, and Fantasyland carried on."""

    @property
    def fantasyland_next(self) -> int: ...


class ScoredHand(ScoredResult, Protocol):
    """What settling a scored hand reads: the core's `DealResult`, or in `verify` a stored result
    being re-scored in a second process (`rescoring`)."""

    @property
    def players(self) -> Sequence[ScoredPlayer]: ...


def score_hand(number: int, seating: list[str], rules: TableRules, deal: dict[str, object]) -> DealResult:
    """Score and settle the finished hand (`deal`: its `hand_deal_keys`) exactly as `ofc-desk score`
    would (a `base.HandScorer`)."""
    return score_deal_input(number, {**rules_deal_keys(rules, set(seating)), **deal})


def hand_deal_keys(hand: HandState, seating: list[str], streaks: dict[str, int]) -> dict[str, object]:
    """The finished hand as `ofc-desk score` reads a deal, but for the rules' keys."""
    players = [
        {
            "name": name,
            "stack": hand.stacks_before[name],
            **{row.value: [card.text for card in hand.players[name].rows[row]] for row in ROWS},
        }
        for name in seating
    ]
    return {
        "dealer": hand.button,
        "in_fantasyland": [name for name in seating if hand.players[name].fantasyland_cards],
        "fantasyland_streaks": streaks,
        "players": players,
    }


def score_deal_input(number: int, data: Mapping[str, object]) -> DealResult:
    """Hand `number`'s deal scored by the core, or refused as the rules refuse it."""
    try:
        deal = deal_from_json(data)
    except DealInputError as error:
        raise ActionRefused(
            _("hand {number} cannot be scored: {problem}").format(number=number, problem=error)
        ) from None
    return score_deal(deal)
