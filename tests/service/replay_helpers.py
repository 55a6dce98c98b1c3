"""Running `ofc-desk replay` / `verify` in-process and as a child process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ofc_desk.cli.main import main

DATA = Path(__file__).parent / "data"
EXAMPLE = DATA / "replay-pineapple.json"
EXPECTED = DATA / "replay-pineapple-expected.json"


def load_example() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_text())


def write_script(folder: Path, script: dict[str, Any], name: str = "script.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(script))
    return path


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the `ofc-desk` entry point in this process; return (exit status, stdout, stderr)."""
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def child_replay(script: Path, url: str, *, resume: bool = True) -> subprocess.Popen[str]:
    args = [sys.executable, "-m", "ofc_desk", "replay", str(script), "--db", url]
    return subprocess.Popen(
        args + (["--resume"] if resume else []),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
