"""One seat at the felt: name, stack, badges, the rows of cards its game deals (three in both
shipped games) and what each row is worth.

Painted in one pass (no child widgets) so a seat repaints well inside one frame.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QTransform,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from ofc_desk.desk.shell.theme import DisplayOptions, Palette
from ofc_desk.desk.table.cardface import card_size, paint_card
from ofc_desk.desk.table.seatface import ROW_LETTERS, RowFace, SeatFace
from ofc_desk.i18n import _
from ofc_desk.i18n.formatting import number

MAX_ROW_CARDS = 5
ROWS_BEFORE_A_SEAT = 3
"""The rows a seat is sized for until its first face says how many its game deals (`SeatFace.rows`)."""
MIN_SCALE = 0.6
MAX_SCALE = 1.8
MIN_BADGE_FONT = 0.6
"""Badges that do not fit beside the name shrink their letters, down to this much of their size."""
SHORTEST_NAME = 2
"""Letters of the player's name kept when the badges need the room (then the name is cut short)."""


@dataclass(frozen=True, slots=True)
class Badge:
    """One badge of the seat's header, where it is painted (in the seat's natural size)."""

    text: str
    full_text: str
    """What the badge says in full; `text` is shorter only when even its smallest letters would not
    fit (never at the card room's narrowest screen: the screen matrix checks it)."""
    box: QRectF
    font_pixels: float
    fill: str
    ink: str
    round: bool = False


@dataclass(frozen=True, slots=True)
class Header:
    """The seat's header laid out: its number and name on the left, the stack (and TO ACT) on the
    right, the badges between them."""

    box: QRectF
    title: str
    title_box: QRectF
    right: str
    right_box: QRectF
    badges: tuple[Badge, ...]


