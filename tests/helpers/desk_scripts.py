"""A desk or a floor started in a fresh process, for what only a whole launch shows (what it loads,
the cycle collector's hold): the script is the test's, run offscreen with a cache of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from ofc_desk.cli.demo import build_demo
from ofc_desk.storage.database import Database


def demo_table(tmp_path: Path) -> tuple[str, int]:
    """The URL of a new demo table's SQLite file in `tmp_path`, and its session's id."""
    url = f"sqlite:///{tmp_path / 'demo.db'}"
    database = Database(url)
    session_id = build_demo(database)
    database.dispose()
    return url, session_id


def run_desk_script(script: str, tmp_path: Path) -> list[str]:
    """The lines `script` printed, run by this Python offscreen; fails on a non-zero exit."""
    return desk_script_run(script, tmp_path).stdout.splitlines()


def desk_script_run(
    script: str, tmp_path: Path, setting: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`script` run by this Python offscreen, with the environment `setting` adds, what it printed
    and said on stderr kept; fails on a non-zero exit."""
    environment = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        **(setting or {}),
    }
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
        check=True,
    )
