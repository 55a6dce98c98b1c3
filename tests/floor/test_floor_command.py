"""`ofc-desk floor`: refuses a database that is not there in one line, without creating it, and
the command line loads Qt only for the commands that open a window."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ofc_desk.cli.main import main


def test_floor_on_a_missing_database_says_so_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-such-room.db"
    assert main(["floor", "--db", f"sqlite:///{missing}"]) == 2
    assert capsys.readouterr().err == f"database: no database at {missing}\n"
    assert not missing.exists()


def test_only_the_window_commands_load_qt() -> None:
    probe = (
        "import sys\n"
        "from ofc_desk.cli.main import build_parser\n"
        "for argv in (['floor', '--db', 'sqlite://'], ['verify'], ['report']):\n"
        "    build_parser(argv).parse_args(argv)\n"
        "print(sorted(name for name in sys.modules if name.startswith('PySide6')))\n"
    )
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"
