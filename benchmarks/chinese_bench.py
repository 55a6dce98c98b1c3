"""Benchmark of closed Chinese poker in the rules core: figures printed, nothing asserted.

In one run:
  (1) special-hand detection: every special of docs/rules.md §10 looked for in 13 cards (what the
      desk does to suggest a declaration), on random hands and on hands built to be hard for the
      search (two five-card straights or flushes and a three-card one, one card swapped); the mean
      and the slowest hand, goal under 5 ms a hand;
  (2) a 4-player Chinese deal scored and settled in-process (`score_chinese_deal`, deals built
      beforehand: set hands, misset hands, surrenders and declared specials), per preset;
  (3) the same with the JSON deal read and the result turned into JSON (what `ofc-desk score` does
      per deal), beside an OFC regular deal of the same cards through `score_deal`, for the ratio.
CPU time, best of several rounds (the machine is shared).

    python benchmarks/chinese_bench.py [--hands 3000] [--deals 3000] [--seed 2026] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from ofc_desk.core.cards import FULL_DECK, Card, Rank, Suit
from ofc_desk.core.chinese.deal import ChineseDeal, score_chinese_deal
from ofc_desk.core.chinese.deal_input import chinese_deal_from_json
from ofc_desk.core.chinese.presets import ChinesePreset, chinese_preset_from_dict, load_chinese_preset
from ofc_desk.core.chinese.specials import SpecialKind
from ofc_desk.core.ofc.deal import score_deal
from ofc_desk.core.ofc.deal_input import deal_from_json
from ofc_desk.core.presets import Game, preset_names

NAMES = ("West", "North", "East", "South")
RANKS = list(Rank)


def every_special() -> ChinesePreset:
    """A preset listing all fourteen kinds, so that detection looks for every one."""
    specials = [{"kind": kind.value, "units": 1} for kind in SpecialKind]
    for special in specials:
        if special["kind"] == SpecialKind.SMALL:
            special["highest"] = "9"
        if special["kind"] == SpecialKind.BIG:
            special["lowest"] = "8"
    return chinese_preset_from_dict(
        {"name": "every-special", "scheme": "rows", "surrender": 1, "specials": specials}
    )


def random_hands(count: int, rng: random.Random) -> list[list[Card]]:
    return [rng.sample(FULL_DECK, 13) for _ in range(count)]


def hard_hands(count: int, rng: random.Random) -> list[list[Card]]:
    """Straights (or flushes) of 5, 5 and 3 in random suits, one card swapped half of the time."""
    hands: list[list[Card]] = []
    while len(hands) < count:
        cards: list[Card] = []
        flushes = rng.random() < 0.5
        for size in (5, 5, 3):
            suit = rng.choice(list(Suit))
            if flushes:
                ranks = rng.sample(RANKS, size)
            else:
                low = rng.randint(-1, len(RANKS) - size)
                ranks = [RANKS[order] for order in range(low, low + size)]
            cards += [Card(rank, suit if flushes else rng.choice(list(Suit))) for rank in ranks]
        if len(set(cards)) != len(cards):
            continue
        if rng.random() < 0.5:
            cards[rng.randrange(13)] = rng.choice([card for card in FULL_DECK if card not in cards])
        hands.append(cards)
    return hands


def detection_times(preset: ChinesePreset, hands: list[list[Card]]) -> tuple[float, float]:
    """Mean and slowest seconds per hand of listing the specials a hand makes."""
    slowest, start_all = 0.0, time.process_time()
    for cards in hands:
        start = time.perf_counter()
        preset.specials_made(cards)
        slowest = max(slowest, time.perf_counter() - start)
    return (time.process_time() - start_all) / len(hands), slowest


def random_chinese_deals(count: int, rules: str, rng: random.Random) -> list[dict[str, Any]]:
    """4-player deals in the `ofc-desk score` format: mostly set hands (half sorted by rank, so
    mostly set correctly; the rest as dealt, so mostly misset), some surrenders, and a declaration
    where the cards make a special the preset lists."""
    preset = load_chinese_preset(rules)
    deals = []
    for _ in range(count):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        players = []
        for seat, name in enumerate(NAMES):
            cards = deck[13 * seat : 13 * seat + 13]
            player: dict[str, Any] = {"name": name, "stack": rng.randint(0, 200)}
            made = preset.specials_made(cards)
            if made:
                player |= {"declare": made[0].kind.value, "cards": " ".join(map(str, cards))}
            elif preset.surrender is not None and rng.random() < 0.1:
                player["surrender"] = True  # only at a table whose preset plays surrender
            else:
                if rng.random() < 0.5:
                    cards = sorted(cards, key=lambda card: card.rank.order)
                player |= {
                    "front": " ".join(map(str, cards[:3])),
                    "middle": " ".join(map(str, cards[3:8])),
                    "back": " ".join(map(str, cards[8:])),
                }
            players.append(player)
        deals.append({"variant": "chinese", "rules": rules, "dealer": rng.choice(NAMES), "players": players})
    return deals


def same_cards_as_ofc(deals: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """Regular OFC deals of random 4-player hands, for the side-by-side ratio."""
    ofc = []
    for deal in deals:
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        players = [
            {
                "name": name,
                "stack": 100,
                "front": " ".join(map(str, deck[13 * seat : 13 * seat + 3])),
                "middle": " ".join(map(str, deck[13 * seat + 3 : 13 * seat + 8])),
                "back": " ".join(map(str, deck[13 * seat + 8 : 13 * seat + 13])),
            }
            for seat, name in enumerate(NAMES)
        ]
        ofc.append({"dealer": deal["dealer"], "players": players})
    return ofc


def _scored_all(deals: list[ChineseDeal]) -> list[object]:
    return [score_chinese_deal(deal) for deal in deals]


def per_item(work: Callable[[], object], count: int, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        work()
        best = min(best, (time.process_time() - start) / count)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    rng = random.Random(options.seed)

    print(f"machine: {platform.machine()}, Python {platform.python_version()}, load {_load()}")
    print(f"CPU time, best of {options.rounds} rounds (the slowest single hand: wall time)")
    preset = every_special()
    for label, hands in (
        ("random hands", random_hands(options.hands, rng)),
        ("hard hands  ", hard_hands(options.hands, rng)),
    ):
        runs = [detection_times(preset, hands) for _ in range(options.rounds)]
        mean, slowest = min(run[0] for run in runs), min(run[1] for run in runs)
        print(f"(1) every special, {label}: {mean * 1e6:7.1f} µs a hand; slowest {slowest * 1e3:.2f} ms")

    for rules in preset_names(Game.CHINESE):
        deals = random_chinese_deals(options.deals, rules, rng)
        built: list[ChineseDeal] = [chinese_deal_from_json(deal) for deal in deals]
        scored = per_item(partial(_scored_all, built), len(built), options.rounds)
        print(f"(2) {rules:<17} 4 players, score and settle: {scored * 1e6:7.1f} µs a deal")

    deals = random_chinese_deals(options.deals, "chinese-typical", rng)
    ofc_deals = same_cards_as_ofc(deals, rng)
    rounds = options.rounds
    chinese = per_item(
        lambda: [score_chinese_deal(chinese_deal_from_json(deal)).to_json() for deal in deals],
        len(deals),
        rounds,
    )
    ofc = per_item(
        lambda: [score_deal(deal_from_json(deal)).to_json() for deal in ofc_deals], len(deals), rounds
    )
    print(f"(3) chinese-typical, JSON read + score + settle + JSON: {chinese * 1e6:7.1f} µs a deal")
    print(f"    OFC regular (standard), the same steps:             {ofc * 1e6:7.1f} µs a deal")
    print(f"    ratio Chinese / OFC: {chinese / ofc:.2f}x")


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "unknown"


if __name__ == "__main__":
    main()
