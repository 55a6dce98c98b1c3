"""The report fonts: DejaVu Sans, and WenQuanYi Micro Hei for text DejaVu has no glyph for.

The standard PDF fonts (Helvetica) have no suit symbols; DejaVu Sans has ♠♥♦♣, Latin with every
Vietnamese letter, and Cyrillic, in a regular and a bold face. It has no Chinese: a piece of text
with a character DejaVu lacks (a Chinese heading, a player's name written in Chinese on any
report) is drawn whole in WenQuanYi Micro Hei, which has all of these too (one face, no bold).
Licences: resources/fonts/DejaVu-LICENSE.txt (Bitstream Vera terms, DejaVu changes public domain)
and resources/fonts/WenQuanYi-LICENSE.txt (Apache 2.0); both allow shipping them with the app.
"""

from __future__ import annotations

import contextlib
from functools import cache
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ofc_desk.core.resources import WIDE_FONT_FILE, resources_dir

REGULAR = "OfcDeskSans"
BOLD = "OfcDeskSans-Bold"
WIDE = "OfcDeskWide"
"""The font for text beyond DejaVu's reach (its name says it also draws CJK's wide characters)."""

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


@cache
def _wide_font() -> str | None:
    """The wide font, registered on first need (it takes a tenth of a second); None if missing."""
    path = _find(WIDE_FONT_FILE)
    if path is None:
        return None
    pdfmetrics.registerFont(TTFont(WIDE, str(path)))
    for bold in (0, 1):
        for italic in (0, 1):
            addMapping(WIDE, bold, italic, WIDE)
    return WIDE


@cache
def _dejavu_characters() -> frozenset[int]:
    register_fonts()
    font = pdfmetrics.getFont(REGULAR)
    return frozenset(getattr(getattr(font, "face", None), "charToGlyph", {}))


def needs_wide(text: str) -> bool:
    """True if DejaVu Sans cannot draw every character of `text`.

    >>> needs_wide("Mậu Binh ♠♥ Роял"), needs_wide("十三张")
    (False, True)
    """
    if text.isascii():
        return False
    covered = _dejavu_characters()
    return any(ord(char) not in covered for char in text if not char.isspace())


def font_for(text: str, font: str) -> str:
    """`font` if it can draw `text`, else the wide font (when shipped)."""
    if font in (REGULAR, BOLD) and needs_wide(text):
        return _wide_font() or font
    return font
