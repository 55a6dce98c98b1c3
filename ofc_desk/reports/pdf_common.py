"""What every OFC Desk PDF shares: page frame, "Page x of y" footer, styles, tables, signatures."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Table, TableStyle

from ofc_desk.i18n import _
from ofc_desk.reports.fonts import REGULAR, WIDE, font_for, register_fonts

PAGE_SIZE = A4
MARGIN = 15 * mm
CONTENT_WIDTH = PAGE_SIZE[0] - 2 * MARGIN
INK = colors.HexColor("#1a1a1a")
RULE = colors.HexColor("#9a9a9a")
HEADER_FILL = colors.HexColor("#e4e8e4")
STRIPE_FILL = colors.HexColor("#f5f6f5")
ALERT = colors.HexColor("#b00020")


@dataclass(frozen=True)
class Styles:
    """The paragraph styles of a report, built on the registered fonts."""

    regular: str
    bold: str
    title: ParagraphStyle
    subtitle: ParagraphStyle
    heading: ParagraphStyle
    subheading: ParagraphStyle
    body: ParagraphStyle
    small: ParagraphStyle
    cell: ParagraphStyle
    cell_small: ParagraphStyle
    mono: ParagraphStyle
    header: ParagraphStyle
    """A table heading that wraps (grid_table's header row); `header_right` over numbers."""
    header_right: ParagraphStyle


def make_styles() -> Styles:
    regular, bold = register_fonts()

    def style(name: str, size: float, font: str = regular, **extra: Any) -> ParagraphStyle:
        settings: dict[str, Any] = {
            "fontName": font,
            "fontSize": size,
            "leading": size * 1.25,
            "textColor": INK,
        }
        return ParagraphStyle(name, **(settings | extra))

    return Styles(
        regular=regular,
        bold=bold,
        title=style("title", 18, bold, spaceAfter=2),
        subtitle=style("subtitle", 11, spaceAfter=6),
        heading=style("heading", 12.5, bold, spaceBefore=10, spaceAfter=4),
        subheading=style("subheading", 9.5, bold, spaceBefore=6, spaceAfter=2),
        body=style("body", 9),
        small=style("small", 7.5),
        cell=style("cell", 8),
        cell_small=style("cell_small", 6.5, textColor=colors.HexColor("#444444")),
        mono=style("mono", 8.5, "Courier", alignment=TA_CENTER),
        header=style("header", 8, bold, leading=9),
        header_right=style("header_right", 8, bold, leading=9, alignment=TA_RIGHT),
    )


def text(value: object) -> str:
    """Plain text made safe for Paragraph markup (a player called 'A&B' must not break it), in
    the wide font if DejaVu cannot draw it (reports.fonts)."""
    plain = str(value)
    if font_for(plain, REGULAR) == WIDE:
        return f'<font face="{WIDE}">{escape(plain)}</font>'
    return escape(plain)


def with_markup(words: str, **markup: str) -> str:
    """Translated words made safe for Paragraph markup (`text`), then each `{field}` in them
    replaced by its markup (a command in bold or in Courier): the translator places the field,
    the markup stays the report's."""
    safe = text(words)
    for field, value in markup.items():
        safe = safe.replace("{" + field + "}", value)
    return safe


def wide_cell_commands(rows: Sequence[Sequence[object]], size: float) -> list[tuple[Any, ...]]:
    """Table style commands that draw each plain-text cell DejaVu cannot draw in the wide font."""
    return [
        ("FONT", (column, row), (column, row), WIDE, size)
        for row, cells in enumerate(rows)
        for column, cell in enumerate(cells)
        if isinstance(cell, str) and font_for(cell, REGULAR) == WIDE
    ]


@dataclass(frozen=True)
class PageFooter:
    """What the footer of every page says, so a loose page can still be matched to its session."""

    left: str
    fingerprint: str


FOOTER_SIZE = 7.5
FOOTER_GAP = 4 * mm
"""The least space between the footer's left text and the centred page number."""


def fit_to_width(line: str, width: float, font: str, size: float) -> str:
    """`line` as it is if it fits in `width` points, else cut in the middle with "…".

    The end keeps two thirds of what fits: it names the table and the session, which match a
    loose page to its report; the start says what the page is.
    """
    font = font_for(line, font)
    if stringWidth(line, font, size) <= width:
        return line
    for kept in range(len(line) - 1, 0, -1):
        head = line[: kept // 3].rstrip()
        tail = line[len(line) - (kept - kept // 3) :].lstrip()
        shortened = f"{head}…{tail}"
        if stringWidth(shortened, font, size) <= width:
            return shortened
    return "…"


def _footer_left_fitted(left: str, total_pages: int, font: str) -> str:
    """The left footer text, shortened to end before the widest "Page x of y" of the document."""
    widest = page_of(total_pages, total_pages)
    widest_number = stringWidth(widest, font_for(widest, font), FOOTER_SIZE)
    room = PAGE_SIZE[0] / 2 - widest_number / 2 - FOOTER_GAP - MARGIN
    return fit_to_width(left, room, font, FOOTER_SIZE)


def page_of(page: int, pages: int) -> str:
    return _("Page {page} of {pages}").format(page=page, pages=pages)


def _numbered_canvas_class(footer: PageFooter, font: str) -> type[Canvas]:
    """A canvas that holds its pages back until the end, so each can say "Page x of y"."""

    class NumberedCanvas(Canvas):  # type: ignore[misc]  # reportlab ships no type hints
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._held_pages: list[dict[str, Any]] = []

        def showPage(self) -> None:
            self._held_pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._held_pages)
            left = _footer_left_fitted(footer.left, total, font)
            for page_state in self._held_pages:
                self.__dict__.update(page_state)
                self._draw_footer(left, total)
                super().showPage()
            super().save()

        def _draw_footer(self, left: str, total: int) -> None:
            self.saveState()
            self.setStrokeColor(RULE)
            self.setLineWidth(0.5)
            y = MARGIN - 6 * mm
            self.line(MARGIN, y + 3.5 * mm, PAGE_SIZE[0] - MARGIN, y + 3.5 * mm)
            self.setFillColor(INK)
            self.setFont(font_for(left, font), FOOTER_SIZE)
            self.drawString(MARGIN, y, left)
            page = page_of(self._pageNumber, total)
            self.setFont(font_for(page, font), FOOTER_SIZE)
            self.drawCentredString(PAGE_SIZE[0] / 2, y, page)
            if footer.fingerprint:
                fingerprint = _("fingerprint {hash}…").format(hash=footer.fingerprint[:16])
                self.setFont(font_for(fingerprint, font), FOOTER_SIZE)
                self.drawRightString(PAGE_SIZE[0] - MARGIN, y, fingerprint)
            self.restoreState()

    return NumberedCanvas


Run = tuple[str, str, float, Any]
"""A piece of text drawn in one go: (text, font name, size, colour)."""


class RunsCell(Flowable):  # type: ignore[misc]  # reportlab ships no type hints
    """Lines of differently coloured text runs, drawn straight onto the canvas.

    A table of 500 hands has thousands of cells; Paragraph markup parsing made the report take
    seconds, and these cells never need wrapping (they are sized to fit their column).
    """

    def __init__(self, lines: Sequence[Sequence[Run]], leading: float = 1.2) -> None:
        super().__init__()
        self.lines = [list(line) for line in lines]
        self.heights = [max((run[2] for run in line), default=0) * leading for line in self.lines]

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return available_width, sum(self.heights)

    def draw(self) -> None:
        # One text object for the whole cell: far cheaper than a drawString per run.
        text_object = self.canv.beginText()
        y = sum(self.heights)
        current_font: tuple[str, float] | None = None
        current_colour: Any = None
        for line, height in zip(self.lines, self.heights, strict=True):
            y -= height
            text_object.setTextOrigin(0, y + height * 0.2)
            for text_run, run_font, size, colour in line:
                font = font_for(text_run, run_font)
                if (font, size) != current_font:
                    text_object.setFont(font, size)
                    current_font = (font, size)
                if colour is not current_colour:
                    text_object.setFillColor(colour)
                    current_colour = colour
                text_object.textOut(text_run)
        self.canv.drawText(text_object)


def build_pdf(out: Any, story: Sequence[Flowable], footer: PageFooter, title: str, styles: Styles) -> None:
    """Lay the story out on A4 pages with the numbered footer; `out` is a path or binary file."""
    doc = SimpleDocTemplate(
        out,
        pagesize=PAGE_SIZE,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN + 2 * mm,
        title=title,
        author="OFC Desk",
        creator="OFC Desk",
    )
    canvasmaker: Callable[..., Canvas] = _numbered_canvas_class(footer, styles.regular)
    doc.build(list(story), canvasmaker=canvasmaker)


def grid_table(
    rows: Sequence[Sequence[object]],
    widths: Sequence[float],
    styles: Styles,
    *,
    numeric_columns: Sequence[int] = (),
    total_row: bool = False,
    extra: Sequence[tuple[Any, ...]] = (),
) -> Table:
    """A ruled table whose header row repeats on every page and whose rows never split; a heading
    wider than its column (a longer language's) wraps within it."""
    if rows:
        body_end = len(rows) - 1 if total_row else len(rows)
        fitted_body = [_fitted_row(row, widths, styles) for row in rows[1:body_end]]
        rows = [_fitted_header(rows[0], widths, styles, numeric_columns), *fitted_body, *rows[body_end:]]
    table = Table(list(map(list, rows)), colWidths=list(widths), repeatRows=1, splitInRow=0)
    commands: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, -1), styles.regular, 8),
        ("FONT", (0, 0), (-1, 0), styles.bold, 8),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK),
        ("BACKGROUND", (0, 0), (-1, 0), HEADER_FILL),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, RULE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]
    for column in numeric_columns:
        commands.append(("ALIGN", (column, 0), (column, -1), "RIGHT"))
    if total_row:
        commands += [
            ("FONT", (0, -1), (-1, -1), styles.bold, 8),
            ("LINEABOVE", (0, -1), (-1, -1), 0.8, INK),
        ]
    table.setStyle(TableStyle(commands + wide_cell_commands(rows, 8) + list(extra)))
    return table


