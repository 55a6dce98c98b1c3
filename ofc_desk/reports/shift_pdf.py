"""The shift report as PDF: the room's tables over one shift, the room's totals, each table's audit
fingerprint, and the lines the floor supervisor and the shift manager sign."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer, Table

from ofc_desk.reports.formatting import chips, signed_chips, timestamp
from ofc_desk.reports.pdf_common import (
    CONTENT_WIDTH,
    PageFooter,
    Styles,
    TableWithClosing,
    build_pdf,
    grid_table,
    key_value_table,
    make_styles,
    signature_block,
    text,
)
from ofc_desk.reports.shift import ShiftReport, ShiftWindow, TableShift

FIGURE_HEADINGS = (
    "Table", "Session", "Hands", "Buy-ins", "Rebuys", "Drop", "Cash-outs",
    "Rake", "Jackpot\ndrop", "Chips\nat end", "Voids", "Corrections",
)  # fmt: skip
FIGURE_WIDTHS_MM = (18, 13, 12, 16, 15, 15, 18, 13, 14, 16, 11, 19)
FINGERPRINT_WIDTHS_MM = (20, 13, 38, 12)


def write_shift_report(report: ShiftReport, out: str | IO[bytes]) -> None:
    styles = make_styles()
    place = f"{report.room} · " if report.room else ""
    # The printing time tells two printouts of the same shift apart, and stays short enough for
    # the footer, where the whole window would be cut.
    footer = PageFooter(left=f"Shift report · {place}printed {timestamp(report.printed_at)}", fingerprint="")
    build_pdf(out, list(_story(report, styles)), footer, "Shift report", styles)


def window_words(window: ShiftWindow) -> str:
    """'from 2026-11-23 18:00 UTC to 2026-11-24 02:00 UTC'; an open end says what it stands for."""
    start = timestamp(window.start) if window.start else "the first recorded event"
    end = timestamp(window.end) if window.end else "the time of printing"
    return f"from {start} to {end}"


def _story(report: ShiftReport, styles: Styles) -> Iterator[Flowable]:
    yield Paragraph("Shift report", styles.title)
    room = f"<b>{text(report.room)}</b> · " if report.room else ""
    yield Paragraph(f"{room}{text(window_words(report.window))}", styles.subtitle)
    start, end = report.window.start, report.window.end
    yield key_value_table(
        [
            ("Shift from", timestamp(start) if start else "the first recorded event"),
            ("Shift to", timestamp(end) if end else "the time of printing"),
            ("Printed", timestamp(report.printed_at)),
            ("Tables", str(len(report.tables))),
            ("Hands dealt", chips(report.total("hands_dealt"))),
            ("Drop", chips(report.total("drop"))),
        ],
        styles,
    )
    yield Paragraph("Tables", styles.heading)
    if not report.tables:
        yield Paragraph("No table was open during this shift.", styles.body)
    else:
        yield _figures_table(report, styles)
    yield Paragraph(
        "The shift runs up to, not including, its end. "
        "Hands: settled in the shift (voided hands included). Drop: buy-ins and rebuys. Rake and "
        "jackpot: of the hands that stand. Chips at end: on the table when the shift ended. "
        "Voids and corrections: recorded in the shift (corrections with their chips).",
        styles.small,
    )
    yield Paragraph("Audit fingerprints", styles.heading)
    yield TableWithClosing(_fingerprints_table(report, styles), _closing(report, styles))


def _figures_table(report: ShiftReport, styles: Styles) -> Table:
    rows: list[list[object]] = [list(FIGURE_HEADINGS)]
    rows += [_figures_row(table) for table in report.tables]
    rows.append(
        [
            "Room total",
            "",
            chips(report.total("hands_dealt")),
            *(
                chips(report.total(name))
                for name in ("buy_ins", "rebuys", "drop", "cash_outs", "rake", "jackpot_drop")
            ),
            chips(report.total("chips_on_table")),
            chips(report.total("hands_voided")),
            _corrections(report.total("corrections"), report.total("correction_chips")),
        ]
    )
    widths = [width * mm for width in FIGURE_WIDTHS_MM]
    return grid_table(rows, widths, styles, numeric_columns=range(1, len(widths)), total_row=True)


def _figures_row(table: TableShift) -> list[object]:
    return [
        table.table,
        str(table.session),
        chips(table.hands_dealt),
        chips(table.buy_ins),
        chips(table.rebuys),
        chips(table.drop),
        chips(table.cash_outs),
        chips(table.rake),
        chips(table.jackpot_drop),
        chips(table.chips_on_table),
        chips(table.hands_voided),
        _corrections(table.corrections, table.correction_chips),
    ]


def _corrections(count: int, amount: int) -> str:
    """'0', or '2 (+15)': how many corrections and the chips they added or took."""
    return f"{count} ({signed_chips(amount)})" if count else "0"


def _fingerprints_table(report: ShiftReport, styles: Styles) -> Table:
    rows: list[list[object]] = [["Table", "Session", "Status", "Events", "Audit fingerprint (final hash)"]]
    for table in report.tables:
        status = f"closed {table.closed_at}" if table.closed_at else "open at the end"
        hash_text = f'<font face="Courier" size=6.5>{text(table.fingerprint)}</font>'
        fingerprint = Paragraph(hash_text, styles.cell)
        rows.append([table.table, str(table.session), status, chips(table.events), fingerprint])
    widths = [width * mm for width in FINGERPRINT_WIDTHS_MM]
    widths.append(CONTENT_WIDTH - sum(widths))
    return grid_table(rows, widths, styles, numeric_columns=(1, 3))


def _closing(report: ShiftReport, styles: Styles) -> list[Flowable]:
    """What goes with the last fingerprints: how to check them, the room's head (an anchor for
    `verify --anchors`), and the signature lines."""
    return [
        Spacer(1, 4 * mm),
        Paragraph(
            'A table\'s figures match the database when <font face="Courier">ofc-desk verify '
            "--fingerprints</font> prints the same final hash for its session.",
            styles.small,
        ),
        Paragraph(
            "The room's head when this report was read (time, session, event, hash): "
            f'<font face="Courier" size=6.5>{text(report.room_head or "no event yet")}</font>',
            styles.small,
        ),
        Spacer(1, 6 * mm),
        signature_block([("Floor supervisor", ""), ("Shift manager", "")], styles),
    ]
