"""Screenshots for people to look at (test-screenshots/), written as PNG files with half the work of
Qt's writer: Qt's libpng tries every row filter on every row, most of its time on a 1920x1080 shot
(about 40 ms, at any compression level); the rows here go unfiltered to zlib's fastest level
(about 20 ms, and a smaller file for the flat colours of a window). The same pixels either way."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from PySide6.QtGui import QImage, QPixmap

SIGNATURE = b"\x89PNG\r\n\x1a\n"
NO_FILTER = b"\x00"
"""Each row's first byte: the row as it is (PNG filter type 0)."""


def save_png(picture: QPixmap, path: Path) -> None:
    """`picture` as a PNG file at `path`: RGB, or RGBA when it has an alpha channel."""
    alpha = picture.hasAlphaChannel()
    image = picture.toImage().convertToFormat(
        QImage.Format.Format_RGBA8888 if alpha else QImage.Format.Format_RGB888
    )
    width, height, line = image.width(), image.height(), image.bytesPerLine()
    row = width * (4 if alpha else 3)
    pixels = bytes(image.constBits())  # rows padded to `line` bytes
    rows = b"".join(NO_FILTER + pixels[start : start + row] for start in range(0, height * line, line))
    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    chunks = _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows, 1)) + _chunk(b"IEND", b"")
    path.write_bytes(SIGNATURE + chunks)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