def _fitted_header(
    header: Sequence[object], widths: Sequence[float], styles: Styles, numeric_columns: Sequence[int]
) -> list[object]:
    """The header row with each heading too wide for its column as a Paragraph, which wraps:
    plain text would run into its neighbour."""
    fitted: list[object] = []
    for column, (cell, width) in enumerate(zip(header, widths, strict=False)):
        if isinstance(cell, str) and _widest(cell.split("\n"), styles.bold) > width - CELL_PADDING:
            style = styles.header_right if column in numeric_columns else styles.header
            cell = Paragraph(text(cell).replace("\n", "<br/>"), _shrunk(style, cell, width - CELL_PADDING))
        fitted.append(cell)
    return fitted + list(header[len(fitted) :])


def _fitted_row(row: Sequence[object], widths: Sequence[float], styles: Styles) -> list[object]:
    """A body row with each text too wide for its column as a Paragraph, which wraps: a longer
    language's date or word would run into its neighbour."""
    return [
        Paragraph(text(cell), styles.cell)
        if isinstance(cell, str) and _widest([cell], styles.regular) > width
        else cell
        for cell, width in zip(row, widths, strict=False)
    ] + list(row[len(widths) :])


CELL_PADDING = 6
"""A grid cell's left and right padding together (grid_table's style)."""
SMALLEST_HEADING = 5.5


