"""benchmarks/pool_history_bench.py runs end to end for a tiny room (two closed tables, one round,
its baseline this checkout again), so that a change of the service it drives cannot leave it
broken unnoticed. Nothing is timed: only that every reading was measured by both codes, and that
both sent the same statements (the same code)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
READINGS = (
    "first reading (the whole room walked)",
    "settlement's reading under the pool's lock, p50",
    "floor's reading in its snapshot, p50",
    "shift report's pool at its start and end (the rounds' seeds its shift)",
)

FIGURES = r"[\d.]+ ms, (\d+) statements"
"""A code's figures for one reading: its time and the statements it sent."""


def test_the_pool_history_benchmark_runs_for_a_tiny_room(tmp_path: Path) -> None:
    command = [sys.executable, "benchmarks/pool_history_bench.py", "--closed", "2", "--rounds", "1"]
    command += ["--baseline", str(REPOSITORY), "--db", str(tmp_path / "room.db")]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=REPOSITORY)
    assert run.returncode == 0, run.stderr
    for reading in READINGS:
        figures = re.search(
            rf"^{re.escape(reading)}: baseline {FIGURES}; this code {FIGURES}$",
            run.stdout,
            re.MULTILINE,
        )
        assert figures is not None, run.stdout
        assert int(figures[1]) == int(figures[2]) > 0
