"""The room's jackpot pool as a desk reads it (issue 35): walked from the events, never read from
its last row (prints figures; not part of the test suite).

Builds a session in SQLite through the real session service (three-handed progressive pineapple,
a jackpot drop at every hand: not timed), then times, in a fresh process's `Database`:
- the first reading of the pool (`pool_ledger.pool_reading`): every table with a row of the pool
  folded through the rules, its chain and its changes' signatures checked;
- a reading with nothing new since (what a settlement's reading under the pool's lock costs when
  the desk has read the pool before it, as `EventStore.append` does);
- `verify` of the whole database, for comparison.

Usage: python benchmarks/pool_bench.py [--hands 300] [--db FILE]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from service_bench import generate_script

from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.store.pool_ledger import pool_reading
from ofc_desk.storage.database import Database

T = TypeVar("T")
DROP = {"rake": {"mode": "per-player", "amount": 1, "percent": 0, "cap": 3, "jackpot_percent": 100}}


def build(path: Path, hands: int) -> None:
    if path.exists():
        print(f"reusing the room in {path}")
        return
    started = time.perf_counter()
    database = Database(f"sqlite:///{path}")
    run_replay(database, {**generate_script(hands), "house_options": DROP}, resume=False)
    database.dispose()
    print(f"built {hands} hands in {time.perf_counter() - started:.0f} s (not timed below)")


def timed(what: str, call: Callable[[], T]) -> T:
    started = time.perf_counter()
    result = call()
    print(f"{what}: {time.perf_counter() - started:.3f} s")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--db", type=Path)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = arguments.db or Path(folder) / "pool.db"
        build(path, arguments.hands)
        database = Database(f"sqlite:///{path}")
        reading = timed("first reading of the pool (the whole room walked)", lambda: pool_reading(database))
        timed("next reading, nothing new", lambda: pool_reading(database))
        timed("verify of the database", lambda: verify_database(database, fork=False))
        print(f"pool {reading.pool} chips; fault {reading.fault}; set aside {len(reading.set_aside)}")
        database.dispose()


if __name__ == "__main__":
    main()
