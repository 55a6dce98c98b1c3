"""The report font: DejaVu Sans, shipped in resources/fonts, because it has ♠♥♦♣.

The standard PDF fonts (Helvetica) have no suit symbols. DejaVu's licence (Bitstream Vera terms,
DejaVu changes public domain; resources/fonts/DejaVu-LICENSE.txt) allows shipping it with the app.
"""

from __future__ import annotations

import contextlib
from functools import cache
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ofc_desk.core.resources import resources_dir

REGULAR = "OfcDeskSans"
BOLD = "OfcDeskSans-Bold"

_FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}
SYSTEM_FONTS = Path("/usr/share/fonts/truetype/dejavu")


def _find(file_name: str) -> Path | None:
    folders = [SYSTEM_FONTS]
    with contextlib.suppress(FileNotFoundError):
        folders.insert(0, resources_dir() / "fonts")
    return next((d / file_name for d in folders if (d / file_name).is_file()), None)


@cache
def register_fonts() -> tuple[str, str]:
    """Register the report fonts once; returns (regular, bold) font names.

    Falls back to Helvetica (suits then print as letters' boxes) only if the TTF is missing,
    so a broken install still prints a report rather than none.
    """
    paths = {name: _find(file_name) for name, file_name in _FILES.items()}
    if any(path is None for path in paths.values()):
        return ("Helvetica", "Helvetica-Bold")
    for name, path in paths.items():
        pdfmetrics.registerFont(TTFont(name, str(path)))
    addMapping(REGULAR, 0, 0, REGULAR)
    addMapping(REGULAR, 1, 0, BOLD)
    addMapping(REGULAR, 0, 1, REGULAR)
    addMapping(REGULAR, 1, 1, BOLD)
    return (REGULAR, BOLD)
