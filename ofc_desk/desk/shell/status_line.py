"""The status line at the top of the window: always one line, never wider than the window.

Its text is the whole line (what `text()` and a screen reader give); what is painted is as much of
it as fits. A line too long for the window first leaves out its leading parts, the table's name and
its rules, which the window's title also shows; then its end is cut with an ellipsis. The whole
line is then the tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

SEPARATOR = "\u00a0\u00a0·  "
"""Between the parts of the line (`table.faces.status_text`); a line breaks only there."""
LEADING_PARTS = 2
"""The table's name and its rules, first in the line and also in the window's title."""
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
        metrics = self.fontMetrics()
        room = self.contentsRect().width()
        text = self.text()
        parts = text.split(SEPARATOR)
        for dropped in range(min(LEADING_PARTS, len(parts) - 1) + 1):
            candidate = SEPARATOR.join(parts[dropped:])
            if metrics.horizontalAdvance(candidate) <= room:
                return candidate
        from PySide6.QtCore import Qt  # only for a line too long even without its leading parts

        return metrics.elidedText(candidate, Qt.TextElideMode.ElideRight, room)

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        return QSize(0, super().sizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        shown = self.shown_text()
        whole = self.text()
        self.setToolTip("" if shown == whole else whole)
        painter = QPainter(self)
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
