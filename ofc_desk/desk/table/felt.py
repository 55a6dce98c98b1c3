"""The felt: 2 to 4 seats laid out clockwise around a green table, in one row or in two.

One row where the window is wide for its height (a 1366x768 screen): the seats are as big as in
two rows and leave the settlement below the room to show every transfer and pair; two rows where
the screen is tall enough for bigger seats that way (1920x1080, four players).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, QSize, Signal
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QGridLayout, QWidget

from ofc_desk.desk.shell.theme import DisplayOptions
from ofc_desk.i18n import _

if TYPE_CHECKING:
    from ofc_desk.desk.table.seat_widget import SeatWidget
    from ofc_desk.desk.table.seatface import SeatFace

# Qt.AlignmentFlag.AlignCenter as a number: the empty felt is painted before the `Qt` namespace
# (slow to import) is needed anywhere else.
ALIGN_CENTER = 0x84

MARGINS = (28, 22, 28, 22)
SPACING = 18
# Grid cells (row, column, column span) in clockwise seat order, by number of seats, in two rows
# (in one row seat n is in column n - 1).
TWO_ROW_CELLS: dict[int, tuple[tuple[int, int, int], ...]] = {
    1: ((0, 0, 2),),
    2: ((0, 0, 1), (1, 0, 1)),
    3: ((0, 0, 1), (0, 1, 1), (1, 0, 2)),
    4: ((0, 0, 1), (0, 1, 1), (1, 1, 1), (1, 0, 1)),
}


class FeltView(QWidget):
    seat_clicked = Signal(str)

    def __init__(self, options: DisplayOptions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(_("Table"))
        self._options = options
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(*MARGINS)
        self._grid.setSpacing(SPACING)
        self.seat_widgets: list[SeatWidget] = []
        self.rows = 1
        self.seat_scale = 1.0
        """How big the seats are painted: their natural size (the zoom) times this."""
        self._area: QSize | None = None
        self._needed_height = 0

    def set_seats(self, seats: tuple[SeatFace, ...]) -> None:
        if len(seats) != len(self.seat_widgets):
            self._rebuild(len(seats))
            self.update()  # the empty felt's name goes: only the seats' own places repaint by themselves
        natural = self.seat_widgets[0].natural_size() if self.seat_widgets else None
        for widget, seat in zip(self.seat_widgets, seats, strict=True):
            widget.set_seat(seat)
        if self.seat_widgets and self.seat_widgets[0].natural_size() != natural:
            self._refit()  # another game's seats, with more or fewer rows: laid out for their size

    def seat_widget(self, name: str) -> SeatWidget:
        for widget in self.seat_widgets:
            if widget.seat is not None and widget.seat.name == name:
                return widget
        raise KeyError(name)

    def set_options(self, options: DisplayOptions) -> None:
        self._options = options
        for widget in self.seat_widgets:
            widget.set_options(options)
        self._refit()
        self.update()

    def fit(self, area: QSize) -> None:
        """Lay the seats out in one row or two, whichever paints them bigger in `area`: the felt's
        width, and the height the window can give it while the settlement is shown. The felt then
        asks for that height, and its seats paint no bigger whatever room it has: they keep their
        size from the card entry to the settlement."""
        self._area = QSize(area)
        self._refit()

    def sizeHint(self) -> QSize:
        natural = super().sizeHint()
        return QSize(natural.width(), self._needed_height) if self._needed_height else natural

    def minimumSizeHint(self) -> QSize:
        """The seats at their smallest in whichever layout is smaller that way, in width and in
        height: a window made smaller lays them out anew (`fit`), so the layout they have now
        must not hold the window as big as it was (moved from a big screen to a small one)."""
        if not self.seat_widgets:
            return super().minimumSizeHint()
        seat = self.seat_widgets[0].minimumSizeHint()
        count = len(self.seat_widgets)
        sizes = []
        for rows in (1, 2):
            columns = count if rows == 1 else (count + 1) // 2
            width = columns * seat.width() + (columns - 1) * SPACING + MARGINS[0] + MARGINS[2]
            height = rows * seat.height() + (rows - 1) * SPACING + MARGINS[1] + MARGINS[3]
            sizes.append(QSize(width, height))
        return QSize(min(size.width() for size in sizes), min(size.height() for size in sizes))

    def _refit(self) -> None:
        area, count = self._area, len(self.seat_widgets)
        if area is None or not count:
            return
        natural = self.seat_widgets[0].natural_size()
        scales = {rows: _seat_scale(area, natural, count, rows) for rows in (1, 2)}
        rows = max(scales, key=lambda rows: (scales[rows], -rows))  # one row when both are equal
        scale = scales[rows]
        if rows != self.rows:
            self.rows = rows
            self._place()
            self.update()
        self.seat_scale = scale
        for widget in self.seat_widgets:
            widget.set_scale_cap(scale)
        seats_height = math.ceil(rows * natural.height() * scale) + (rows - 1) * SPACING
        self._needed_height = seats_height + MARGINS[1] + MARGINS[3]
        self.updateGeometry()

    def _rebuild(self, count: int) -> None:
        # Imported with the first seats, not with the empty felt the window opens on.
        from ofc_desk.desk.table.seat_widget import SeatWidget

        for widget in self.seat_widgets:
            self._grid.removeWidget(widget)
            # Hidden now: deleteLater waits for the event loop, and until then the old seat would
            # still be painted under the new ones (a table opened straight after another).
            widget.hide()
            widget.deleteLater()
        self.seat_widgets = []
        for _seat in range(count):
            widget = SeatWidget(self._options, self)
            widget.clicked.connect(self.seat_clicked)
            self.seat_widgets.append(widget)
        self._place()
        for widget in self.seat_widgets:
            widget.show()
        self._refit()

    def _place(self) -> None:
        """The seats in their cells, clockwise: left to right in one row, around the table in two."""
        count = len(self.seat_widgets)
        for widget in self.seat_widgets:
            self._grid.removeWidget(widget)
        for row in range(self._grid.rowCount()):
            self._grid.setRowStretch(row, 0)
        for column in range(self._grid.columnCount()):
            self._grid.setColumnStretch(column, 0)
        cells = _cells(count, self.rows)
        for widget, (row, column, span) in zip(self.seat_widgets, cells, strict=True):
            self._grid.addWidget(widget, row, column, 1, span)
        for row in {cell[0] for cell in cells}:
            self._grid.setRowStretch(row, 1)
        for column in {cell[1] for cell in cells}:
            self._grid.setColumnStretch(column, 1)

    def paintEvent(self, event: QPaintEvent) -> None:
        colours = self._options.palette
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(self.rect()).adjusted(6, 6, -6, -6)
        radius = min(rect.height(), rect.width()) * 0.22
        painter.setPen(QPen(QColor(colours.felt_rim), 10))
        painter.setBrush(QColor(colours.felt))
        painter.drawRoundedRect(rect, radius, radius)
        if not self.seat_widgets:
            painter.setPen(QColor(colours.felt_rim))
            font = painter.font()
            font.setPixelSize(self._options.scaled(64))
            font.setBold(True)
            painter.setFont(font)
            painter.drawText(rect, ALIGN_CENTER, _("OFC Desk"))

        painter.end()


def _cells(count: int, rows: int) -> tuple[tuple[int, int, int], ...]:
    if rows == 1 or count not in TWO_ROW_CELLS:
        return tuple((0, column, 1) for column in range(count))
    return TWO_ROW_CELLS[count]


def _seat_scale(area: QSize, natural: QSize, count: int, rows: int) -> float:
    """How big a seat can be painted in `area` with the seats in `rows` rows."""
    from ofc_desk.desk.table.seat_widget import MAX_SCALE

    columns = count if rows == 1 else (count + 1) // 2
    width = (area.width() - MARGINS[0] - MARGINS[2] - SPACING * (columns - 1)) / columns
    height = (area.height() - MARGINS[1] - MARGINS[3] - SPACING * (rows - 1)) / rows
    return max(0.0, min(width / natural.width(), height / natural.height(), MAX_SCALE))
