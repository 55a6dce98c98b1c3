"""The status line at the top of the window: always one line, never wider than the window.

Its text is the whole line (what `text()` and a screen reader give); what is painted is as much of
it as fits. A line is made of parts (`StatusPart`), some of which say less when room is short: a
line too long for the window first shortens those, least needed first (the cards' count goes, the
rules shrink to the preset's name, the button to the dealer), so the table, the preset, the hand and
the dealer stay; then its letters shrink (a longer language: a Russian or Vietnamese line is a good
deal longer than the English); only then is its end cut with an ellipsis. The whole line is then
the tooltip.
"""

from collections.abc import Sequence
from typing import NamedTuple

from PySide6.QtCore import QSize
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

SEPARATOR = "\u00a0\u00a0·  "
"""Between the parts of the line (`table.faces.status_parts`)."""
SMALLEST_LETTERS = 0.8
"""A line that does not fit without its leading parts is painted smaller, down to this much."""
ALIGN_LEFT_VCENTER = 0x0081
"""Qt.AlignmentFlag.AlignLeft | AlignVCenter as a number: the status line is painted with the
window's shell, before the `Qt` namespace (slow to import) is needed anywhere else."""


class StatusPart(NamedTuple):
    """A part of the line: what it says, and what it says when the line is short of room."""

    full: str
    short: str | None = None
    """Its shorter words ("" leaves it out); None: it is always said whole."""
    order: int = 0
    """Parts with a shorter form give way in this order, the lowest first."""


class StatusLine(QLabel):
    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setWordWrap(False)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._parts: tuple[StatusPart, ...] = ()

    def set_parts(self, parts: Sequence[StatusPart]) -> None:
        """The line from its parts, each never broken inside (its spaces are no-break ones)."""
        self._parts = tuple(
            part._replace(
                full=_unbroken(part.full), short=None if part.short is None else _unbroken(part.short)
            )
            for part in parts
        )
        self.setText(SEPARATOR.join(part.full for part in self._parts))

    def _shortenings(self) -> list[str]:
        """The line whole, then with one more part shortened each time, least needed first. A text
        set whole (`setText`, not from parts) is its only form."""
        parts = self._parts
        if SEPARATOR.join(part.full for part in parts) != self.text():
            return [self.text()]
        said = [part.full for part in parts]
        lines = [SEPARATOR.join(said)]
        giving_way = sorted((part.order, index) for index, part in enumerate(parts) if part.short is not None)
        for _order, index in giving_way:
            said[index] = parts[index].short or ""
            lines.append(SEPARATOR.join(words for words in said if words))
        return lines

    def shown_text(self) -> str:
        """What fits on the line at its present width."""
        return self._fitted()[0]

    def _fitted(self) -> tuple[str, QFont]:
        """What is painted, and in which letters: the whole line; else with its parts shortened;
        else that in smaller letters; else that cut short."""
        metrics, font = self.fontMetrics(), self.font()
        room = self.contentsRect().width()
        for candidate in self._shortenings():
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
        if self.isEnabled():
            # What the style's drawItemText does for enabled text, without asking for the style:
            # the first paint of the launch would make PySide's QStyle class (its many enums) for it.
            painter.setPen(self.palette().color(self.foregroundRole()))
            painter.drawText(self.contentsRect(), ALIGN_LEFT_VCENTER, shown)
        else:  # greyed (etched, dithered) as the style draws disabled text
            self.style().drawItemText(
                painter,
                self.contentsRect(),
                ALIGN_LEFT_VCENTER,
                self.palette(),
                False,
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


def _unbroken(words: str) -> str:
    return words.replace(" ", "\u00a0")
