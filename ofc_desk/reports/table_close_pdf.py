"""The one-page table-close report: the chips that should be on the table against the count.

Expected chips = buy-ins (at the opening and on joining) + rebuys − cash-outs ± supervisor
corrections − rake − jackpot drop + jackpot awards (the house's chips from the room's pool, which
enter the table onto the stacks: docs/rules.md §11). The floor supervisor counts the chips and
enters the count; any difference is flagged as the variance.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import IO

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from ofc_desk.i18n import Language, _, active_language, in_language, ngettext
from ofc_desk.reports.fonts import WIDE, needs_wide
from ofc_desk.reports.formatting import chips, hand_count, signed_chips, timestamp, total_chips
from ofc_desk.reports.jackpot_section import jackpot_body, shows_jackpot
from ofc_desk.reports.pdf_common import (
    ALERT,
    CONTENT_WIDTH,
    HEADER_FILL,
    INK,
    RULE,
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
from ofc_desk.reports.record import ChipTotal, SessionRecord
from ofc_desk.reports.record_words import dealers_words, signing_roles

BALANCED_GREEN = colors.HexColor("#1b5e20")


@dataclass(frozen=True)
class TableCloseFigures:
    chip_totals: Mapping[ChipTotal, int]
    """Every total of the chips moved between hands, as the session report's (cash-outs positive)."""
    rake: int
    jackpot_drop: int
    jackpot_awards: int
    stacks_total: int
    """The sum of the players' stacks as the events leave them (must equal `expected`)."""
    counted: int | None
    hands_corrected: int = 0
    """Settled hands a supervisor corrected (docs/rules.md §12): their differences are a line of
    the sum (0 when every difference was paid at the table) only where there were some."""

    @property
    def expected(self) -> int:
        moved = sum(total.said.sign * amount for total, amount in self.chip_totals.items())
        return moved + self.jackpot_awards - self.rake - self.jackpot_drop

    @property
    def variance(self) -> int | None:
        """Counted less expected: negative means chips are missing from the table."""
        return None if self.counted is None else self.counted - self.expected

    @property
    def ledger_mismatch(self) -> int:
        """Non-zero only if the stored stacks disagree with the chip movements (a data fault)."""
        return self.stacks_total - self.expected


def table_close_figures(record: SessionRecord, counted: int | None) -> TableCloseFigures:
    return TableCloseFigures(
        chip_totals={total: record.chip_total(total) for total in ChipTotal},
        rake=record.rake_total,
        jackpot_drop=record.jackpot_total,
        jackpot_awards=record.jackpot_awards,
        stacks_total=record.final_stacks_total,
        counted=counted,
        hands_corrected=len(record.hand_corrections),
    )


def variance_words(figures: TableCloseFigures) -> str:
    """What the supervisor reads aloud: 'BALANCED', 'SHORT by 15 chips', 'OVER by 2 chips'."""
    variance = figures.variance
    if variance is None:
        return _("not counted yet")
    if variance == 0:
        return _("BALANCED")
    count = abs(variance)
    if variance < 0:
        return ngettext("SHORT by {count} chip", "SHORT by {count} chips", count).format(count=chips(count))
    return ngettext("OVER by {count} chip", "OVER by {count} chips", count).format(count=chips(count))


def write_table_close_report(
    record: SessionRecord,
    out: str | IO[bytes],
    counted: int | None = None,
    language: Language | None = None,
    counted_by: str = "",
) -> None:
    """Write the table-close report; `counted` is the supervisor's chip count (None: to fill in),
    `counted_by` the supervisor who entered it (their PIN checked by the desk or by `ofc-desk
    report --counted-by`; "" with no count, where the line stays "entered by the floor
    supervisor"); in `language` (default: the language spoken now), which the report names."""
    with in_language(language or active_language()):
        styles = make_styles()
        place = f"{record.room} · " if record.room else ""
        session = _("session {session}").format(session=record.session_id)
        title = _("Table close")
        footer = PageFooter(
            left=f"{title} · {place}{record.table} · {session}", fingerprint=record.final_hash
        )
        story = list(_story(record, table_close_figures(record, counted), styles, counted_by))
        build_pdf(out, story, footer, f"{title} · {record.table}", styles)


def _story(
    record: SessionRecord, figures: TableCloseFigures, styles: Styles, counted_by: str
) -> Iterator[Flowable]:
    supervisors = [
        *record.supervisors,
        *([counted_by] if counted_by not in ("", *record.supervisors) else []),
    ]
    yield Paragraph(text(_("Table close")), styles.title)
    room = f"{text(record.room)} · " if record.room else ""
    session = text(_("session {session}").format(session=record.session_id))
    yield Paragraph(f"{room}<b>{text(record.table)}</b> · {session}", styles.subtitle)
    voided = sum(1 for hand in record.hands if hand.voided)
    yield key_value_table(
        [
            (_("Session start"), timestamp(record.started_at)),
            (_("Closed"), timestamp(record.ended_at) if record.ended_at else _("still open")),
            (_("Dealer(s)"), dealers_words(record) or "–"),
            (_("Floor supervisor"), ", ".join(supervisors) or "–"),
            (_("Hands settled"), hand_count(len(record.hands), voided)),
            (_("Audit events"), chips(record.event_count)),
            (_("Report language"), active_language().native_name),
        ],
        styles,
    )
    yield Paragraph(text(_("Chips")), styles.heading)
    yield _figures_table(figures, styles, counted_by)
    if figures.ledger_mismatch:
        mismatch = _(
            "The stored stacks ({stacks}) differ from the chip movements by {difference}: run "
            "ofc-desk verify before signing."
        ).format(stacks=chips(figures.stacks_total), difference=signed_chips(figures.ledger_mismatch))
        yield Paragraph(f'<font color="#b00020"><b>{text(mismatch)}</b></font>', styles.body)
    if shows_jackpot(record):
        yield from jackpot_body(record, styles, moves_table_when_empty=True)
    yield Paragraph(text(_("Stacks at close")), styles.heading)
    yield TableWithClosing(_stacks_table(record, styles), _closing(record, styles))


