"""A desk's reading of the room's pool in a room with a long history (issue 39: a room lives for
years): many closed tables, each with rows of the pool, and one open table (prints figures; not
part of the test suite).

Builds, in SQLite and not timed, an open award table (a seed and a hand with a jackpot drop,
through the replay) and `--closed` tables each seeded with 10 chips by a supervisor and closed.
Then, in a fresh process, on its own copy of the room: the first reading of the pool (the whole
room walked), and `--rounds` times a seed at the open table followed by the reading a jackpot
settlement makes under the pool's lock (`held_pool`), then a seed and the floor's reading in its
snapshot (`pool_in`); last, the shift report's pool at the start and the end of a shift that began
with the rounds (`shift_pool.reconcile_pool`): each timed, with the statements it sent.

With `--baseline TREE` (a checkout of another commit, e.g. made with `git worktree add`) the same
is measured by that code in a child process, in the same run, on its own copy of the same room.

Usage (from the repository's root): python benchmarks/pool_history_bench.py [--closed 500]
[--rounds 20] [--db FILE] [--baseline TREE]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import repository_root  # noqa: F401 - the root on sys.path, for tests.helpers

from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.table.commands import CloseSession, SeedJackpot
from ofc_desk.service.terms.setup import SeatSetup, TableSetup
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import sign_in
from tests.helpers.jackpot_awards import HOUSE_AWARD, PLAYERS, award_replay_script, award_rules
from tests.helpers.room_scripts import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN

# Run in a fresh process inside the tree measured (`python -c` puts it first on sys.path).
MEASURE = """
import statistics, sys, time
from datetime import UTC, datetime
from ofc_desk.reports.shift_pool import reconcile_pool
from sqlalchemy import event, select
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.store.pool_ledger import held_pool, pool_in, pool_reading
from ofc_desk.service.table.commands import SeedJackpot
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import TableSession
from ofc_desk.storage.users import sign_in
url, rounds, dealer, dealer_pin, supervisor, pin = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
sent = []
reader = Database(url)
event.listen(reader.engine, "before_cursor_execute", lambda *arguments: sent.append(1))
def timed(read):
    sent.clear()
    started = time.perf_counter()
    read()
    return time.perf_counter() - started, len(sent)
def held():
    with reader.session() as session:
        held_pool(session, reader)
def floor():
    with reader.snapshot() as session:
        pool_in(session, reader)
writer = Database(url)
with writer.snapshot() as session:
    open_id = session.execute(select(TableSession.id).where(TableSession.closed_at.is_(None))).scalar_one()
desk = TableService.resume(writer, open_id, sign_in(writer, dealer, dealer_pin))
first = timed(lambda: pool_reading(reader))
shift_start = datetime.now(UTC)
figures = {"held": [], "floor": []}
for _ in range(rounds):
    for name, read in (("held", held), ("floor", floor)):
        desk.do(SeedJackpot(1, supervisor=supervisor, pin=pin))
        figures[name].append(timed(read))
shift = timed(lambda: reconcile_pool(reader, [], shift_start, datetime.now(UTC)))
print(f"first {first[0]:.4f} {first[1]}")
print(f"shift {shift[0]:.4f} {shift[1]}")
for name, found in figures.items():
    print(f"{name} {statistics.median(s for s, _n in found):.4f} {max(n for _s, n in found)}")
"""

WHAT = {
    "first": "first reading (the whole room walked)",
    "held": "settlement's reading under the pool's lock, p50",
    "floor": "floor's reading in its snapshot, p50",
    "shift": "shift report's pool at its start and end (the rounds' seeds its shift)",
}


def build(path: Path, closed: int) -> None:
    if path.exists():
        print(f"reusing the room in {path}")
        return
    started = time.perf_counter()
    database = Database(f"sqlite:///{path}")
    run_replay(database, award_replay_script("Open", seed=1000), resume=False)
    dealer = sign_in(database, DEALER, DEALER_PIN)
    seats = tuple(SeatSetup(player, 100) for player in PLAYERS)
    for number in range(closed):
        setup = TableSetup(f"Past {number}", seats, "Dee", award_rules(**HOUSE_AWARD))
        service = TableService.open(database, setup, dealer)
        service.do(SeedJackpot(10, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
        service.do(CloseSession(supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    database.dispose()
    print(
        f"built the open table and {closed} closed ones in {time.perf_counter() - started:.0f} s (not timed)"
    )


def measure(tree: Path, room: Path, rounds: int) -> dict[str, tuple[float, int]]:
    """The figures of the code in `tree`, on a copy of the room of its own."""
    copy = room.with_name(f"{room.stem}-{os.getpid()}-{abs(hash(tree))}.db")
    shutil.copyfile(room, copy)
    try:
        env = {**os.environ, "PYTHONPATH": str(tree)}
        argv = [sys.executable, "-c", MEASURE, f"sqlite:///{copy}", str(rounds)]
        argv += [DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN]
        done = subprocess.run(argv, cwd=tree, env=env, check=True, capture_output=True, text=True)
    finally:
        copy.unlink()
    lines = (line.split() for line in done.stdout.splitlines())
    return {name: (float(seconds), int(statements)) for name, seconds, statements in lines}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--closed", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--db", type=Path, help="SQLite file to keep the room in (reused if present)")
    parser.add_argument("--baseline", type=Path, help="a checkout of the code to compare against")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        room = arguments.db or Path(folder) / "history.db"
        build(room, arguments.closed)
        trees = {"this code": Path(__file__).resolve().parents[1]}
        if arguments.baseline is not None:
            trees = {"baseline": arguments.baseline, **trees}
        found = {name: measure(tree, room, arguments.rounds) for name, tree in trees.items()}
        for key, what in WHAT.items():
            figures = "; ".join(
                f"{name} {found[name][key][0] * 1000:.1f} ms, {found[name][key][1]} statements"
                for name in found
            )
            print(f"{what}: {figures}")


if __name__ == "__main__":
    main()
