"""benchmarks/pool_history_bench.py runs end to end for a tiny room (two closed tables, one round,
its baseline this checkout again), so that a change of the service it drives cannot leave it
broken unnoticed. Nothing is timed: only that every reading was measured by both codes, and that
both sent the same statements (the same code). The script runs in this process as `python` would
run it (its two measuring processes are its own, as ever): a fresh interpreter for it would only
import again what the tests have imported."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
READINGS = (
    "first reading (the whole room walked)",
    "settlement's reading under the pool's lock, p50",
    "floor's reading in its snapshot, p50",
    "shift report's pool at its start and end (the rounds' seeds its shift)",
)

FIGURES = r"[\d.]+ ms, (\d+) statements"
"""A code's figures for one reading: its time and the statements it sent."""


def test_the_pool_history_benchmark_runs_for_a_tiny_room(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = REPOSITORY / "benchmarks" / "pool_history_bench.py"
    arguments = [
        "--closed",
        "2",
        "--rounds",
        "1",
        "--baseline",
        str(REPOSITORY),
        "--db",
        str(tmp_path / "room.db"),
    ]
    monkeypatch.setattr(sys, "argv", [str(script), *arguments])
    monkeypatch.syspath_prepend(str(script.parent))  # as `python SCRIPT` puts its folder first
    monkeypatch.chdir(REPOSITORY)
    runpy.run_path(str(script), run_name="__main__")
    stdout = capsys.readouterr().out
    for reading in READINGS:
        figures = re.search(
            rf"^{re.escape(reading)}: baseline {FIGURES}; this code {FIGURES}$",
            stdout,
            re.MULTILINE,
        )
        assert figures is not None, stdout
        assert int(figures[1]) == int(figures[2]) > 0
