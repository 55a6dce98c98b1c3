"""A deal written out as `ofc-desk score` reads it (`deal_to_json`, what `verify` sends its second
process) reads back as the same deal, through JSON text."""

from __future__ import annotations

import json
from dataclasses import replace
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from ofc_desk.core.cards import FULL_DECK, Card
from ofc_desk.core.ofc.deal import Deal, SeatHand
from ofc_desk.core.ofc.deal_input import deal_from_json, deal_to_json
from ofc_desk.core.ofc.presets import RulesPreset, load_preset, preset_from_dict
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import Game, preset_names
from ofc_desk.core.rows import SetHand
from ofc_desk.core.settlement import SettleFrom, SettlementPolicy

NAMES = ("Ann", "Bob", "Cy", "Dee", "Éva", "李")
CHIPS = st.integers(0, 10**9)


@st.composite
def presets(draw: st.DrawFn) -> RulesPreset:
    base = load_preset(draw(st.sampled_from(preset_names(Game.OFC))))
    if draw(st.booleans()):
        return base
    house_options = {"foul_penalty": draw(st.integers(0, 9)), "winner_only_royalties": draw(st.booleans())}
    return preset_from_dict(base.source, house_options)


def set_hand(cards: list[Card]) -> SetHand:
    """The first 13 cards, set front, middle and back."""
    return SetHand(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:13]))


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    preset = draw(presets())
    variant = draw(st.sampled_from(list(Variant)))
    structure = variant.structure
    count = draw(st.integers(structure.min_players, structure.max_players))
    names = draw(st.permutations(NAMES))[:count]
    deck = draw(st.permutations(FULL_DECK))
    players = tuple(
        SeatHand(name, draw(CHIPS), set_hand(deck[13 * seat :])) for seat, name in enumerate(names)
    )
    in_fantasyland = frozenset(draw(st.sets(st.sampled_from(names))))
    streaks = draw(st.dictionaries(st.sampled_from(names), st.integers(1, 5)))
    pairs = draw(st.sets(st.sampled_from([frozenset(pair) for pair in combinations(names, 2)])))
    return Deal(
        preset=preset,
        dealer=draw(st.sampled_from(names)),
        players=players,
        scoring=draw(st.none() | st.sampled_from(sorted(preset.scoring_systems))),
        variant=variant,
        progressive=draw(st.booleans()),
        unit=draw(st.integers(1, 1000)),
        pair_units={pair: draw(st.integers(1, 1000)) for pair in pairs},
        settlement=draw(st.sampled_from(list(SettlementPolicy))),
        settle_from=draw(st.sampled_from(list(SettleFrom))),
        in_fantasyland=in_fantasyland,
        fantasyland_streaks={name: count for name, count in streaks.items() if name in in_fantasyland},
        jackpot_pool=draw(st.none() | CHIPS),
    )


@given(deals())
def test_a_deal_written_out_reads_back_as_itself(deal: Deal) -> None:
    assert deal_from_json(json.loads(json.dumps(deal_to_json(deal)))) == deal
    assert deal_from_json(deal_to_json(deal)) != replace(deal, unit=deal.unit + 1)  # it compares
