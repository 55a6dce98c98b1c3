"""The shift report as the floor's dialog and `ofc-desk report --shift` make it: `verify` over the
room and the shift's tables read (prints figures; not part of the test suite).

Builds a room with `verify_bench.build_room` (SQLite, reused by the next run with the same
figures; with `--jackpot`, instead, `--sessions` tables of the published example's 12 hands whose
rake drops into the room's jackpot pool, so the report reconciles a pool of every table). Then, a
fresh process a round as the command line runs it, makes the report of a shift holding every
table: wall and CPU seconds (the process and those it started), and the statements sent
(`server_cost.ServerCost`). With `--baseline TREE|COMMIT` (as `verify_bench.py`'s), that code makes
the same report in turn with this one, round for round, and the CSV of each is compared.

Usage: python benchmarks/shift_bench.py [--hands 400] [--sessions 8] [--rounds 3] [--jackpot]
[--db FILE] [--baseline TREE|COMMIT]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

import repository_root  # noqa: F401 - the root on sys.path, for tests.helpers
from verify_bench import baseline_tree, build_room, printed_in, room_built_once

from ofc_desk.service.replays.replay import run_replay
from ofc_desk.storage.database import Database
from tests.helpers.room_scripts import RAKES, table_script

BENCHMARKS = Path(__file__).resolve().parent

# Run in a child with a tree first on sys.path; prints "<wall> <cpu> <statements> <csv digest>".
ROUND = """
import hashlib, io, resource, sys, time
from datetime import UTC, datetime
sys.path.append(sys.argv[3])
from server_cost import ServerCost
from ofc_desk.reports.loader import open_to_read
from ofc_desk.reports import shift
def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
database = open_to_read(sys.argv[1])
database.schema_revision()
cost = ServerCost(database.engine)
printed = lambda: datetime(2100, 1, 1, tzinfo=UTC)
started, cpu, beside = time.perf_counter(), time.process_time(), children_cpu()
if hasattr(shift, "verified_shift_report"):
    report = shift.verified_shift_report(database, shift.ShiftWindow(), now=printed)
else:  # the code before: verify, then the report's own verified read
    from ofc_desk.service.audit.verify import verify_database
    verify_database(database)
    report = shift.shift_report(database, shift.ShiftWindow(), now=printed)
wall, own = time.perf_counter() - started, time.process_time() - cpu
taken = cost.take()
out = io.StringIO()
shift.write_shift_csv(report, out)
digest = hashlib.sha256(out.getvalue().encode()).hexdigest()[:12]
print(wall, own + children_cpu() - beside, taken.statements, digest)
"""

Round = tuple[float, float, int, str]


def build_jackpot_room(path: Path, hands: int, sessions: int) -> None:
    """`sessions` tables of the published example's 12 hands, each raking a jackpot drop
    (`room_scripts.RAKES`; `hands` is not used)."""
    with room_built_once(path) as partial:
        if partial is None:
            return
        database = Database(f"sqlite:///{partial}")
        for table in range(sessions):
            script = table_script(f"Bench {table + 1}", 12, extras=False, close=False, rake=RAKES[table % 2])
            run_replay(database, script, resume=False)
        database.dispose()


def report_in(tree: Path, url: str) -> Round:
    printed = printed_in(tree, ROUND, url, str(tree), str(BENCHMARKS))
    return float(printed[0]), float(printed[1]), int(printed[2]), printed[3]


def said(label: str, rounds: list[Round]) -> str:
    wall = statistics.median(r[0] for r in rounds)
    cpu = statistics.median(r[1] for r in rounds)
    statements = {r[2] for r in rounds}
    digests = {r[3] for r in rounds}
    return (
        f"{label:>9}: {wall:.2f} s wall, {cpu:.2f} s CPU (medians of {len(rounds)}),"
        f" statements {sorted(statements)}, CSV {sorted(digests)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jackpot", action="store_true")
    parser.add_argument("--db", type=Path)
    parser.add_argument("--baseline")
    arguments = parser.parse_args()
    kind = "_jackpot" if arguments.jackpot else ""
    room = arguments.db or Path(tempfile.gettempdir()) / (
        f"ofc_shift_bench_{arguments.hands}_{arguments.sessions}{kind}.db"
    )
    build = build_jackpot_room if arguments.jackpot else build_room
    build(room, arguments.hands, arguments.sessions)
    url = f"sqlite:///{room}"
    trees = {"this code": BENCHMARKS.parent}
    if arguments.baseline:
        trees = {"baseline": baseline_tree(arguments.baseline), **trees}
    rounds: dict[str, list[Round]] = {label: [] for label in trees}
    for _ in range(arguments.rounds):
        for label, tree in trees.items():
            rounds[label].append(report_in(tree, url))
    print(f"shift report of every table: {arguments.hands} hands at {arguments.sessions} tables")
    for label, found in rounds.items():
        print(said(label, found))
    digests = {r[3] for found in rounds.values() for r in found}
    print("the same CSV from every round" if len(digests) == 1 else f"CSVs DIFFER: {sorted(digests)}")


if __name__ == "__main__":
    main()
