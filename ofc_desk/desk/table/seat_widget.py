"""One seat at the felt: name, stack, badges, three rows of cards and what each row is worth.

Painted in one pass (no child widgets) so a seat repaints well inside one frame.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPaintEvent, QPen, QTransform
from PySide6.QtWidgets import QSizePolicy, QWidget

from ofc_desk.desk.shell.theme import DisplayOptions
from ofc_desk.desk.table.cardface import card_size, paint_card
from ofc_desk.desk.table.seatface import RowFace, SeatFace

ROW_LETTERS = {"front": "F", "middle": "M", "back": "B"}
MAX_ROW_CARDS = 5
MIN_SCALE = 0.6
MAX_SCALE = 1.8


class SeatWidget(QWidget):
    clicked = Signal(str)
    """The seat's player, when the dealer clicks the seat (to enter a Chinese hand for it)."""

    def __init__(self, options: DisplayOptions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._options = options
        self._seat: SeatFace | None = None
        self._canvas = QRectF()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setAccessibleName("Seat")

    @property
    def seat(self) -> SeatFace | None:
        return self._seat

    def set_seat(self, seat: SeatFace) -> None:
        if seat == self._seat:
            return
        self._seat = seat
        self.setAccessibleName(f"Seat {seat.seat_number}: {seat.name or 'empty'}")
        self.setAccessibleDescription(seat.spoken())
        self.update()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if self._seat is not None and not self._seat.empty and event.button() is Qt.MouseButton.LeftButton:
            self.clicked.emit(self._seat.name)
        super().mousePressEvent(event)

    def set_options(self, options: DisplayOptions) -> None:
        self._options = options
        self.updateGeometry()
        self.update()

    def _metrics(self) -> tuple[float, float, float]:
        width, height = card_size(self._options)
        return float(width), float(height), width * 0.12

    def sizeHint(self) -> QSize:
        w, h, gap = self._metrics()
        label = w * 0.7
        info = w * 4.4
        total_width = gap * 3 + label + MAX_ROW_CARDS * (w + gap) + info
        total_height = h * 0.78 + 3 * (h + gap) + h * 0.42 + gap * 2
        return QSize(int(total_width), int(total_height))

    def minimumSizeHint(self) -> QSize:
        natural = self.sizeHint()
        return QSize(int(natural.width() * MIN_SCALE), int(natural.height() * MIN_SCALE))

    def paintEvent(self, event: QPaintEvent) -> None:
        """Painted at the seat's natural size (the zoom setting), then scaled to fill the space the
        felt gives it: bigger cards on a big screen, everything still there on a small one."""
        if self._seat is None:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        natural = self.sizeHint()
        self._canvas = QRectF(0, 0, natural.width(), natural.height())
        painter.setTransform(self._to_widget())
        seat = self._seat
        if seat.empty:
            self._paint_empty(painter, seat)
            painter.end()
            return
        if seat.sitting_out:
            painter.setOpacity(0.45)
        self._paint_panel(painter, seat)
        header_height = self._paint_header(painter, seat)
        self._paint_rows(painter, seat, header_height)
        painter.setOpacity(1.0)
        if seat.voided:
            self._paint_void_stamp(painter)
        if seat.sitting_out:
            self._paint_sitting_out(painter)
        painter.end()

    def _to_widget(self) -> QTransform:
        """From the seat's natural size (the zoom setting) to the space the felt gives it."""
        natural = self.sizeHint()
        scale = min(self.width() / natural.width(), self.height() / natural.height(), MAX_SCALE)
        offset_x = (self.width() - natural.width() * scale) / 2
        offset_y = (self.height() - natural.height() * scale) / 2
        return QTransform().translate(offset_x, offset_y).scale(scale, scale)

    def row_name_rect(self, index: int) -> QRectF:
        """Where row `index` (0 = front) shows its hand's name and royalty, in the widget."""
        w, h, gap = self._metrics()
        natural = self.sizeHint()
        top = 8 + h * 0.7 + gap + index * (h + gap)
        left = gap * 2 + w * 0.7 + MAX_ROW_CARDS * (w + gap) + gap
        return self._to_widget().mapRect(QRectF(left, top, natural.width() - left - gap * 2, h))

    def _paint_panel(self, painter: QPainter, seat: SeatFace) -> None:
        colours = self._options.palette
        rect = self._canvas.adjusted(3, 3, -3, -3)
        border = QPen(QColor(colours.turn if seat.to_act else colours.felt_rim), 7 if seat.to_act else 2)
        painter.setPen(border)
        painter.setBrush(QColor(colours.seat))
        painter.drawRoundedRect(rect, 12, 12)

    def _paint_header(self, painter: QPainter, seat: SeatFace) -> float:
        colours = self._options.palette
        _w, h, gap = self._metrics()
        header = QRectF(8, 8, self._canvas.width() - 16, h * 0.7)
        text_colour = QColor(colours.seat_text)
        if seat.to_act:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(colours.turn))
            painter.drawRoundedRect(header, 8, 8)
            text_colour = QColor(colours.turn_text)
        painter.setPen(text_colour)
        painter.setFont(_font(h * 0.34, bold=True))
        name_box = header.adjusted(gap * 2, 0, 0, 0)
        # The seat's number first: the dealer names a seat by it before its cards ("2: qh f").
        title = f"{seat.seat_number} · {seat.name}"
        painter.drawText(name_box, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, title)
        name_width = painter.fontMetrics().horizontalAdvance(title)
        right_text = f"{seat.stack:,}".replace(",", " ")
        if seat.to_act:
            right_text = f"TO ACT · {seat.cards_to_take}   {right_text}"
        painter.drawText(
            header.adjusted(0, 0, -gap * 2, 0),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
            right_text,
        )
        x = header.left() + gap * 3 + name_width
        if seat.is_button:
            x = self._paint_badge(painter, x, header, "D", colours.button_disc, "#111111", round_badge=True)
        if seat.fantasyland_cards:
            label = f"FL {seat.fantasyland_cards}"
            x = self._paint_badge(painter, x, header, label, colours.fantasyland, "#ffffff")
        if seat.fouled:  # in the header: a stamp over the rows would hide a row's hand
            x = self._paint_badge(painter, x, header, seat.foul_word, colours.foul, "#ffffff")
        if seat.showdown:
            x = self._paint_badge(painter, x, header, seat.showdown.upper(), colours.fantasyland, "#ffffff")
        return header.bottom() + gap

    def _paint_badge(
        self,
        painter: QPainter,
        x: float,
        header: QRectF,
        text: str,
        fill: str,
        ink: str,
        *,
        round_badge: bool = False,
    ) -> float:
        _, h, gap = self._metrics()
        size = h * 0.46
        painter.setFont(_font(size * 0.62, bold=True))
        width = size if round_badge else painter.fontMetrics().horizontalAdvance(text) + size * 0.6
        box = QRectF(x, header.center().y() - size / 2, width, size)
        painter.setPen(QPen(QColor("#000000"), 1))
        painter.setBrush(QColor(fill))
        if round_badge:
            painter.drawEllipse(box)
        else:
            painter.drawRoundedRect(box, size / 3, size / 3)
        painter.setPen(QColor(ink))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
        return box.right() + gap

    def _paint_rows(self, painter: QPainter, seat: SeatFace, top: float) -> None:
        _w, h, gap = self._metrics()
        y = top
        for row in seat.rows:
            self._paint_row(painter, row, y)
            y += h + gap
        parts = []
        discards = seat.discards + len(seat.pending_discards)
        if discards:
            parts.append(f"discards: {discards}")
            if seat.pending_discards:
                parts.append("this street: " + " ".join(seat.pending_discards))
        if seat.note:
            parts.append(seat.note)
        if parts:
            painter.setPen(QColor(self._options.palette.muted))
            painter.setFont(_font(h * 0.24, bold=False))
            footer = QRectF(gap * 2, y, self._canvas.width() - gap * 4, h * 0.4)
            painter.drawText(footer, Qt.AlignmentFlag.AlignLeft, "  ·  ".join(parts))

    def _paint_row(self, painter: QPainter, row: RowFace, y: float) -> None:
        colours = self._options.palette
        w, h, gap = self._metrics()
        label_width = w * 0.7
        painter.setPen(QColor(colours.muted))
        painter.setFont(_font(h * 0.36, bold=True))
        painter.drawText(
            QRectF(gap * 2, y, label_width, h), Qt.AlignmentFlag.AlignCenter, ROW_LETTERS.get(row.name, "?")
        )
        x = gap * 2 + label_width
        labels: list[tuple[str | None, bool]] = [(card, False) for card in row.cards]
        labels += [(card, True) for card in row.pending]
        labels += [(None, False)] * max(0, row.size - len(labels))
        for label, pending in labels:
            paint_card(painter, QRectF(x, y, w, h), label, self._options, pending=pending)
            x += w + gap
        x = gap * 2 + label_width + MAX_ROW_CARDS * (w + gap) + gap
        info = QRectF(x, y, self._canvas.width() - x - gap * 2, h)
        name_box = info
        if row.royalty:
            painter.setPen(QColor(colours.ok))
            painter.setFont(_font(h * 0.34, bold=True))
            royalty = f"+{row.royalty}"
            painter.drawText(info, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, royalty)
            name_box = info.adjusted(0, 0, -painter.fontMetrics().horizontalAdvance(royalty) - gap, 0)
        painter.setPen(QColor(colours.seat_text))
        painter.setFont(_font(h * 0.25, bold=False))
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap
        painter.drawText(name_box, flags, row.hand_name)

    def _paint_void_stamp(self, painter: QPainter) -> None:
        """Across the cards, see-through: the hand stays readable, and plainly does not count."""
        colours = self._options.palette
        w, h, gap = self._metrics()
        cards_right = gap * 2 + w * 0.7 + MAX_ROW_CARDS * (w + gap)
        painter.save()
        painter.translate(cards_right / 2, self._canvas.height() / 2 + h * 0.2)
        painter.rotate(-12)
        painter.setFont(_font(h * 0.6, bold=True))
        box = QRectF(-w * 2.2, -h * 0.45, w * 4.4, h * 0.9)
        painter.setOpacity(0.82)
        painter.setPen(QPen(QColor(colours.seat_text), 4))
        painter.setBrush(QColor(colours.seat))
        painter.drawRoundedRect(box, 8, 8)
        painter.setOpacity(1.0)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, "VOID")
        painter.restore()

    def _paint_empty(self, painter: QPainter, seat: SeatFace) -> None:
        """A seat nobody holds now: its number stays, so `2:` still means this seat."""
        colours = self._options.palette
        _, h, gap = self._metrics()
        painter.setOpacity(0.45)
        self._paint_panel(painter, seat)
        painter.setOpacity(1.0)
        painter.setPen(QColor(colours.seat_text))
        painter.setFont(_font(h * 0.34, bold=True))
        header = QRectF(8 + gap * 2, 8, self._canvas.width() - 16, h * 0.7)
        painter.drawText(
            header, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, f"{seat.seat_number}"
        )
        painter.setFont(_font(h * 0.45, bold=True))
        painter.drawText(self._canvas, Qt.AlignmentFlag.AlignCenter, f"SEAT {seat.seat_number} EMPTY")

    def _paint_sitting_out(self, painter: QPainter) -> None:
        colours = self._options.palette
        _, h, _ = self._metrics()
        painter.setPen(QColor(colours.seat_text))
        painter.setFont(_font(h * 0.45, bold=True))
        painter.drawText(self._canvas, Qt.AlignmentFlag.AlignCenter, "SITTING OUT")


def _font(pixel_height: float, *, bold: bool) -> QFont:
    font = QFont()
    font.setPixelSize(max(6, int(pixel_height)))
    font.setBold(bold)
    return font