def _widest(pieces: Sequence[str], font: str, size: float = 8) -> float:
    # A heading must stay inside its cell's padding: text running into it touches the neighbour's
    # ("Missets Surrenders" read as one).
    return max((stringWidth(piece, font_for(piece, font), size) for piece in pieces), default=0)


def _shrunk(style: ParagraphStyle, heading: str, room: float) -> ParagraphStyle:
    """The heading's style, smaller when one of its words is wider than the column: a Paragraph
    wraps between words, and would break a word letter by letter."""
    widest_word = _widest(heading.split(), style.fontName, style.fontSize)
    if widest_word <= room:
        return style
    size = max(SMALLEST_HEADING, style.fontSize * room / widest_word)
    return ParagraphStyle(f"{style.name}-{size:.1f}", parent=style, fontSize=size, leading=size * 1.15)


class TableWithClosing(Flowable):  # type: ignore[misc]  # reportlab ships no type hints
    """A table and what closes it (fingerprint, signature lines), which never leave its last rows.

    Laid out as it is where it fits. Otherwise the table is cut so that its last `kept_rows`
    rows go on to the next page with the closing: signature lines must stay with the figures
    they sign, never stand alone on a page of their own.
    """

    def __init__(self, table: Table, closing: Sequence[Flowable], kept_rows: int = 3) -> None:
        super().__init__()
        self.table = table
        self.closing = list(closing)
        self.kept_rows = kept_rows

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        # Taller than any page, as KeepTogether does, so the frame always asks `split` where to cut.
        return available_width, 0xFFFFFF

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        table_height = self.table.wrap(available_width, available_height)[1]
        closing_height = sum(
            flowable.wrap(available_width, available_height)[1]
            + flowable.getSpaceBefore()
            + flowable.getSpaceAfter()
            for flowable in self.closing
        )
        if table_height + closing_height <= available_height:
            return [self.table, *self.closing]
        kept_height = sum(self.table._rowHeights[-self.kept_rows :])  # known once wrapped
        pieces = self.table.split(available_width, min(available_height, table_height - kept_height))
        if len(pieces) < 2:
            return []  # not even a row fits here: the frame moves it all to the next page
        first, rest = pieces
        return [first, TableWithClosing(rest, self.closing, self.kept_rows)]


