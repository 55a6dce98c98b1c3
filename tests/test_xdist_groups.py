"""Tests marked `xdist_group` run on one worker (tests/helpers/xdist_groups.py): a planted suite of
grouped and ungrouped tests, each writing down its worker, runs on two workers under
`--dist loadgroup` with the suite's own hook, and each group is found on one worker only (without
the hook, under pytest 9, each group's six tests were split between the two)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]

PLANTED_CONFTEST = """
import pytest
from tests.helpers import xdist_groups

@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    xdist_groups.keep_groups_together(config, items)
"""

PLANTED_TESTS = """
import os
import pytest
from pathlib import Path

def note(group):
    with open(Path(os.environ["PLANTED_NOTES"]) / os.environ["PYTEST_XDIST_WORKER"], "a") as notes:
        notes.write(group + "\\n")

@pytest.mark.xdist_group("first")
@pytest.mark.parametrize("n", range(6))
def test_first(n):
    note("first")

@pytest.mark.parametrize("n", range(6))
def test_loose(n):
    note("loose")

@pytest.mark.xdist_group(name="second")
@pytest.mark.parametrize("n", range(6))
def test_second(n):
    note("second")
"""


def test_each_group_runs_on_one_worker(tmp_path: Path) -> None:
    planted, notes = tmp_path / "planted", tmp_path / "notes"
    planted.mkdir()
    notes.mkdir()
    (planted / "pytest.ini").write_text("[pytest]\n")
    (planted / "conftest.py").write_text(PLANTED_CONFTEST)
    (planted / "test_planted.py").write_text(PLANTED_TESTS)
    # Only xdist is loaded (not Qt, hypothesis): a planted run is then a second of CPU.
    environment = {
        **os.environ,
        "PLANTED_NOTES": str(notes),
        "PYTHONPATH": str(REPOSITORY),
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
    command = ["-q", "-p", "no:cacheprovider", "-p", "xdist", "-n", "2", "--dist", "loadgroup"]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", *command],
        cwd=planted,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    workers = {path.name: path.read_text().split() for path in notes.iterdir()}
    assert sorted(len(groups) for groups in workers.values()) != [18], "one worker ran everything"
    for group in ("first", "second"):
        holding = [worker for worker, groups in workers.items() if group in groups]
        assert len(holding) == 1, f"{group} ran on {holding}"
        assert workers[holding[0]].count(group) == 6
