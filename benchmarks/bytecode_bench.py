"""What compiling the package's bytecode once saves each process the test suite starts (issue 39,
point 4; prints figures, not part of the test suite).

A machine that sets PYTHONDONTWRITEBYTECODE (the project machine does) has every `python -m
ofc_desk` compile the package from source; tests/conftest.py now compiles it once at the start of a
run. This copies the package to a temporary folder (the checkout's own bytecode is left alone) and
replays a one-hand table into a new SQLite file there, `--rounds` times each way in turn: from
source (no bytecode beside the copy), then with the copy compiled. It prints the wall time and the
CPU time (user + system) of each child, best and median, and what compiling the copy cost.

Usage (from the repository's root): python benchmarks/bytecode_bench.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import repository_root  # noqa: F401 - the root on sys.path, for tests.helpers

from tests.helpers.room_scripts import table_script

REPOSITORY = Path(__file__).resolve().parents[1]


def child_run(folder: Path, script: Path, database: Path) -> tuple[float, float]:
    """One replay by a fresh process in `folder` (its copy of the package first on sys.path):
    wall seconds, CPU seconds."""
    database.unlink(missing_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "ofc_desk", "replay", str(script), "--db", f"sqlite:///{database}"],
        cwd=folder,
        check=True,
        capture_output=True,
        # The copy's own resources lookup would miss the repository's `resources/` beside it.
        env={
            **os.environ,
            "PYTHONDONTWRITEBYTECODE": "1",
            "OFC_DESK_RESOURCES": str(REPOSITORY / "resources"),
        },
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def drop_bytecode(package: Path) -> None:
    for cache in package.rglob("__pycache__"):
        shutil.rmtree(cache)


def said(name: str, runs: list[tuple[float, float]]) -> str:
    walls, cpus = sorted(wall for wall, _ in runs), sorted(cpu for _, cpu in runs)
    return (
        f"{name:<10} wall best {walls[0]:.2f} s, median {statistics.median(walls):.2f} s;"
        f" CPU best {cpus[0]:.2f} s, median {statistics.median(cpus):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="replays each way, in turn")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ofc-bytecode-") as temporary:
        folder = Path(temporary)
        package = folder / "ofc_desk"
        shutil.copytree(REPOSITORY / "ofc_desk", package, ignore=shutil.ignore_patterns("__pycache__"))
        script = folder / "T1.json"
        script.write_text(json.dumps(table_script("T1", 1, extras=False, close=False)), encoding="utf-8")
        source: list[tuple[float, float]] = []
        compiled: list[tuple[float, float]] = []
        compiling: list[float] = []
        for _ in range(args.rounds):
            drop_bytecode(package)
            source.append(child_run(folder, script, folder / "room.db"))
            started = time.process_time()
            compileall.compile_dir(package, quiet=2)
            compiling.append(time.process_time() - started)
            compiled.append(child_run(folder, script, folder / "room.db"))
    print(f"`python -m ofc_desk replay` of one hand into a new SQLite file, {args.rounds} rounds each way")
    print(f"(load average {os.getloadavg()[0]:.2f} at the end):")
    print(said("source", source))
    print(said("bytecode", compiled))
    print(f"compiling the package once: CPU median {statistics.median(compiling):.2f} s")


if __name__ == "__main__":
    main()
