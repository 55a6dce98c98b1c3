"""Render the app icon resources/icons/ofc-desk.svg into the raster files the installers need.

PNGs at the freedesktop sizes (Linux .desktop, the window icon), ofc-desk.ico for Windows and
ofc-desk.icns for macOS. Run it after editing the SVG and commit the results:

    .venv/bin/python installer/make_icons.py
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image
from PySide6.QtCore import QBuffer, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"
SOURCE = ICONS / "ofc-desk.svg"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)


def render_png(renderer: QSvgRenderer, size: int) -> bytes:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(buffer.data().data())


def main() -> int:
    _app = QGuiApplication([*sys.argv[:1], "-platform", "offscreen"])
    renderer = QSvgRenderer(str(SOURCE))
    if not renderer.isValid():
        raise SystemExit(f"{SOURCE} is not a valid SVG")
    for size in PNG_SIZES:
        (ICONS / f"ofc-desk-{size}.png").write_bytes(render_png(renderer, size))
    largest = Image.open(io.BytesIO(render_png(renderer, 1024)))
    largest.save(ICONS / "ofc-desk.ico", sizes=[(size, size) for size in ICO_SIZES])
    largest.save(ICONS / "ofc-desk.icns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
