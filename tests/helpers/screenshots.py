"""Screenshots for people to look at (test-screenshots/, when OFC_DESK_TEST_SCREENSHOTS=1), written
as PNG files by Pillow at zlib's fastest level: Qt's writer (libpng) tries every row filter on every
row, most of its time on a window's shot (about 28 ms at 1366x768, at any compression level), Pillow
about 16 ms. The same pixels either way."""

from __future__ import annotations

from pathlib import Path

from PIL import Image
from PySide6.QtGui import QImage, QPixmap


def save_png(picture: QPixmap, path: Path) -> None:
    """`picture` as a PNG file at `path`: RGB, or RGBA when it has an alpha channel."""
    mode, image_format = (
        ("RGBA", QImage.Format.Format_RGBA8888)
        if picture.hasAlphaChannel()
        else ("RGB", QImage.Format.Format_RGB888)
    )
    image = picture.toImage().convertToFormat(image_format)
    size, line = (image.width(), image.height()), image.bytesPerLine()  # rows padded to `line` bytes
    # Qt's buffer handed over as it is (Pillow copies it here, while `image` holds it): a `bytes()`
    # of it first copied a 1920x1080 shot's 6 MB once more, 4-10 ms. Pillow's stubs name bytes and
    # arrays, though it reads any buffer.
    pixels = Image.frombuffer(mode, size, image.constBits(), "raw", mode, line, 1)  # type: ignore[arg-type]
    pixels.save(path, format="PNG", compress_level=1)
