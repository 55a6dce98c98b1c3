"""The floor opening on a room (issue 39, point 3): launch → the floor's window listing every open
table, `ofc-desk floor --smoke-test N` exactly as `desk_bench.py` launches it, beside a bare PySide6
window in the same run, without the desk's long session to build (prints figures; not part of the
test suite).

Each launch is a fresh interpreter reading bytecode kept in this benchmark's temp folder (as an
installed floor does), on a copy of `--room` (the room itself is never opened). For each launch:
the wall clock to the smoke test's line (the window painted, listing N tables), to the process's
exit, and the CPU of the whole process (every thread; the steadiest figure on a shared machine)
to the listing (the kernel's account read as the line comes, in its 10 ms ticks) and to the exit.
The floor is launched with the checkpoints an earlier floor on this machine kept (one launch, not
timed, makes them) and without (a cache folder of its own each run); with `--baseline
TREE` also by that tree's code (its own cache folder), launch for launch, so the machine's load
falls on both alike.

Usage: python benchmarks/floor_open_bench.py --room FILE [--runs 7] [--baseline TREE] [--no-cold]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from desk_bench import BARE_WINDOW, BYTECODE_FOLDER, child_environment

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

PASSED = "smoke test passed"


@dataclass(frozen=True)
class Opening:
    """One launch: wall seconds to the listing and to the exit, and the process's CPU seconds to
    the listing (the kernel's account as its line is read, in clock ticks) and to the exit."""

    listed: float
    exited: float
    cpu: float
    cpu_listed: float


def launched(command: list[str], env: dict[str, str], cwd: Path | None, line: str) -> Opening:
    """Launch `command`; the wall clock when it prints a line starting with `line` and when it
    exits, and its CPU (user and system, every thread) from the kernel's account of it."""
    started = time.perf_counter()
    child = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert child.stdout is not None
    listed, cpu_listed = None, 0.0
    for said in child.stdout:
        if listed is None and said.decode().startswith(line):
            listed = time.perf_counter() - started
            cpu_listed = cpu_so_far(child.pid)
    _pid, status, usage = os.wait4(child.pid, 0)
    exited = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0 or listed is None:
        raise RuntimeError(f"{command} exited {child.returncode} without {line!r}")
    return Opening(listed, exited, usage.ru_utime + usage.ru_stime, cpu_listed)


def cpu_so_far(pid: int) -> float:
    """The CPU seconds (user and system, every thread) process `pid` has used so far: what the
    listing cost, apart from what a floor goes on to load after it before it exits."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_floor(room: Path, tables: int, cache: Path, tree: Path | None = None) -> Opening:
    """`ofc-desk floor --smoke-test N` on `room`, with `cache` as its cache folder (inside `tree`
    when given: `python -m` puts the working folder first on sys.path)."""
    command = [sys.executable, "-m", "ofc_desk", "floor", "--db", f"sqlite:///{room}"]
    return launched([*command, "--smoke-test", str(tables)], child_environment(cache, tree), tree, PASSED)


def bare_window() -> Opening:
    """The bare window, timed the same way (it prints its own figures once shown, then exits)."""
    return launched([sys.executable, "-c", BARE_WINDOW], child_environment(None, None), None, "")


def open_tables(room: Path) -> int:
    import sqlite3

    with sqlite3.connect(f"file:{room}?mode=ro", uri=True) as connection:
        found = connection.execute("SELECT count(*) FROM table_sessions WHERE closed_at IS NULL").fetchone()
    return int(found[0])


def medians(openings: list[Opening]) -> str:
    listed = statistics.median(o.listed for o in openings) * 1000
    exited = statistics.median(o.exited for o in openings) * 1000
    cpu = sorted(o.cpu * 1000 for o in openings)
    cpu_listed = sorted(o.cpu_listed * 1000 for o in openings)
    return (
        f"listed {listed:7.1f} ms, exited {exited:7.1f} ms,"
        f" CPU to the listing {statistics.median(cpu_listed):4.0f} ms"
        f" ({cpu_listed[0]:.0f}–{cpu_listed[-1]:.0f}),"
        f" to the exit {statistics.median(cpu):4.0f} ms ({cpu[0]:.0f}–{cpu[-1]:.0f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--room", type=Path, required=True, help="a room for the floor to open (copied)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--baseline", type=Path, help="a checkout of the code to compare against")
    parser.add_argument("--no-cold", action="store_true", help="skip the floor without checkpoints")
    args = parser.parse_args()
    print(
        f"OFC Desk — the floor's opening\npython {platform.python_version()} on {platform.platform()},"
        f" {os.cpu_count()} CPUs, Qt platform {os.environ['QT_QPA_PLATFORM']},"
        f" load average {os.getloadavg()[0]:.1f}"
    )
    with tempfile.TemporaryDirectory(prefix="floor-open-bench-") as temp:
        folder = Path(temp)
        os.environ[BYTECODE_FOLDER] = str(folder / "bytecode")
        room = folder / "room.db"
        shutil.copyfile(args.room, room)
        tables = open_tables(room)
        trees: dict[str, Path | None] = {"this code": None}
        if args.baseline:
            trees[f"code of {args.baseline}"] = args.baseline.resolve()
        caches = {name: folder / f"cache-{index}" for index, name in enumerate(trees)}
        for name, tree in trees.items():  # an earlier floor: its checkpoints kept (not timed)
            open_floor(room, tables, caches[name], tree)
        bare: list[Opening] = []
        kept: dict[str, list[Opening]] = {name: [] for name in trees}
        cold: list[Opening] = []
        for run in range(args.runs):  # interleaved, so machine load falls on all alike
            bare.append(bare_window())
            for name, tree in trees.items():
                kept[name].append(open_floor(room, tables, caches[name], tree))
            if not args.no_cold:
                cold.append(open_floor(room, tables, folder / f"cold-{run}"))
        print(f"bare PySide6 window shown and exited         : {medians(bare)}")
        for name, openings in kept.items():
            print(f"the floor listing {tables} tables, {name:<16}: {medians(openings)}")
        if cold:
            print(f"the floor listing {tables} tables, no checkpoint   : {medians(cold)}")
        print(f"(medians of {args.runs}; load average now {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
