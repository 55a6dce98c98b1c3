"""`ofc-desk verify` at card-room scale (prints figures; not part of the test suite).

Builds a 1,000-hand three-handed progressive pineapple session in SQLite through the real session
service (the engine of `ofc-desk replay`; not timed, about a minute), then times `verify_database`
on it: every hash, every event re-checked by the rules, every hand re-scored and re-settled, every
derived row compared. Start-up (imports, opening the database) is outside the timing.

With `--baseline TREE` (a checkout of another commit, e.g. made with `git worktree add`), the same
database is also verified by that tree's code in a child process, rounds taken in turn, so the two
figures come from one run on the same machine load.

Usage: python benchmarks/verify_bench.py [--hands 1000] [--rounds 3] [--db FILE] [--baseline TREE]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from service_bench import generate_script

from ofc_desk.service.replay import run_replay
from ofc_desk.storage.database import Database

# Run in a child with the baseline tree first on sys.path; prints "<hands> <seconds>" per round.
BASELINE_ROUND = """
import resource, sys, time
from ofc_desk.service.verify import verify_database
from ofc_desk.storage.database import open_existing
def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
database = open_existing(sys.argv[1])
database.schema_revision()
started, cpu, beside = time.perf_counter(), time.process_time(), children_cpu()
summary = verify_database(database)
wall, own = time.perf_counter() - started, time.process_time() - cpu
print(summary.hands, wall, own + children_cpu() - beside)
"""
CHECK_TREE = """
from pathlib import Path
import ofc_desk
assert Path(ofc_desk.__file__).resolve().is_relative_to(Path(sys.argv[2]).resolve()), ofc_desk.__file__
"""


def build_session(path: Path, hands: int) -> None:
    """Play the session into a new SQLite file unless `path` already holds one."""
    if path.exists():
        print(f"reusing the session in {path}")
        return
    started = time.perf_counter()
    database = Database(f"sqlite:///{path}")
    run_replay(database, generate_script(hands), resume=False)
    database.dispose()
    print(f"played {hands} hands into {path} in {time.perf_counter() - started:.0f} s (not timed)")


Round = tuple[int, float, float]
"""Hands verified, wall seconds, CPU seconds of the verifying process and the processes it started
(a long session's chain, signatures and re-scoring are checked in second processes)."""


def verify_in(tree: Path, url: str) -> Round:
    # Run inside the tree: `python -c` puts the working folder first on sys.path.
    env = {**os.environ, "PYTHONPATH": str(tree)}
    printed = subprocess.run(
        [sys.executable, "-c", BASELINE_ROUND + CHECK_TREE, url, str(tree)],
        env=env,
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return int(printed[0]), float(printed[1]), float(printed[2])


def report(label: str, rounds: list[Round]) -> tuple[float, float]:
    """Best wall and best CPU figures in hands per second. The wall figure is the goal's (how long
    the check takes); the CPU figure adds up every process's work, steadier on a shared machine."""
    hands = rounds[0][0]
    wall, cpu = min(round[1] for round in rounds), min(round[2] for round in rounds)
    figures = ", ".join(f"{round[1]:.2f}" for round in rounds)
    print(
        f"{label}: {hands} hands; best wall {wall:.2f} s = {hands / wall:,.0f} hands per second"
        f" (rounds: {figures} s); best CPU {cpu:.2f} s = {hands / cpu:,.0f} hands per CPU second"
    )
    return hands / wall, hands / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--db", type=Path, help="SQLite file to keep the session in (reused if present)")
    parser.add_argument("--baseline", type=Path, help="a checkout of the code to compare against")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = args.db or Path(folder) / "verify.db"
        build_session(path, args.hands)
        url = f"sqlite:///{path}"
        ours, theirs = [], []
        for _ in range(args.rounds):
            # A fresh process a round, as for the baseline: no cache warmed by an earlier round.
            ours.append(verify_in(Path(__file__).resolve().parents[1], url))
            if args.baseline:
                theirs.append(verify_in(args.baseline, url))
        speed = report("verify (this tree)", ours)
        if args.baseline:
            before = report(f"verify ({args.baseline})", theirs)
            print(f"ratio: {speed[0] / before[0]:.1f}x wall, {speed[1] / before[1]:.1f}x CPU")


if __name__ == "__main__":
    main()
