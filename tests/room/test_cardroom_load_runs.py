"""benchmarks/cardroom_load.py, the card room's load benchmark, runs end to end for a tiny room (two
desks, one hand a phase, the floor following and reporting from the start of its report phases,
the floor's phases dealt again by a baseline's floor: here this checkout's again, in a fresh
interpreter, where this code's floor is forked from the script's process), so that a change of the
service it drives cannot leave it broken unnoticed. Nothing is timed: the figures
it prints are read only for what must hold whatever the machine's load (every phase dealt in
full, nothing lost, the floors' readings and reports taken from the code asked for, `verify`
clean)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
SCRIPT = REPOSITORY / "benchmarks" / "cardroom_load.py"
DESKS, ACTIONS_A_HAND, PROBE_COMMITS = 2, 17, 10
BASELINE = f" ({REPOSITORY.name})"
PHASES = (
    "paced",
    "paced+floor" + BASELINE,
    "paced+floor",
    "paced+report" + BASELINE,
    "paced+report",
    "flat+report",
)


@pytest.mark.postgres
def test_the_load_benchmark_runs_for_a_tiny_room(migrated_room_url: str) -> None:
    """On an empty room as the migrations leave it (the pool's: the benchmark migrates a new one
    first, which is not what it measures)."""
    command = [sys.executable, str(SCRIPT), "--desks", str(DESKS), "--hands", "1", "--pace", "0.01"]
    command += ["--report-after", "0", "--baseline", str(REPOSITORY), "--db", migrated_room_url]
    command += ["--probe-commits", str(PROBE_COMMITS)]  # the figure is not read here: a few will do
    run = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=REPOSITORY)
    assert run.returncode == 0, run.stderr
    said = run.stdout
    assert f"server floor: INSERT + COMMIT on one idle connection, {PROBE_COMMITS} times:" in said, said
    for phase in PHASES:
        # phase, actions, events/s, commit p50/p99/max, action p50/p99/max, desk CPU, lost
        line = re.search(rf"^{re.escape(phase)} +([\d,]+) .* (\d+)$", said, re.MULTILINE)
        assert line is not None, said
        assert int(line[1].replace(",", "")) == DESKS * ACTIONS_A_HAND
        assert line[2] == "0"
    for phase in PHASES[1:]:
        floor = re.search(
            rf"^floor, {re.escape(phase)}: (\d+) readings of {DESKS} tables", said, re.MULTILINE
        )
        assert floor is not None and int(floor[1]) >= 1, said
    # Each report as the product makes it (both floors here are this checkout's): one walk.
    assert (
        len(re.findall(r"; shift report from [\d.]+ s in: verify and read [\d.]+ s \(in one walk\)", said))
        == 3
    )
    # Each report's cost at the server: it asked something of it for its verified read.
    costs = re.findall(r"its cost at the server: verify and read ([\d,]+) queries", said)
    assert len(costs) == 3 and all(int(cost.replace(",", "")) > 0 for cost in costs), said
    # Each floor says where its code came from.
    assert f"floor of this code: ofc_desk from {REPOSITORY / 'ofc_desk'}" in said
    assert f"floor of {REPOSITORY.name}: ofc_desk from {REPOSITORY / 'ofc_desk'}" in said
    # The opening, a warm-up hand and one hand a phase, at each desk.
    acknowledged = DESKS * (1 + ACTIONS_A_HAND * (1 + len(PHASES)))
    expected = f"events: {acknowledged:,} stored for {acknowledged:,} acknowledged;"
    assert f"{expected} 0 lost, 0 duplicated, 0 unacknowledged" in said
    assert re.search(rf"^verified: {DESKS} sessions, {acknowledged} events", said, re.MULTILINE), said
