"""The shift report as PDF: the room's tables over one shift, the room's totals, each table's audit
fingerprint, and the lines the floor supervisor and the shift manager sign."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import IO

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer, Table

from ofc_desk.i18n import Language, _, active_language, in_language, lazy_gettext, ngettext
from ofc_desk.reports.fonts import needs_wide
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
    with_markup,
)
from ofc_desk.reports.shift import ShiftReport, ShiftWindow, TableShift
from ofc_desk.reports.shift_pool import PoolReconciliation

FIGURE_HEADINGS = (
    lazy_gettext("Table"), lazy_gettext("Session"), lazy_gettext("Hands"), lazy_gettext("Buy-ins"),
    lazy_gettext("Rebuys"), lazy_gettext("Drop"), lazy_gettext("Cash-outs"), lazy_gettext("Rake"),
    # TRANSLATORS: a narrow column's heading: "\n" breaks the line.
    lazy_gettext("Jackpot\ndrop"), lazy_gettext("Chips\nat end"), lazy_gettext("Voids"),
    lazy_gettext("Corrections"),
)  # fmt: skip
FIGURE_WIDTHS_MM = (18, 13, 12, 16, 15, 15, 18, 13, 14, 16, 11, 19)
FINGERPRINT_WIDTHS_MM = (20, 13, 38, 12)
POOL_WIDTHS_MM = (16, 30, 30, 30)
"""Beside the table's name, which takes the rest of the width."""


def write_shift_report(report: ShiftReport, out: str | IO[bytes], language: Language | None = None) -> None:
    """Write the shift report in `language` (default: the language spoken now), which it names."""
    with in_language(language or active_language()):
        styles = make_styles()
        place = f"{report.room} · " if report.room else ""
        # The printing time tells two printouts of the same shift apart, and stays short enough for
        # the footer, where the whole window would be cut.
        printed = _("printed {time}").format(time=timestamp(report.printed_at))
        title = _("Shift report")
        footer = PageFooter(left=f"{title} · {place}{printed}", fingerprint="")
        build_pdf(out, list(_story(report, styles)), footer, _("Shift report"), styles)


def window_words(window: ShiftWindow) -> str:
    """'from 2026-11-23 18:00 UTC to 2026-11-24 02:00 UTC'; an open end says what it stands for."""
    start = timestamp(window.start) if window.start else _("the first recorded event")
    end = timestamp(window.end) if window.end else _("the time of printing")
    return _("from {start} to {end}").format(start=start, end=end)


def _story(report: ShiftReport, styles: Styles) -> Iterator[Flowable]:
    yield Paragraph(text(_("Shift report")), styles.title)
    room = f"<b>{text(report.room)}</b> · " if report.room else ""
    yield Paragraph(f"{room}{text(window_words(report.window))}", styles.subtitle)
    start, end = report.window.start, report.window.end
    yield key_value_table(
        [
            (_("Shift from"), timestamp(start) if start else _("the first recorded event")),
            (_("Shift to"), timestamp(end) if end else _("the time of printing")),
            (_("Printed"), timestamp(report.printed_at)),
            (_("Tables"), chips(len(report.tables))),
            (_("Hands dealt"), chips(report.total("hands_dealt"))),
            (_("Drop"), chips(report.total("drop"))),
            (_("Report language"), active_language().native_name),
        ],
        styles,
    )
    yield Paragraph(text(_("Tables")), styles.heading)
    if not report.tables:
        yield Paragraph(text(_("No table was open during this shift.")), styles.body)
    else:
        yield _figures_table(report, styles)
    notes = _(
        "The shift runs up to, not including, its end. "
        "Hands: settled in the shift (voided hands included). Drop: buy-ins and rebuys. Rake and "
        "jackpot: of the hands that stand. Chips at end: on the table when the shift ended. "
        "Voids and corrections: recorded in the shift (corrections with their chips)."
    )
    corrected = _("A corrected hand is one correction; its differences move chips between players only.")
    yield Paragraph(f"{text(notes)} {text(corrected)}", styles.small)
    if report.pool is not None and report.pool.touched:
        yield from _pool_section(report, report.pool, styles)
    yield Paragraph(text(_("Audit fingerprints")), styles.heading)
    yield TableWithClosing(_fingerprints_table(report, styles), _closing(report, styles))


