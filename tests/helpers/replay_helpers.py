"""Running `ofc-desk replay` / `verify` in-process (as a process of its own: `forked_replays`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ofc_desk.cli.main import main

DATA = Path(__file__).parents[1] / "service" / "data"
EXAMPLE = DATA / "replay-pineapple.json"
EXPECTED = DATA / "replay-pineapple-expected.json"


def read_object(path: Path) -> dict[str, Any]:
    """A JSON file holding one object, such as a script or its expected output."""
    read: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return read


def load_example() -> dict[str, Any]:
    """The card room's published worked example: twelve hands of progressive pineapple."""
    return read_object(EXAMPLE)


def write_script(folder: Path, script: dict[str, Any], name: str = "script.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(script))
    return path


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the `ofc-desk` entry point in this process; return (exit status, stdout, stderr)."""
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err
