"""The OFC rules' check (what the core would not score is refused when the rules are set), and
what settling reads of a scored hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ofc_desk.core.deal_input import DealInputError, read_choice, read_pair_units
from ofc_desk.core.ofc.deal_input import read_preset
from ofc_desk.core.ofc.presets import RulesPreset
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import PresetError
from ofc_desk.core.settlement import MAX_CHIPS, SettleFrom, SettlementPolicy
from ofc_desk.i18n import _, formatting
from ofc_desk.service.table.games.base import SettledPlayer
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.outcome import ScoredResult
from ofc_desk.service.terms.setup import TableRules


def check_rules(rules: TableRules) -> tuple[RulesPreset, Variant]:
    """Refuse rules the core would not score; give the preset and variant they name."""
    try:
        preset = read_preset(rules.preset, rules.house_options)
        data = {"variant": rules.variant, "settlement": rules.settlement, "settle_from": rules.settle_from}
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
