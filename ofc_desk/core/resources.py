"""Where the shipped data files (presets, icons, fonts, examples) are found.

In a source checkout or an editable install they are the repository's `resources/`; in an
installed wheel they ship as the package `ofc_desk.resources`; in a PyInstaller bundle they sit
beside the executable. `OFC_DESK_RESOURCES` overrides all of these.
"""

from __future__ import annotations

import contextlib
import os
import sys
from functools import cache
from importlib import resources as importlib_resources
from pathlib import Path

WIDE_FONT_FILE = "WenQuanYiMicroHei.ttf"
"""The shipped font that draws Chinese (in resources/fonts): the reports draw with it what DejaVu
Sans cannot, and the desk offers it to Qt for what the system's fonts cannot."""


@cache
def resources_dir() -> Path:
    override = os.environ.get("OFC_DESK_RESOURCES")
    if override:
        return Path(override)
    bundle = getattr(sys, "_MEIPASS", None)
    candidates = [Path(bundle) / "resources"] if bundle else []
    candidates.append(Path(__file__).resolve().parents[2] / "resources")
    with contextlib.suppress(ModuleNotFoundError):
        candidates.append(Path(str(importlib_resources.files("ofc_desk.resources"))))
    for candidate in candidates:
        if (candidate / "presets").is_dir():
            return candidate
    raise FileNotFoundError("the OFC Desk resources folder (presets, icons) was not found")
