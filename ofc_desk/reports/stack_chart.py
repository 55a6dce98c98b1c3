"""The chart of every player's stack across the session (reportlab graphics)."""

from __future__ import annotations

from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.lib.units import mm

from ofc_desk.reports.formatting import chips

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


def _nice_step(span: int, ticks: int = 6) -> int:
    """A round axis step (1, 2, 5 × 10^n) giving about `ticks` ticks over `span`."""
    raw = max(1, span // ticks)
    magnitude = int(10 ** (len(str(raw)) - 1))
    for factor in (1, 2, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def stack_chart(
    series: tuple[tuple[str, tuple[tuple[int, int], ...]], ...],
    width: float,
    font: str,
    height: float = 62 * mm,
) -> Drawing:
    """A line per player: x is the hand number (0 = opening), y the stack after it."""
    drawing = Drawing(width, height)
    plotted = [(name, points) for name, points in series if points]
    if not plotted:
        drawing.add(String(width / 2, height / 2, "No hands yet", fontName=font, textAnchor="middle"))
        return drawing
    legend_width = 32 * mm
    plot = LinePlot()
    plot.x, plot.y = 14 * mm, 9 * mm
    plot.width, plot.height = width - plot.x - legend_width - 4 * mm, height - plot.y - 4 * mm
    plot.data = [list(points) if len(points) > 1 else [points[0], points[0]] for _, points in plotted]
    last_hand = max(point[0] for _, points in plotted for point in points)
    top = max(point[1] for _, points in plotted for point in points)
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
    for index in range(len(plotted)):
        line = plot.lines[index]
        line.strokeColor = LINE_COLOURS[index % len(LINE_COLOURS)]
        line.strokeWidth = 1.3
        dash = DASHES[(index // len(LINE_COLOURS) + index) % len(DASHES)]
        if dash:
            line.strokeDashArray = dash
    drawing.add(plot)
    drawing.add(
        String(plot.x + plot.width / 2, 0.5 * mm, "hand", fontName=font, fontSize=7, textAnchor="middle")
    )
    legend = Legend()
    legend.x, legend.y = width - legend_width + 2 * mm, height - 6 * mm
    legend.fontName, legend.fontSize = font, 8
    legend.alignment = "right"
    legend.columnMaximum = 10
    legend.colorNamePairs = [
        (LINE_COLOURS[i % len(LINE_COLOURS)], f"{name} ({chips(points[-1][1])})")
        for i, (name, points) in enumerate(plotted)
    ]
    drawing.add(legend)
    return drawing