def _pool_section(report: ShiftReport, pool: PoolReconciliation, styles: Styles) -> Iterator[Flowable]:
    """The room's pool over the shift, reconciled, and each table's part in it."""
    yield Paragraph(text(_("The room's jackpot pool over the shift")), styles.heading)
    lines = [
        (_("Pool at the start of the shift"), chips(pool.at_start)),
        ("+ " + _("Jackpot drops"), chips(pool.drops)),
        ("+ " + _("Seeds (house chips)"), chips(pool.seeds)),
        ("− " + _("Awards paid"), chips(pool.awards)),
        ("± " + _("Voids (awards given back, drops taken out)"), signed_chips(pool.voids)),
        ("= " + _("Pool at the end, by the tables' changes"), chips(pool.expected)),
        (_("Pool at the end, as the room's pool stands"), chips(pool.at_end)),
    ]
    yield key_value_table(lines, styles, columns=1)
    if pool.difference:
        alarm = ngettext(
            "The room's jackpot pool does NOT reconcile: the pool at the end differs from its start and"
            " the tables' changes by {difference} chip. Run ofc-desk verify before signing.",
            "The room's jackpot pool does NOT reconcile: the pool at the end differs from its start and"
            " the tables' changes by {difference} chips. Run ofc-desk verify before signing.",
            abs(pool.difference),
        ).format(difference=signed_chips(pool.difference))
        yield Paragraph(f'<font color="#b00020"><b>{text(alarm)}</b></font>', styles.body)
    else:
        yield Paragraph(text(_("The room's jackpot pool reconciles.")), styles.body)
    touched = [t for t in report.tables if t.jackpot_drop or t.jackpot_seeds or t.jackpot_awards]
    if touched:
        rows: list[list[object]] = [[_("Table"), _("Session"), _("Jackpot drops"), _("Seeds"), _("Awards")]]
        rows += [
            [t.table, str(t.session), chips(t.jackpot_drop), chips(t.jackpot_seeds), chips(t.jackpot_awards)]
            for t in touched
        ]
        widths = [width * mm for width in POOL_WIDTHS_MM]
        widths.insert(0, CONTENT_WIDTH - sum(widths))
        yield grid_table(rows, widths, styles, numeric_columns=(1, 2, 3, 4))
    yield Paragraph(
        text(
            _(
                "A table's drops and awards are those of its hands that stand; a void in the shift gives"
                " its hand's award back to the pool and takes its drop out."
            )
        ),
        styles.small,
    )


def _figures_table(report: ShiftReport, styles: Styles) -> Table:
    rows: list[list[object]] = [[str(heading) for heading in FIGURE_HEADINGS]]
    rows += [_figures_row(table) for table in report.tables]
    rows.append(
        [
            _("Room total"),
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
    return f"{chips(count)} ({signed_chips(amount)})" if count else "0"


def _fingerprints_table(report: ShiftReport, styles: Styles) -> Table:
    rows: list[list[object]] = [
        [_("Table"), _("Session"), _("Status"), _("Events"), _("Audit fingerprint (final hash)")]
    ]
    for table in report.tables:
        status = (
            _("closed {time}").format(time=_closed(table.closed_at))
            if table.closed_at
            else _("open at the end")
        )
        hash_text = f'<font face="Courier" size=6.5>{text(table.fingerprint)}</font>'
        fingerprint = Paragraph(hash_text, styles.cell)
        rows.append([table.table, str(table.session), status, chips(table.events), fingerprint])
    widths = [width * mm for width in FINGERPRINT_WIDTHS_MM]
    widths.append(CONTENT_WIDTH - sum(widths))
    return grid_table(rows, widths, styles, numeric_columns=(1, 3))


def _closed(stored: str) -> str:
    """When a table closed, stored for the CSV as '2026-11-23 21:40' (UTC): in the report's
    language without the zone (the column is narrow; the heading's times say UTC)."""
    try:
        moment = datetime.fromisoformat(stored).replace(tzinfo=None)
    except ValueError:
        return stored
    return timestamp(moment)


def _closing(report: ShiftReport, styles: Styles) -> list[Flowable]:
    """What goes with the last fingerprints: how to check them, the room's head (an anchor for
    `verify --anchors`), and the signature lines."""
    command = '<font face="Courier">ofc-desk verify --fingerprints</font>'
    matching = _(
        "A table's figures match the database when {command} prints the same final hash for its session."
    )
    head = _("The room's head when this report was read (time, session, event, hash):")
    room_head = report.room_head or _("no event yet")
    head_words = (
        text(room_head)
        if needs_wide(room_head)
        else f'<font face="Courier" size=6.5>{text(room_head)}</font>'
    )
    return [
        Spacer(1, 4 * mm),
        Paragraph(with_markup(matching, command=command), styles.small),
        Paragraph(f"{text(head)} {head_words}", styles.small),
        Spacer(1, 6 * mm),
        signature_block([(_("Floor supervisor"), ""), (_("Shift manager"), "")], styles),
    ]
