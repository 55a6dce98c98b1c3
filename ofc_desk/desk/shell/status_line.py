"""The status line at the top of the window: always one line, never wider than the window.

Its text is the whole line (what `text()` and a screen reader give); what is painted is as much of
it as fits. A line too long for the window first leaves out its leading parts, the table's name and
its rules, which the window's title also shows; then its letters shrink (a longer language: a
Russian or Vietnamese line is a good deal longer than the English); only then is its end cut with
an ellipsis. The whole line is then the tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

SEPARATOR = "\u00a0\u00a0·  "
"""Between the parts of the line (`table.faces.status_text`); a line breaks only there."""
LEADING_PARTS = 2
"""The table's name and its rules, first in the line and also in the window's title."""
SMALLEST_LETTERS = 0.8
"""A line that does not fit without its leading parts is painted smaller, down to this much."""
ALIGN_LEFT_VCENTER = 0x0081
"""Qt.AlignmentFlag.AlignLeft | AlignVCenter as a number: the status line is painted with the
window's shell, before the `Qt` namespace (slow to import) is needed anywhere else."""


class StatusLine(QLabel):
    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setWordWrap(False)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def shown_text(self) -> str:
        """What fits on the line at its present width."""
        return self._fitted()[0]

    def _fitted(self) -> tuple[str, QFont]:
        """What is painted, and in which letters: the whole line; else without its leading parts;
        else that in smaller letters; else that cut short."""
        metrics, font = self.fontMetrics(), self.font()
        room = self.contentsRect().width()
        parts = self.text().split(SEPARATOR)
        for dropped in range(min(LEADING_PARTS, len(parts) - 1) + 1):
            candidate = SEPARATOR.join(parts[dropped:])
            if metrics.horizontalAdvance(candidate) <= room:
                return candidate, font
        wanted = metrics.horizontalAdvance(candidate)
        font = _scaled(font, max(SMALLEST_LETTERS, room / max(1, wanted)))
        metrics = QFontMetrics(font)
        if metrics.horizontalAdvance(candidate) <= room:
            return candidate, font
        from PySide6.QtCore import Qt  # only for a line too long even in its smallest letters

        return metrics.elidedText(candidate, Qt.TextElideMode.ElideRight, room), font

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        return QSize(0, super().sizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        shown, font = self._fitted()
        whole = self.text()
        self.setToolTip("" if shown == whole else whole)
        painter = QPainter(self)
        painter.setFont(font)
        self.style().drawItemText(
            painter,
            self.contentsRect(),
            ALIGN_LEFT_VCENTER,
            self.palette(),
            self.isEnabled(),
            shown,
            self.foregroundRole(),
        )
        painter.end()


def _scaled(font: QFont, factor: float) -> QFont:
    """`font` with its letters `factor` times their size (a style sheet sets pixels, else points)."""
    smaller = QFont(font)
    if font.pixelSize() > 0:
        smaller.setPixelSize(max(1, int(font.pixelSize() * factor)))
    else:
        smaller.setPointSizeF(font.pointSizeF() * factor)
    return smaller
