"""Benchmark of the rules core (issue 2): figures printed, nothing asserted.

In one run, on the same random 4-player deals:
  (1) bare eval7: `eval7.evaluate` on the 12 rows of a deal, cards pre-built as eval7 cards;
  (2) `score_deal` in-process (score and settle; the Deal objects are built beforehand);
  (3) `ofc-desk score -` as one subprocess on the JSON list of all deals (JSON in and out), with
      the start-up of a 1-deal run subtracted.
It prints the time per deal of each and the ratio (3)/(1) against the goal of at most 12x. The
machine is shared, so besides wall time it reports CPU time (the subprocess's from getrusage), which
other people's load disturbs far less.

    python benchmarks/core_bench.py [--deals 20000] [--seed 2026]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import subprocess
import sys
import time
from typing import Any

import eval7

from ofc_desk.core.cards import FULL_DECK
from ofc_desk.core.deal import score_deal
from ofc_desk.core.deal_input import deal_from_json

NAMES = ("West", "North", "East", "South")
GOAL = 12.0


def random_deals(count: int, seed: int) -> list[dict[str, Any]]:
    """Finished 4-player regular deals in the `ofc-desk score` input format (fouls included)."""
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        deck = [str(card) for card in FULL_DECK]
        rng.shuffle(deck)
        players = []
        for seat, name in enumerate(NAMES):
            cards = deck[13 * seat : 13 * seat + 13]
            players.append(
                {
                    "name": name,
                    "stack": rng.randint(0, 200),
                    "front": " ".join(cards[:3]),
                    "middle": " ".join(cards[3:8]),
                    "back": " ".join(cards[8:]),
                }
            )
        deals.append({"dealer": rng.choice(NAMES), "players": players})
    return deals


def time_bare_eval7(deals: list[dict[str, Any]], repeat: int = 5) -> float:
    """CPU seconds per deal for eval7 alone on the 12 rows; best of `repeat` passes."""
    rows = [
        [eval7.Card(text) for text in player[row].split()]
        for deal in deals
        for player in deal["players"]
        for row in ("front", "middle", "back")
    ]
    evaluate = eval7.evaluate
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for row in rows:
            evaluate(row)
        best = min(best, time.process_time() - start)
    return best / len(deals)


def time_in_process(deals: list[dict[str, Any]]) -> tuple[float, float]:
    """CPU seconds per deal for `score_deal`, and for reading the JSON deal + `score_deal` + output."""
    built = [deal_from_json(deal) for deal in deals]
    start = time.process_time()
    for deal in built:
        score_deal(deal)
    scoring = time.process_time() - start
    start = time.process_time()
    for deal in deals:
        score_deal(deal_from_json(deal)).to_json()
    whole = time.process_time() - start
    return scoring / len(deals), whole / len(deals)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_cli(document: str) -> tuple[float, float, str]:
    """Wall and CPU seconds of one `ofc-desk score -` run, and its output."""
    cpu_before, start = children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ofc_desk", "score", "-"],
        input=document,
        capture_output=True,
        text=True,
        check=True,
    )
    return time.perf_counter() - start, children_cpu() - cpu_before, done.stdout


def time_cli(deals: list[dict[str, Any]]) -> dict[str, float]:
    """Per deal through `ofc-desk score` in batch, start-up (best of 3 one-deal runs) subtracted."""
    start_ups = [run_cli(json.dumps(deals[:1])) for _ in range(3)]
    wall_start, cpu_start = min(run[0] for run in start_ups), min(run[1] for run in start_ups)
    wall, cpu, output = run_cli(json.dumps(deals))
    if len(json.loads(output)) != len(deals):
        raise SystemExit("ofc-desk score returned the wrong number of results")
    return {
        "wall": (wall - wall_start) / len(deals),
        "cpu": (cpu - cpu_start) / len(deals),
        "start_wall": wall_start,
        "start_cpu": cpu_start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args()

    deals = random_deals(options.deals, options.seed)
    bare = time_bare_eval7(deals)
    scoring, whole = time_in_process(deals)
    cli = time_cli(deals)

    print(f"machine: {platform.machine()}, Python {platform.python_version()}, load {_load()}")
    print(f"deals: {len(deals)} random 4-player regular deals (seed {options.seed}); CPU time unless noted")
    print(f"(1) bare eval7, 12 rows:                   {bare * 1e6:8.1f} µs per deal")
    print(f"(2) score_deal in-process:                 {scoring * 1e6:8.1f} µs per deal")
    print(f"    JSON deal read + score_deal + to_json: {whole * 1e6:8.1f} µs per deal")
    print(f"(3) ofc-desk score, batch, start-up out:   {cli['cpu'] * 1e6:8.1f} µs per deal CPU")
    print(f"                                           {cli['wall'] * 1e6:8.1f} µs per deal wall")
    print(f"    start-up of a 1-deal run:              {cli['start_cpu'] * 1e3:8.1f} ms CPU")
    print(f"                                           {cli['start_wall'] * 1e3:8.1f} ms wall")
    ratio = cli["cpu"] / bare
    verdict = "met" if ratio <= GOAL else "MISSED"
    print(f"ratio (3)/(1): {ratio:.1f}x (goal <= {GOAL:.0f}x: {verdict}); (2)/(1): {scoring / bare:.1f}x")


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "unknown"


if __name__ == "__main__":
    main()
