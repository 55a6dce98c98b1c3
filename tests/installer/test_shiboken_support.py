"""PySide's support modules compiled at build time (installer/shiboken_support.py) are what
Shiboken loads, in a fresh interpreter, once they lie where the bundle puts them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import shiboken6
from shiboken_support import SUPPORT_FOLDER, compiled_support

PROBE = """
import sys
from PySide6.QtWidgets import QLabel
print(sys.modules["shibokensupport.signature.loader"].__file__)
try:
    QLabel(1, 2, 3, 4)
except TypeError as refusal:
    print(refusal)
"""
"""Where the loader came from, and PySide's own refusal of a wrong call (its support modules at work)."""


@pytest.mark.skipif(sys.platform == "win32", reason="the stand-in Shiboken links its libraries by symlink")
def test_a_shiboken_beside_the_compiled_support_modules_loads_them_and_compiles_none(tmp_path: Path) -> None:
    installed = Path(shiboken6.__file__).resolve().parent
    site = tmp_path / "site"
    package = site / "shiboken6"
    package.mkdir(parents=True)
    for entry in installed.iterdir():  # its Python files copied (Shiboken looks beside them), the rest linked
        if entry.suffix == ".py":
            package.joinpath(entry.name).write_bytes(entry.read_bytes())
        elif entry.name != "__pycache__":
            package.joinpath(entry.name).symlink_to(entry)
    site.joinpath("PySide6").symlink_to(installed.parent / "PySide6")
    compiled_support(site / SUPPORT_FOLDER)
    probed = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1", "QT_QPA_PLATFORM": "offscreen"},
    )
    loader, refusal = probed.stdout.splitlines()
    assert loader == str(site / SUPPORT_FOLDER / "shibokensupport" / "signature" / "loader.pyc")
    assert refusal == "QLabel() takes at most 3 arguments (4 given)"
    assert not list((site / SUPPORT_FOLDER).rglob("*.py"))  # nothing was there to compile