def _stacks_table(record: SessionRecord, styles: Styles) -> Table:
    rows: list[list[object]] = [[_("Player"), _("Stack"), _("Cashed out"), _("Net result")]]
    rows += [
        [p.name, chips(p.final_stack), chips(p.chip_total(ChipTotal.CASH_OUTS)), signed_chips(p.net)]
        for p in record.players
    ]
    return grid_table(
        rows, [CONTENT_WIDTH - 105 * mm, 35 * mm, 35 * mm, 35 * mm], styles, numeric_columns=(1, 2, 3)
    )


def _closing(record: SessionRecord, styles: Styles) -> list[Flowable]:
    """The fingerprint and signature lines, which go wherever the last players' stacks go."""
    fingerprint, none = _("Audit fingerprint:"), _("none")
    room_head, not_read = _("Room's head when read:"), _("not read")
    return [
        Spacer(1, 6 * mm),
        Paragraph(f"{text(fingerprint)} {_courier(record.final_hash or none, 7.5)}", styles.small),
        Paragraph(f"{text(room_head)} {_courier(record.room_head or not_read, 6.5)}", styles.small),
        Spacer(1, 6 * mm),
        signature_block(signing_roles(record), styles),
    ]


def _courier(words: str, size: float) -> str:
    """A hash in Courier; words in its place ("none") in the font that draws them."""
    if needs_wide(words):
        return text(words)
    return f'<font face="Courier" size={size}>{text(words)}</font>'


def _chip_lines(figures: TableCloseFigures) -> Iterator[tuple[str, str]]:
    """The chips moved between hands, each total with the sign it adds to the sum with (the first
    line, the buy-ins, starts the sum)."""
    for number, (total, amount) in enumerate(figures.chip_totals.items()):
        said = total.said
        if said.won_in_play and not figures.hands_corrected:
            continue  # no hand was corrected: the page stays as it was
        sign = "" if number == 0 else "± " if said.either_way else "− " if said.sign < 0 else "+ "
        yield sign + str(said.close_line), total_chips(amount, total)


def _figures_table(figures: TableCloseFigures, styles: Styles, counted_by: str) -> Table:
    counted = "" if figures.counted is None else chips(figures.counted)
    variance = figures.variance
    lines: list[tuple[str, str]] = [
        *_chip_lines(figures),
        ("− " + _("Rake (house)"), chips(figures.rake)),
        ("− " + _("Jackpot drop"), chips(figures.jackpot_drop)),
        # Only a table whose hands were paid an award has the line: the page stays as it was elsewhere.
        *(
            [("+ " + _("Jackpot awards (the house's, from the room's pool)"), chips(figures.jackpot_awards))]
            if figures.jackpot_awards
            else []
        ),
        ("= " + _("Expected chips on the table"), chips(figures.expected)),
        (
            _("Counted chips (entered by {supervisor})").format(supervisor=counted_by)
            if counted_by
            else _("Counted chips (entered by the floor supervisor)"),
            counted,
        ),
        (
            _("Variance (counted − expected)"),
            "" if variance is None else f"{signed_chips(variance)}   {variance_words(figures)}",
        ),
    ]
    table = Table(
        [list(line) for line in lines],
        colWidths=[125 * mm, CONTENT_WIDTH - 125 * mm],
        rowHeights=[6.5 * mm] * len(lines),
    )
    expected_row = len(lines) - 3
    counted_row, variance_row = expected_row + 1, expected_row + 2
    flag = BALANCED_GREEN if variance == 0 else ALERT
    commands: list[tuple[object, ...]] = [
        ("FONT", (0, 0), (-1, -1), styles.regular, 10),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK),
        ("ALIGN", (1, 0), (1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, RULE),
        ("LINEABOVE", (0, expected_row), (-1, expected_row), 1, INK),
        ("FONT", (0, expected_row), (-1, expected_row), styles.bold, 11),
        ("BACKGROUND", (0, expected_row), (-1, expected_row), HEADER_FILL),
        ("BOX", (1, counted_row), (1, counted_row), 1, INK),
        ("FONT", (0, counted_row), (-1, counted_row), styles.bold, 11),
        ("FONT", (0, variance_row), (-1, variance_row), styles.bold, 11),
    ]
    if variance is not None:
        commands.append(("TEXTCOLOR", (1, variance_row), (1, variance_row), flag))
    # The wide font for Chinese words, at each row's size (the last three rows are the larger).
    wide = [
        ("FONT", (column, row), (column, row), WIDE, 11 if row >= expected_row else 10)
        for row, line in enumerate(lines)
        for column, cell in enumerate(line)
        if needs_wide(cell)
    ]
    table.setStyle(TableStyle(commands + wide))
    return table
