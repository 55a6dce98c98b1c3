"""What opening a room's database costs a start (issue 39.4): figures printed, nothing asserted.

Three things every desk, floor and command does, or its first start does, each timed in CPU
milliseconds with the statements it sent: `Database(url)` on a SQLite file at the newest migration
(what nearly every start finds), the same on a PostgreSQL schema at the newest migration (with
`--postgres URL`, the owner's URL of an empty database or schema to migrate first), and a new
SQLite file migrated from nothing. Each engine is let go after its open (`dispose`).

With `--baseline TREE` (a checkout of another commit, e.g. `git archive` into a folder) the same
is measured by that code in a child process of its own, in the same run, beside this tree's.

    python benchmarks/open_bench.py [--opens 300] [--migrations 20] [--postgres URL] [--baseline TREE]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

# Run in a fresh process inside the tree measured (`python -c` puts it first on sys.path).
MEASURE = """
import sys, time
from pathlib import Path
from sqlalchemy import Engine, event
from ofc_desk.storage.database import Database
folder, opens, migrations, postgres = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
sent = []
event.listen(Engine, "before_cursor_execute", lambda *arguments: sent.append(1))
def timed(name, urls):
    sent.clear()
    start = time.process_time()
    for url in urls:
        Database(url).dispose()
    print(name, 1000 * (time.process_time() - start) / len(urls), len(sent) / len(urls))
current = f"sqlite:///{folder / 'current.db'}"
Database(current).dispose()
timed("sqlite", [current] * opens)
if postgres:
    Database(postgres).dispose()
    timed("postgresql", [postgres] * opens)
timed("new", [f"sqlite:///{folder / f'new-{number}.db'}" for number in range(migrations)])
"""
WHAT = {
    "sqlite": "a SQLite file at the newest migration opened",
    "postgresql": "a PostgreSQL schema at the newest migration opened",
    "new": "a new SQLite file migrated from nothing",
}


def measure(tree: Path, arguments: argparse.Namespace) -> dict[str, tuple[float, float]]:
    """The figures of the code in `tree`, in a folder of its own (its PostgreSQL schema is the
    one given, migrated by the first tree measured)."""
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "PYTHONPATH": str(tree), "OFC_DESK_TEST_SQLITE_SYNCHRONOUS": "OFF"}
        argv = [sys.executable, "-c", MEASURE, folder, str(arguments.opens), str(arguments.migrations)]
        argv.append(arguments.postgres or "")
        done = subprocess.run(argv, cwd=tree, env=env, check=True, capture_output=True, text=True)
    lines = (line.split() for line in done.stdout.splitlines())
    return {name: (float(milliseconds), float(statements)) for name, milliseconds, statements in lines}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opens", type=int, default=300, help="opens of a current database")
    parser.add_argument("--migrations", type=int, default=20, help="new files migrated from nothing")
    parser.add_argument("--postgres", help="owner's URL of a PostgreSQL database or schema to use")
    parser.add_argument("--baseline", type=Path, help="a checkout of the code to compare against")
    arguments = parser.parse_args()
    trees = {"this code": Path(__file__).resolve().parents[1]}
    if arguments.baseline is not None:
        trees = {"baseline": arguments.baseline.resolve(), **trees}
    found = {name: measure(tree, arguments) for name, tree in trees.items()}
    for key, what in WHAT.items():
        figures = "; ".join(
            f"{name} {found[name][key][0]:.2f} ms, {found[name][key][1]:.0f} statements"
            for name in found
            if key in found[name]
        )
        if figures:
            print(f"{what}: {figures}")


if __name__ == "__main__":
    main()
