"""The chart of every player's stack across the session (reportlab graphics)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors
from reportlab.lib.units import mm

from ofc_desk.i18n import _
from ofc_desk.reports.fonts import font_for
from ofc_desk.reports.formatting import chips
from ofc_desk.reports.record import AdjustmentKind, SeatMove, SessionRecord

# Distinct when printed in colour and still told apart in grey by the dash patterns.
LINE_COLOURS = (
    colors.HexColor("#1f4e9c"),
    colors.HexColor("#b00020"),
    colors.HexColor("#2e7d32"),
    colors.HexColor("#e08a00"),
    colors.HexColor("#6a1b9a"),
    colors.HexColor("#00838f"),
    colors.HexColor("#5d4037"),
    colors.HexColor("#455a64"),
)
DASHES: tuple[tuple[float, ...] | None, ...] = (None, (4, 2), (1, 1.5), (6, 2, 1, 2))
VOID_GREY = colors.HexColor("#777777")
MIN_HEIGHT = 62 * mm
LEGEND_ROWS = 10
"""Players the legend lists in one column; more take a second column and a taller chart."""

Stretch = tuple[tuple[int, int], ...]
"""(hand number, stack after it) for hands in a row that a player sat through."""


@dataclass(frozen=True)
class StackLine:
    """One player's line: the legend's label and the stretches of hands they were seated for."""

    label: str
    stretches: tuple[Stretch, ...]


def stack_lines(record: SessionRecord) -> tuple[StackLine, ...]:
    """A line per player, broken where they were not at the table, labelled with how they ended.

    A voided hand counts for nothing: its points, and those of the hands settled before the void
    gave its chips back, leave its result out (docs/decisions.md, "A voided hand on the chart").
    """
    position = {0: 0} | {hand.number: index for index, hand in enumerate(record.hands, start=1)}
    final_stacks = {player.name: player.final_stack for player in record.players}
    voided = _voided_results(record)
    return tuple(
        StackLine(
            f"{name} ({_how_it_ended(record, name, final_stacks.get(name, points[-1][1]))})",
            _stretches(
                tuple(
                    (hand, stack - voided.get((name, hand), 0))
                    for hand, stack in _with_chips_between_hands(record, name, points)
                ),
                position,
            ),
        )
        for name, points in record.stack_series()
        if points
    )


def _with_chips_between_hands(record: SessionRecord, name: str, points: Stretch) -> Stretch:
    """A rebuy or a correction is no result of a hand: the line steps straight up (or down) at the
    hand it followed, instead of drawing the chips as won in the next hand."""
    added: dict[int, list[int]] = {}
    for t in record.chip_transactions:
        if t.player == name and t.kind.said.seat is SeatMove.KEEPS:
            added.setdefault(t.after_hand, []).append(t.amount)
    stepped: list[tuple[int, int]] = []
    for hand, stack in points:
        stepped.append((hand, stack))
        for amount in added.get(hand, ()):
            stack += amount
            stepped.append((hand, stack))
    return tuple(stepped)


def voided_hand_numbers(record: SessionRecord) -> tuple[int, ...]:
    return tuple(hand.number for hand in record.hands if hand.voided)


def _voided_results(record: SessionRecord) -> dict[tuple[str, int], int]:
    """Chips to take off (player, hand)'s stored stack: the results of voided hands from that hand
    on, up to the last hand settled before the void returned them."""
    returned_after = {
        a.hand_number: a.after_hand
        for a in record.adjustments
        if a.kind is AdjustmentKind.VOID and a.hand_number is not None
    }
    results: dict[tuple[str, int], int] = {}
    for voided in record.hands:
        if not voided.voided:
            continue
        last = max(voided.number, returned_after.get(voided.number, voided.number))
        carried = [hand.number for hand in record.hands if voided.number <= hand.number <= last]
        for seat in voided.seats:
            for number in carried:
                results[(seat.name, number)] = results.get((seat.name, number), 0) + seat.chips_moved
    return results


def _stretches(points: Stretch, position: Mapping[int, int]) -> tuple[Stretch, ...]:
    """`points` cut wherever the next point is not the very next hand (the player was away); two
    points at one hand (chips added between hands) are a step of the same stretch."""
    stretches: list[list[tuple[int, int]]] = []
    for point in points:
        last = stretches[-1][-1][0] if stretches else None
        if last is None or position[point[0]] not in (position[last], position[last] + 1):
            stretches.append([])
        stretches[-1].append(point)
    return tuple(tuple(stretch) for stretch in stretches)


def _how_it_ended(record: SessionRecord, name: str, final_stack: int) -> str:
    """The player's stack at the end, or "cashed out" if they had left the table by then."""
    seat_changes = [
        t.kind.said.seat
        for t in record.chip_transactions
        if t.player == name and t.kind.said.seat is not SeatMove.KEEPS
    ]
    return _("cashed out") if seat_changes[-1:] == [SeatMove.LEAVES] else chips(final_stack)


