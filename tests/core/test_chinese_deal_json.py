"""A Chinese poker deal written out as `ofc-desk score` reads it (`chinese_deal_to_json`, what
`verify` sends its second process) reads back as the same deal, through JSON text, and scores alike."""

from __future__ import annotations

import functools
import json
from dataclasses import replace
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from ofc_desk.core.cards import FULL_DECK, Card, Rank, Suit
from ofc_desk.core.chinese.deal import MAX_PLAYERS, MIN_PLAYERS, ChineseDeal, ChineseSeat, score_chinese_deal
from ofc_desk.core.chinese.deal_input import chinese_deal_from_json, chinese_deal_to_json
from ofc_desk.core.chinese.presets import ChinesePreset, chinese_preset_from_dict, load_chinese_preset
from ofc_desk.core.chinese.showdown import Entry
from ofc_desk.core.chinese.specials import SpecialKind
from ofc_desk.core.presets import Game, preset_names
from ofc_desk.core.rows import SetHand
from ofc_desk.core.settlement import SettleFrom, SettlementPolicy

NAMES = ("Ann", "Bob", "Cy", "Dee", "Éva", "李")
CHIPS = st.integers(0, 10**9)
SET, SURRENDER, DECLARE = "set", "surrender", "declare"


CHINESE_PRESETS = preset_names(Game.CHINESE)
"""Listed once a process, not at each example: the shipped folder does not change in a run."""


@functools.cache
def preset_with(name: str, options: tuple[tuple[str, object], ...]) -> ChinesePreset:
    """A shipped preset (with these options, if any), read and built once a process: a preset is
    frozen, so every example drawing the same gets the same value it would build anew."""
    base = load_chinese_preset(name)
    return chinese_preset_from_dict(base.source, dict(options)) if options else base


@st.composite
def presets(draw: st.DrawFn) -> ChinesePreset:
    name = draw(st.sampled_from(CHINESE_PRESETS))
    if draw(st.booleans()):
        return preset_with(name, ())
    return preset_with(name, (("sweep", draw(st.integers(0, 9))), ("aces", draw(st.booleans()))))


def set_hand(cards: list[Card]) -> SetHand:
    """The first 13 cards, set front, middle and back."""
    return SetHand(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:13]))


@st.composite
def six_pairs(draw: st.DrawFn) -> list[Card]:
    """Six pairs and an odd card, of seven different ranks (no trips: a strict house takes it)."""
    ranks = draw(st.permutations(list(Rank)))[:7]
    cards = []
    for position, rank in enumerate(ranks):
        suits = draw(st.permutations(list(Suit)))
        cards += [Card(rank, suit) for suit in suits[: 1 if position == 6 else 2]]
    return draw(st.permutations(cards))


def showdowns(preset: ChinesePreset) -> list[str]:
    """The kinds of showdown the preset plays: a set hand always, a surrender or a declared six
    pairs when it plays them."""
    kinds = [SET]
    if not preset.unplayed(surrender=True):
        kinds.append(SURRENDER)
    if not preset.unplayed(declaration=True) and preset.special(SpecialKind.SIX_PAIRS) is not None:
        kinds.append(DECLARE)
    return kinds


@st.composite
def deals(draw: st.DrawFn) -> ChineseDeal:
    preset = draw(presets())
    count = draw(st.integers(MIN_PLAYERS, MAX_PLAYERS))
    names = draw(st.permutations(NAMES))[:count]
    kinds = [draw(st.sampled_from(showdowns(preset))) for _ in names]
    kinds = [SET if kind == DECLARE and DECLARE in kinds[:seat] else kind for seat, kind in enumerate(kinds)]
    declared = draw(six_pairs()) if DECLARE in kinds else []
    deck = [card for card in draw(st.permutations(FULL_DECK)) if card not in declared]
    players = []
    for name, kind in zip(names, kinds, strict=True):
        if kind == SURRENDER:
            entry = Entry.surrender()
        elif kind == DECLARE:
            special = preset.special(SpecialKind.SIX_PAIRS)
            assert special is not None
            rows = set_hand(declared) if draw(st.booleans()) else None
            entry = Entry.declare(special, declared if rows is None else rows.cards, rows)
        else:
            entry = Entry.set_rows(set_hand(deck[:13]))
            deck = deck[13:]
        players.append(ChineseSeat(name, draw(CHIPS), entry))
    pairs = draw(st.sets(st.sampled_from([frozenset(pair) for pair in combinations(names, 2)])))
    return ChineseDeal(
        preset=preset,
        dealer=draw(st.sampled_from(names)),
        players=tuple(players),
        unit=draw(st.integers(1, 1000)),
        pair_units={pair: draw(st.integers(1, 1000)) for pair in pairs},
        settlement=draw(st.sampled_from(list(SettlementPolicy))),
        settle_from=draw(st.sampled_from(list(SettleFrom))),
        jackpot_pool=draw(st.none() | CHIPS),
    )


@given(deals())
def test_a_deal_written_out_reads_back_as_itself_and_scores_alike(deal: ChineseDeal) -> None:
    read = chinese_deal_from_json(json.loads(json.dumps(chinese_deal_to_json(deal))))
    assert read == deal
    assert score_chinese_deal(read).to_json() == score_chinese_deal(deal).to_json()
    assert chinese_deal_from_json(chinese_deal_to_json(deal)) != replace(
        deal, unit=deal.unit + 1
    )  # it compares
