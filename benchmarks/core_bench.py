"""Benchmark of the rules core: figures printed, nothing asserted.

In one run, on the same random 4-player deals:
  (1) bare eval7: `eval7.evaluate` on the 12 rows of a deal, cards pre-built as eval7 cards;
  (2) `score_deal` in-process (score and settle; the Deal objects are built beforehand);
  (3) `ofc-desk score -` as one subprocess on the JSON list of all deals (JSON in and out), with
      the start-up of a 1-deal run subtracted.
It prints the time per deal of each and the ratios (2)/(1) and (3)/(1). The machine is shared, so
besides wall time it reports CPU time (the subprocess's from getrusage), which other people's load
disturbs far less, and every figure is the best of several runs.

    python benchmarks/core_bench.py [--deals 20000] [--seed 2026] [--rounds 3]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import eval7

from ofc_desk.core.cards import FULL_DECK
from ofc_desk.core.ofc.deal import score_deal
from ofc_desk.core.ofc.deal_input import deal_from_json

NAMES = ("West", "North", "East", "South")


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


def cpu_time(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def bare_eval7(deals: list[dict[str, Any]]) -> Callable[[], None]:
    """eval7 alone on the 12 rows of every deal, the cards already built as eval7 cards."""
    rows = [
        [eval7.Card(text) for text in player[row].split()]
        for deal in deals
        for player in deal["players"]
        for row in ("front", "middle", "back")
    ]
    evaluate = eval7.evaluate

    def work() -> None:
        for row in rows:
            evaluate(row)

    return work


def scoring_only(deals: list[dict[str, Any]]) -> Callable[[], None]:
    """`score_deal` on every deal, the `Deal` objects built beforehand."""
    built = [deal_from_json(deal) for deal in deals]

    def work() -> None:
        for deal in built:
            score_deal(deal)

    return work


def read_score_write(deals: list[dict[str, Any]]) -> Callable[[], None]:
    """Reading each JSON deal, `score_deal`, and the result's JSON form."""

    def work() -> None:
        for deal in deals:
            score_deal(deal_from_json(deal)).to_json()

    return work


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_cli(document: str, expected_results: int) -> tuple[float, float]:
    """Wall and CPU seconds of one `ofc-desk score -` run."""
    cpu_before, start = children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ofc_desk", "score", "-"],
        input=document,
        capture_output=True,
        text=True,
        check=True,
    )
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu_before
    if len(json.loads(done.stdout)) != expected_results:
        raise SystemExit("ofc-desk score returned the wrong number of results")
    return wall, cpu


def measure(deals: list[dict[str, Any]], rounds: int) -> dict[str, float]:
    """Seconds per deal of each measure, the best of `rounds` rounds; within a round the measures
    run one after another, so that the machine's load of the moment weighs on all of them alike."""
    in_process = {
        "bare": bare_eval7(deals),
        "scoring": scoring_only(deals),
        "whole": read_score_write(deals),
    }
    one_deal, batch = json.dumps(deals[:1]), json.dumps(deals)
    gc.freeze()  # as `ofc-desk score` does with what it has read
    best: dict[str, float] = {}
    for _ in range(rounds):
        figures = {name: cpu_time(work) / len(deals) for name, work in in_process.items()}
        start_wall, start_cpu = run_cli(one_deal, 1)
        wall, cpu = run_cli(batch, len(deals))
        figures |= {
            "cli_cpu": (cpu - start_cpu) / len(deals),
            "cli_wall": (wall - start_wall) / len(deals),
            "start_cpu": start_cpu,
            "start_wall": start_wall,
        }
        best = {name: min(value, best.get(name, value)) for name, value in figures.items()}
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()

    deals = random_deals(options.deals, options.seed)
    best = measure(deals, options.rounds)
    bare = best["bare"]

    print(f"machine: {platform.machine()}, Python {platform.python_version()}, load {_load()}")
    print(f"deals: {len(deals)} random 4-player regular deals (seed {options.seed}); CPU time unless noted;")
    print(f"best of {options.rounds} rounds")
    print(f"(1) bare eval7, 12 rows:                   {bare * 1e6:8.1f} µs per deal")
    print(f"(2) score_deal in-process:                 {best['scoring'] * 1e6:8.1f} µs per deal")
    print(f"    JSON deal read + score_deal + to_json: {best['whole'] * 1e6:8.1f} µs per deal")
    print(f"(3) ofc-desk score, batch, start-up out:   {best['cli_cpu'] * 1e6:8.1f} µs per deal CPU")
    print(f"                                           {best['cli_wall'] * 1e6:8.1f} µs per deal wall")
    print(f"    start-up of a 1-deal run:              {best['start_cpu'] * 1e3:8.1f} ms CPU")
    print(f"                                           {best['start_wall'] * 1e3:8.1f} ms wall")
    print(f"ratio (2)/(1), score_deal in-process: {best['scoring'] / bare:.1f}x")
    print(f"ratio (3)/(1), the command per deal:  {best['cli_cpu'] / bare:.1f}x")


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "unknown"


if __name__ == "__main__":
    main()