def _nice_step(span: int, ticks: int = 6) -> int:
    """A round axis step (1, 2, 5 × 10^n) giving about `ticks` ticks over `span`."""
    raw = max(1, span // ticks)
    magnitude = int(10 ** (len(str(raw)) - 1))
    for factor in (1, 2, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def stack_chart(lines: Sequence[StackLine], width: float, font: str, voided: Sequence[int] = ()) -> Drawing:
    """A line per player: x is the hand number (0 = opening), y the stack after it; each hand in
    `voided` is marked on the plot with a dashed line and the word "void"."""
    plotted = [line for line in lines if line.stretches]
    if not plotted:
        drawing = Drawing(width, MIN_HEIGHT)
        words = _("No hands yet")
        drawing.add(
            String(width / 2, MIN_HEIGHT / 2, words, fontName=font_for(words, font), textAnchor="middle")
        )
        return drawing
    legend = _legend(plotted, font)
    left, bottom, right, top = legend.getBounds()
    height = max(MIN_HEIGHT, top - bottom + 8 * mm)
    # The legend hangs from its top left corner: put it at the top right, the plot beside it.
    legend.x, legend.y = width - (right - left), height - 4 * mm
    plot = _plot(plotted, font)
    plot.x, plot.y = 14 * mm, 9 * mm
    plot.width, plot.height = legend.x - plot.x - 6 * mm, height - plot.y - 4 * mm
    drawing = Drawing(width, height)
    drawing.add(plot)
    # TRANSLATORS: the chart's x axis: the hand number.
    axis = _("hand")
    drawing.add(
        String(
            plot.x + plot.width / 2,
            0.5 * mm,
            axis,
            fontName=font_for(axis, font),
            fontSize=7,
            textAnchor="middle",
        )
    )
    drawing.add(legend)
    for number in voided:
        _mark_void(drawing, plot, number, font)
    return drawing


def _mark_void(drawing: Drawing, plot: LinePlot, number: int, font: str) -> None:
    axis = plot.xValueAxis
    x = plot.x + plot.width * (number - axis.valueMin) / max(1, axis.valueMax - axis.valueMin)
    top = plot.y + plot.height
    drawing.add(Line(x, plot.y, x, top, strokeColor=VOID_GREY, strokeWidth=0.8, strokeDashArray=(2, 2)))
    # TRANSLATORS: marks a voided hand on the stack chart, above a dashed line: keep it short.
    words = _("void")
    label = String(x, top + 1, words, fontName=font_for(words, font), fontSize=6.5, textAnchor="middle")
    label.fillColor = VOID_GREY
    drawing.add(label)


def _legend(lines: Sequence[StackLine], font: str) -> Legend:
    legend = Legend()
    legend.fontName, legend.fontSize = font, 8
    legend.alignment = "right"
    columns = 1 if len(lines) <= LEGEND_ROWS else 2
    legend.columnMaximum = -(-len(lines) // columns)
    legend.colorNamePairs = [(_colour(index), line.label) for index, line in enumerate(lines)]
    return legend


def _colour(index: int) -> colors.Color:
    return LINE_COLOURS[index % len(LINE_COLOURS)]


def _plot(lines: Sequence[StackLine], font: str) -> LinePlot:
    """The lines, one series per stretch, each drawn in its player's colour and dash."""
    plot = LinePlot()
    series: list[list[tuple[int, int]]] = []
    for index, line in enumerate(lines):
        for stretch in line.stretches:
            style = plot.lines[len(series)]
            style.strokeColor = _colour(index)
            style.strokeWidth = 1.3
            dash = DASHES[(index // len(LINE_COLOURS) + index) % len(DASHES)]
            if dash:
                style.strokeDashArray = dash
            if len(stretch) == 1:
                # A single hand makes no line: a dot shows the player was there.
                style.symbol = makeMarker(
                    "FilledCircle", size=3, fillColor=_colour(index), strokeColor=_colour(index)
                )
            series.append(list(stretch) if len(stretch) > 1 else [stretch[0], stretch[0]])
    plot.data = series
    _scale_axes(plot, series, font)
    return plot


def _scale_axes(plot: LinePlot, series: Sequence[Sequence[tuple[int, int]]], font: str) -> None:
    last_hand = max(hand for points in series for hand, _stack in points)
    top = max(stack for points in series for _hand, stack in points)
    plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = 0, max(1, last_hand)
    plot.xValueAxis.valueStep = _nice_step(max(1, last_hand))
    plot.yValueAxis.valueMin = 0
    y_step = _nice_step(max(1, top))
    plot.yValueAxis.valueMax = (top // y_step + 1) * y_step
    plot.yValueAxis.valueStep = y_step
    plot.yValueAxis.labelTextFormat = lambda value: chips(int(value))
    plot.xValueAxis.labelTextFormat = lambda value: str(int(value))
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName = font
        axis.labels.fontSize = 7
        axis.strokeColor = colors.HexColor("#555555")
    plot.yValueAxis.visibleGrid = True
    plot.yValueAxis.gridStrokeColor = colors.HexColor("#dddddd")
    plot.yValueAxis.gridStrokeWidth = 0.4
