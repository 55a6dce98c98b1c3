"""The felt: 2 to 4 seats laid out clockwise around a green table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Signal
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QGridLayout, QWidget

from ofc_desk.desk.shell.theme import DisplayOptions

if TYPE_CHECKING:
    from ofc_desk.desk.table.seat_widget import SeatWidget
    from ofc_desk.desk.table.seatface import SeatFace

# Qt.AlignmentFlag.AlignCenter as a number: the empty felt is painted before the `Qt` namespace
# (slow to import) is needed anywhere else.
ALIGN_CENTER = 0x84

# Grid cells (row, column, column span) in clockwise seat order, by number of seats.
SEAT_CELLS: dict[int, tuple[tuple[int, int, int], ...]] = {
    1: ((0, 0, 2),),
    2: ((0, 0, 1), (0, 1, 1)),
    3: ((0, 0, 1), (0, 1, 1), (1, 0, 2)),
    4: ((0, 0, 1), (0, 1, 1), (1, 1, 1), (1, 0, 1)),
}


class FeltView(QWidget):
    seat_clicked = Signal(str)

    def __init__(self, options: DisplayOptions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Table")
        self._options = options
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(28, 22, 28, 22)
        self._grid.setSpacing(18)
        self.seat_widgets: list[SeatWidget] = []

    def set_seats(self, seats: tuple[SeatFace, ...]) -> None:
        if len(seats) != len(self.seat_widgets):
            self._rebuild(len(seats))
        for widget, seat in zip(self.seat_widgets, seats, strict=True):
            widget.set_seat(seat)

    def seat_widget(self, name: str) -> SeatWidget:
        for widget in self.seat_widgets:
            if widget.seat is not None and widget.seat.name == name:
                return widget
        raise KeyError(name)

    def set_options(self, options: DisplayOptions) -> None:
        self._options = options
        for widget in self.seat_widgets:
            widget.set_options(options)
        self.update()

    def _rebuild(self, count: int) -> None:
        # Imported with the first seats, not with the empty felt the window opens on.
        from ofc_desk.desk.table.seat_widget import SeatWidget

        for widget in self.seat_widgets:
            self._grid.removeWidget(widget)
            widget.deleteLater()
        self.seat_widgets = []
        for row, column, span in SEAT_CELLS.get(min(max(count, 1), 4), SEAT_CELLS[4])[:count]:
            widget = SeatWidget(self._options, self)
            widget.clicked.connect(self.seat_clicked)
            self._grid.addWidget(widget, row, column, 1, span)
            widget.show()
            self.seat_widgets.append(widget)

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
            painter.drawText(rect, ALIGN_CENTER, "OFC Desk")
        painter.end()