class SeatWidget(QWidget):
    clicked = Signal(str)
    """The seat's player, when the dealer clicks the seat (to enter a Chinese hand for it)."""

    def __init__(self, options: DisplayOptions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._options = options
        self._seat: SeatFace | None = None
        self._canvas = QRectF()
        self._scale_cap = MAX_SCALE
        self._rows = ROWS_BEFORE_A_SEAT
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setAccessibleName(_("Seat"))

    @property
    def seat(self) -> SeatFace | None:
        return self._seat

    def set_seat(self, seat: SeatFace) -> None:
        if seat == self._seat:
            return
        self._seat = seat
        if len(seat.rows) != self._rows:  # another game's seat: as tall as its rows
            self._rows = len(seat.rows)
            self.updateGeometry()
        name = seat.name or _("empty")
        self.setAccessibleName(_("Seat {number}: {player}").format(number=seat.seat_number, player=name))
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

    def set_scale_cap(self, scale: float) -> None:
        """Never painted bigger than `scale` times the natural size (the felt's choice), and never
        asking for more room than that."""
        if scale != self._scale_cap:
            self._scale_cap = scale
            self.updateGeometry()
            self.update()

    def _metrics(self) -> tuple[float, float, float]:
        width, height = card_size(self._options)
        return float(width), float(height), width * 0.12

    def natural_size(self) -> QSize:
        """The seat at the zoom setting, before the felt scales it."""
        w, h, gap = self._metrics()
        label = w * 0.7
        info = w * 4.4
        total_width = gap * 3 + label + MAX_ROW_CARDS * (w + gap) + info
        total_height = h * 0.78 + self._rows * (h + gap) + h * 0.42 + gap * 2
        return QSize(int(total_width), int(total_height))

    def sizeHint(self) -> QSize:
        natural = self.natural_size()
        scale = min(1.0, self._scale_cap)
        return QSize(int(natural.width() * scale), int(natural.height() * scale))

    def minimumSizeHint(self) -> QSize:
        natural = self.natural_size()
        scale = min(MIN_SCALE, self._scale_cap)
        return QSize(int(natural.width() * scale), int(natural.height() * scale))

    def paintEvent(self, event: QPaintEvent) -> None:
        """Painted at the seat's natural size (the zoom setting), then scaled to fill the space the
        felt gives it: bigger cards on a big screen, everything still there on a small one."""
        if self._seat is None:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        natural = self.natural_size()
        self._canvas = QRectF(0, 0, natural.width(), natural.height())
        painter.setTransform(self.to_widget())
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

    def to_widget(self) -> QTransform:
        """From the seat's natural size (the zoom setting) to the space the felt gives it."""
        natural = self.natural_size()
        scale = min(self.width() / natural.width(), self.height() / natural.height(), self._scale_cap)
        offset_x = (self.width() - natural.width() * scale) / 2
        offset_y = (self.height() - natural.height() * scale) / 2
        return QTransform().translate(offset_x, offset_y).scale(scale, scale)

    def painted_rect(self) -> QRectF:
        """Where the seat is painted on the widget (the widget may be bigger: the felt's cell)."""
        natural = self.natural_size()
        return self.to_widget().mapRect(QRectF(0, 0, natural.width(), natural.height()))

    def row_name_rect(self, index: int) -> QRectF:
        """Where row `index` (0 = the top one) shows its hand's name and worth, in the widget."""
        w, h, gap = self._metrics()
        natural = self.natural_size()
        top = 8 + h * 0.7 + gap + index * (h + gap)
        left = gap * 2 + w * 0.7 + MAX_ROW_CARDS * (w + gap) + gap
        return self.to_widget().mapRect(QRectF(left, top, natural.width() - left - gap * 2, h))

    def _paint_panel(self, painter: QPainter, seat: SeatFace) -> None:
        colours = self._options.palette
        rect = self._canvas.adjusted(3, 3, -3, -3)
        border = QPen(QColor(colours.turn if seat.to_act else colours.felt_rim), 7 if seat.to_act else 2)
        painter.setPen(border)
        painter.setBrush(QColor(colours.seat))
        painter.drawRoundedRect(rect, 12, 12)

    def header(self) -> Header:
        """Where the header's parts go, in the seat's natural size: badges that would run into the
        stack shrink their letters (down to MIN_BADGE_FONT), and only then are cut short."""
        seat = self._seat
        assert seat is not None
        colours = self._options.palette
        natural = self.natural_size()
        _w, h, gap = self._metrics()
        box = QRectF(8, 8, natural.width() - 16, h * 0.7)
        title_font = QFontMetricsF(_font(h * 0.34, bold=True))
        # The seat's number first: the dealer names a seat by it before its cards ("2: qh f").
        title = f"{seat.seat_number} · {seat.name}"
        right = number(seat.stack)  # as the status line and the dialogs group it
        if seat.to_act:
            # TRANSLATORS: on the seat whose turn it is, before its stack: the cards it takes now.
            to_act = _("TO ACT · {count}").format(count=seat.cards_to_take)
            right = f"{to_act}  {right}"
        right_width = title_font.horizontalAdvance(right)
        right_box = QRectF(box.right() - gap * 2 - right_width, box.top(), right_width, box.height())
        start = box.left() + gap * 2
        room = right_box.left() - gap - start
        beside_title = room - title_font.horizontalAdvance(title) - gap
        wanted = _badges(seat, colours)
        badges = _fit_badges(wanted, h * 0.46, gap, beside_title)
        if any(badge.text != badge.full_text for badge in badges):
            # A badge says what the dealer must act on (the game's own mark, a foul): the name gives way
            # first, down to its first letters, as it does in a longer language beside TO ACT.
            shortest = f"{seat.seat_number} · {seat.name[:SHORTEST_NAME]}…"
            beside_shortest = room - title_font.horizontalAdvance(shortest) - gap
            badges = _fit_badges(wanted, h * 0.46, gap, max(beside_title, beside_shortest))
        title = title_font.elidedText(title, Qt.TextElideMode.ElideRight, room - _width(badges, gap))
        title_width = title_font.horizontalAdvance(title)
        x = start + title_width + gap
        placed = []
        for badge in badges:
            top = box.center().y() - badge.box.height() / 2
            placed.append(_moved(badge, QRectF(x, top, badge.box.width(), badge.box.height())))
            x += badge.box.width() + gap
        title_box = QRectF(start, box.top(), title_width, box.height())
        return Header(box, title, title_box, right, right_box, tuple(placed))

    def _paint_header(self, painter: QPainter, seat: SeatFace) -> float:
        colours = self._options.palette
        _w, h, gap = self._metrics()
        header = self.header()
        text_colour = QColor(colours.seat_text)
        if seat.to_act:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(colours.turn))
            painter.drawRoundedRect(header.box, 8, 8)
            text_colour = QColor(colours.turn_text)
        painter.setPen(text_colour)
        painter.setFont(_font(h * 0.34, bold=True))
        left = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
        painter.drawText(header.title_box, left, header.title)
        right = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight
        painter.drawText(header.right_box, right, header.right)
        for badge in header.badges:
            self._paint_badge(painter, badge)
        return header.box.bottom() + gap

    def _paint_badge(self, painter: QPainter, badge: Badge) -> None:
        size = badge.box.height()
        painter.setFont(_font(badge.font_pixels, bold=True))
        painter.setPen(QPen(QColor("#000000"), 1))
        painter.setBrush(QColor(badge.fill))
        if badge.round:
            painter.drawEllipse(badge.box)
        else:
            painter.drawRoundedRect(badge.box, size / 3, size / 3)
        painter.setPen(QColor(badge.ink))
        painter.drawText(badge.box, Qt.AlignmentFlag.AlignCenter, badge.text)

    def _paint_rows(self, painter: QPainter, seat: SeatFace, top: float) -> None:
        _w, h, gap = self._metrics()
        y = top
        for row in seat.rows:
            self._paint_row(painter, row, y)
            y += h + gap
        parts = []
        discards = seat.discards + len(seat.pending_discards)
        if discards:
            parts.append(_("discards: {count}").format(count=discards))
            if seat.pending_discards:
                parts.append(_("this street: {cards}").format(cards=" ".join(seat.pending_discards)))
        if seat.note:
            parts.append(seat.note)
        if parts:
            painter.setPen(QColor(self._options.palette.muted))
            footer = QRectF(gap * 2, y, self._canvas.width() - gap * 4, h * 0.4)
            text = "  ·  ".join(parts)
            # Smaller letters first, so the note is read whole; cut short only below that.
            wanted = QFontMetricsF(_font(h * 0.24, bold=False)).horizontalAdvance(text)
            font = _font(max(h * 0.19, h * 0.24 * min(1.0, footer.width() / wanted)), bold=False)
            painter.setFont(font)
            text = QFontMetricsF(font).elidedText(text, Qt.TextElideMode.ElideRight, footer.width())
            painter.drawText(footer, Qt.AlignmentFlag.AlignLeft, text)

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
        if row.worth:
            painter.setPen(QColor(colours.ok))
            painter.setFont(_font(h * 0.34, bold=True))
            painter.drawText(info, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, row.worth)
            name_box = info.adjusted(0, 0, -painter.fontMetrics().horizontalAdvance(row.worth) - gap, 0)
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
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, _("VOID"))
        painter.restore()

    def _paint_empty(self, painter: QPainter, seat: SeatFace) -> None:
        """A seat nobody holds now: its number stays, so `2:` still means this seat."""
        colours = self._options.palette
        _width, h, gap = self._metrics()
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
        painter.drawText(
            self._canvas,
            Qt.AlignmentFlag.AlignCenter,
            _("SEAT {number} EMPTY").format(number=seat.seat_number),
        )

    def _paint_sitting_out(self, painter: QPainter) -> None:
        colours = self._options.palette
        _width, h, _gap = self._metrics()
        painter.setPen(QColor(colours.seat_text))
        painter.setFont(_font(h * 0.45, bold=True))
        painter.drawText(self._canvas, Qt.AlignmentFlag.AlignCenter, _("SITTING OUT"))


