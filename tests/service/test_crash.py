"""A desk that dies loses nothing: SIGKILL a replay at random moments, verify, resume."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

import pytest

from tests.helpers.forked_replays import forked_replay
from tests.helpers.replay_helpers import load_example, run_cli, write_script

pytestmark = pytest.mark.durable  # each action on the disk before it is acknowledged, as at a table

KILLS = 3
HANDS = 5  # a Fantasyland hand and a between-hands operation included; keeps the test short


def test_sigkill_at_random_moments_then_verify_and_resume(
    tmp_path: Path, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    example = load_example()
    example["hands"] = example["hands"][:HANDS]
    script = write_script(tmp_path, example)
    reference_url = f"sqlite:///{tmp_path / 'reference.db'}"
    started = time.monotonic()
    status, out, err = run_cli(capsys, "replay", str(script), "--db", reference_url)
    assert (status, err) == (0, "")
    full_run = time.monotonic() - started

    seed = int.from_bytes(os.urandom(4), "big")
    chooser = random.Random(seed)
    for attempt in range(KILLS):
        # A desk's process of its own, forked with the replay's imports done (forked_replays): aim
        # at the whole run, from its first moment to its last.
        child = forked_replay(script, database_url)
        time.sleep(chooser.uniform(0, full_run))
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=60)
        status, summary, err = run_cli(capsys, "verify", "--db", database_url)
        # Killed before it first wrote anything, the child left no database (or no schema) behind.
        nothing_yet = status == 2 and ("is not an OFC Desk database" in err or "no database at" in err)
        assert status == 0 or nothing_yet, f"seed {seed}, kill {attempt + 1}: {summary}{err}"

    resumed = forked_replay(script, database_url)
    final, err = resumed.communicate(timeout=120)
    assert (resumed.returncode, err) == (0, ""), f"seed {seed}"
    assert json.loads(final) == json.loads(out), f"seed {seed}"
