"""Painting one card face, an empty slot or a face-down card with QPainter."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen

from ofc_desk.core.cards import SUIT_SYMBOLS, UNKNOWN_TOKEN
from ofc_desk.desk.shell.theme import DisplayOptions

BASE_CARD_WIDTH = 46
BASE_CARD_HEIGHT = 64


def card_size(options: DisplayOptions) -> tuple[int, int]:
    return options.scaled(BASE_CARD_WIDTH), options.scaled(BASE_CARD_HEIGHT)


def rank_text(label: str) -> str:
    """'Td' shows as 10: a dealer reads '10' faster than 'T'."""
    rank = label[:-1]
    return "10" if rank.upper() == "T" else rank.upper()


def paint_card(
    painter: QPainter,
    rect: QRectF,
    label: str | None,
    options: DisplayOptions,
    *,
    pending: bool = False,
) -> None:
    """`label` is a canonical card ('Ah'), UNKNOWN_TOKEN for face down, or None for an empty slot."""
    colours = options.palette
    radius = rect.width() * 0.12
    painter.save()
    if label is None:
        painter.setPen(QPen(QColor(colours.slot), 2, Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(rect.adjusted(2, 2, -2, -2), radius, radius)
    elif label == UNKNOWN_TOKEN:
        painter.setPen(QPen(QColor(colours.card_edge), 1.5))
        painter.setBrush(QBrush(QColor(colours.card_back), Qt.BrushStyle.SolidPattern))
        painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), radius, radius)
        painter.setPen(QColor("#ffffff"))
        painter.setFont(_font(rect.height() * 0.34, bold=True))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, "?")
    else:
        _paint_face(painter, rect, label, options, radius, pending)
    painter.restore()


def _paint_face(
    painter: QPainter, rect: QRectF, label: str, options: DisplayOptions, radius: float, pending: bool
) -> None:
    colours = options.palette
    suit = label[-1].lower()
    ink = QColor(options.suit_colours.get(suit, "#111111"))
    edge = QPen(QColor(colours.turn if pending else colours.card_edge), 3 if pending else 1.5)
    if pending:
        edge.setStyle(Qt.PenStyle.DashLine)
    painter.setPen(edge)
    painter.setBrush(QColor(colours.card))
    painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), radius, radius)
    painter.setPen(ink)
    rank = rank_text(label)
    rank_box = QRectF(rect.left(), rect.top() + rect.height() * 0.04, rect.width(), rect.height() * 0.52)
    painter.setFont(_font(rect.height() * (0.40 if len(rank) == 1 else 0.34), bold=True))
    painter.drawText(rank_box, Qt.AlignmentFlag.AlignCenter, rank)
    suit_box = QRectF(rect.left(), rect.top() + rect.height() * 0.50, rect.width(), rect.height() * 0.46)
    painter.setFont(_font(rect.height() * 0.36, bold=False))
    painter.drawText(suit_box, Qt.AlignmentFlag.AlignCenter, SUIT_SYMBOLS.get(suit, "?"))


def _font(pixel_height: float, *, bold: bool) -> QFont:
    font = QFont()
    font.setPixelSize(max(6, int(pixel_height)))
    font.setBold(bold)
    return font
