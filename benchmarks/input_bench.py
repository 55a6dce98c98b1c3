"""Hostile input refused by `ofc-desk score` and `ofc-desk replay` (prints figures; not part of the
test suite).

Each input is written to a file and run through the command as a person would (in this process,
through `ofc_desk.cli.main.main`), and the time from the call to the refusal is printed with its
message, for sizes from 20 KB to 10 MB: the time grows with the size, never with its square.

- `escapes`: `"\\` again and again, the audit's input (issue 25): malformed, an unterminated string;
- `deep at the end`: valid JSON, a long list, whose last value nests 65 levels deep;
- `never closed`: `[` again and again.

Usage: python benchmarks/input_bench.py [--rounds 3] [--sizes 20000,80000,1000000,10000000]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ofc_desk.cli.main import main

INPUTS: dict[str, Callable[[int], str]] = {
    "escapes": lambda size: '"\\' * (size // 2),
    "deep at the end": lambda size: (
        '{"table": "T", "seats": [' + ",".join(["[]"] * (size // 3)) + '], "x": ' + "[" * 65 + "]" * 65 + "}"
    ),
    "never closed": lambda size: "[" * size,
}


def refusal(arguments: list[str]) -> tuple[float, float, str]:
    """Seconds to the refusal (wall clock, and this process's CPU: on a machine shared with other
    work the CPU time is what a quiet one would take), and the refusal's line."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        started, cpu = time.perf_counter(), time.process_time()
        status = main(arguments)
        elapsed, used = time.perf_counter() - started, time.process_time() - cpu
    assert status == 2, err.getvalue()
    return elapsed, used, err.getvalue().strip()


def main_bench() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--rounds", type=int, default=3, help="best of this many runs")
    options.add_argument("--sizes", default="20000,80000,1000000,10000000", help="input sizes in bytes")
    parsed = options.parse_args()
    sizes = [int(size) for size in parsed.sizes.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hostile.json"
        database = f"sqlite:///{Path(folder) / 'room.db'}"
        print(f"{'input':<16} {'size':>11}  {'score (CPU)':>17}  {'replay (CPU)':>17}  refusal (score)")
        for name, make in INPUTS.items():
            for size in sizes:
                path.write_text(make(size))
                figures, line = [], ""
                for command in ("score", "replay"):
                    arguments = [command, str(path)] + (["--db", database] if command == "replay" else [])
                    runs = [refusal(arguments) for _ in range(parsed.rounds)]
                    wall, cpu = min(run[0] for run in runs), min(run[1] for run in runs)
                    figures.append(f"{wall:>7.3f}s ({cpu:.3f}s)")
                    line = line or runs[0][2]
                print(f"{name:<16} {size:>11,}  {figures[0]:>17}  {figures[1]:>17}  {line[:58]}")


if __name__ == "__main__":
    main_bench()
