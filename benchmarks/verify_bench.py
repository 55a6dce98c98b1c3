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
from ofc_desk.service.verify import verify_database
from ofc_desk.storage.database import Database, open_existing

# Run in a child with the baseline tree first on sys.path; prints "<hands> <seconds>" per round.
BASELINE_ROUND = """
import sys, time
from ofc_desk.service.verify import verify_database
from ofc_desk.storage.database import open_existing
database = open_existing(sys.argv[1])
database.schema_revision()
started = time.perf_counter()
summary = verify_database(database)
print(summary.hands, time.perf_counter() - started)
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


def verify_here(url: str) -> tuple[int, float]:
    database = open_existing(url)
    database.schema_revision()  # connect and read the schema before the clock starts
    started = time.perf_counter()
    summary = verify_database(database)
    elapsed = time.perf_counter() - started
    database.dispose()
    return summary.hands, elapsed


def verify_in(tree: Path, url: str) -> tuple[int, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    printed = subprocess.run(
        [sys.executable, "-c", BASELINE_ROUND, url], env=env, check=True, capture_output=True, text=True
    ).stdout.split()
    return int(printed[0]), float(printed[1])


def report(label: str, rounds: list[tuple[int, float]]) -> float:
    hands = rounds[0][0]
    best = min(seconds for _, seconds in rounds)
    figures = ", ".join(f"{seconds:.2f} s" for _, seconds in rounds)
    print(f"{label}: {hands} hands, best {best:.2f} s = {hands / best:,.0f} hands per second ({figures})")
    return hands / best


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
            ours.append(verify_here(url))
            if args.baseline:
                theirs.append(verify_in(args.baseline, url))
        speed = report("verify (this tree)", ours)
        if args.baseline:
            before = report(f"verify ({args.baseline})", theirs)
            print(f"ratio: {speed / before:.1f}x")


if __name__ == "__main__":
    main()