def key_value_table(pairs: Sequence[tuple[str, str]], styles: Styles, columns: int = 2) -> Table:
    """Label/value pairs laid out in `columns` column pairs, labels in bold."""
    cells = [
        [Paragraph(f"<b>{text(label)}</b>", styles.cell), Paragraph(text(value), styles.cell)]
        for label, value in pairs
    ]
    per_column = -(-len(cells) // columns) if cells else 0
    rows: list[list[object]] = []
    for index in range(per_column):
        row: list[object] = []
        for column in range(columns):
            position = column * per_column + index
            row += cells[position] if position < len(cells) else ["", ""]
        rows.append(row)
    label_width = CONTENT_WIDTH / columns * 0.42
    widths = [label_width, CONTENT_WIDTH / columns - label_width] * columns
    table = Table(rows or [["", ""]], colWidths=widths, splitInRow=0)
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
                ("LEFTPADDING", (0, 0), (-1, -1), 2),
                ("LINEBELOW", (0, 0), (-1, -1), 0.25, STRIPE_FILL),
            ]
        )
    )
    return table


def signature_block(roles: Sequence[tuple[str, str]], styles: Styles) -> Table:
    """Lines to sign: one row per (role, printed name), with name, signature and date lines."""
    gap = 5 * mm
    widths = [32 * mm, 44 * mm, gap, 58 * mm, gap, CONTENT_WIDTH - 144 * mm]
    rows: list[list[object]] = [["", _("Name (print)"), "", _("Signature"), "", _("Date and time")]]
    for role, name in roles:
        # A Paragraph reads markup, so the escaped name prints as typed ("Lee & Kim") and wraps.
        name_cell = Paragraph(text(name), styles.body)
        rows.append([Paragraph(f"<b>{text(role)}</b>", styles.body), name_cell, "", "", "", ""])
    table = Table(rows, colWidths=widths, rowHeights=[5 * mm] + [15 * mm] * len(roles))
    commands: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, -1), styles.regular, 9),
        ("FONT", (0, 0), (-1, 0), styles.regular, 7),
        ("TEXTCOLOR", (0, 0), (-1, 0), colors.HexColor("#555555")),
        ("VALIGN", (0, 1), (-1, -1), "BOTTOM"),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
    ]
    for column in (1, 3, 5):
        commands.append(("LINEBELOW", (column, 1), (column, -1), 0.8, INK))
    table.setStyle(TableStyle(commands + wide_cell_commands(rows[:1], 7)))
    return table