def _font(pixel_height: float, *, bold: bool) -> QFont:
    font = QFont()
    font.setPixelSize(max(6, int(pixel_height)))
    font.setBold(bold)
    return font


BadgeWanted = tuple[str, str, str, bool]
"""A badge's text, fill, ink and whether it is the round button disc."""


def _badges(seat: SeatFace, colours: Palette) -> list[BadgeWanted]:
    badges: list[BadgeWanted] = []
    if seat.is_button:
        badges.append(("D", colours.button_disc, "#111111", True))
    if seat.marks.dealt:
        badges.append((seat.marks.dealt.badge, colours.game_mark, "#ffffff", False))
    if seat.fouled:  # in the header: a stamp over the rows would hide a row's hand
        badges.append((seat.foul_word, colours.foul, "#ffffff", False))
    if seat.marks.shown:
        badges.append((seat.marks.shown.badge, colours.game_mark, "#ffffff", False))
    return badges


def _fit_badges(wanted: list[BadgeWanted], size: float, gap: float, room: float) -> list[Badge]:
    """The badges as big as `room` lets them be: full size, else with smaller letters (the same
    for all), else the longest cut short."""

    def laid_out(shrink: float) -> list[Badge]:
        font_pixels = size * 0.62 * shrink
        metrics = QFontMetricsF(_font(font_pixels, bold=True))
        return [
            Badge(
                text, text,
                QRectF(0, 0, size if disc else metrics.horizontalAdvance(text) + size * 0.6 * shrink, size),
                size * 0.62 if disc else font_pixels, fill, ink, disc,
            )
            for text, fill, ink, disc in wanted
        ]  # fmt: skip

    badges = laid_out(1.0)
    needed = _width(badges, gap)
    if needed <= room or not badges:
        return badges
    fixed = sum(badge.box.width() for badge in badges if badge.round) + gap * len(badges)
    shrink = max(MIN_BADGE_FONT, (room - fixed) / max(1.0, needed - fixed))
    badges = laid_out(shrink)
    overflow = _width(badges, gap) - room
    if overflow <= 0:
        return badges
    longest = max(range(len(badges)), key=lambda index: badges[index].box.width())
    badge = badges[longest]
    metrics = QFontMetricsF(_font(badge.font_pixels, bold=True))
    width = max(badge.box.height(), badge.box.width() - overflow)
    text = metrics.elidedText(badge.full_text, Qt.TextElideMode.ElideRight, width - size * 0.6 * shrink)
    badges[longest] = Badge(
        text, badge.full_text, QRectF(0, 0, width, badge.box.height()), badge.font_pixels, badge.fill,
        badge.ink, badge.round,
    )  # fmt: skip
    return badges


def _width(badges: list[Badge], gap: float) -> float:
    return sum(badge.box.width() + gap for badge in badges)


def _moved(badge: Badge, box: QRectF) -> Badge:
    return Badge(badge.text, badge.full_text, box, badge.font_pixels, badge.fill, badge.ink, badge.round)
