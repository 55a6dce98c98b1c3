"""The session report's corrected hands (docs/rules.md §12): for each correction, who made it and
why, the hand as recorded (or as last corrected) beside the hand as corrected, and each player's
difference, what was paid now and what is not covered, for the floor to settle off the table."""

from __future__ import annotations

from collections.abc import Iterator

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Paragraph

from ofc_desk.i18n import _
from ofc_desk.reports.formatting import chips, signed_chips, timestamp
from ofc_desk.reports.games import report_game
from ofc_desk.reports.games.base import ReportGame
from ofc_desk.reports.pdf_common import CONTENT_WIDTH, Styles, grid_table, text
from ofc_desk.reports.record import HandCorrection, SeatResult, SessionRecord


def corrections_section(record: SessionRecord, styles: Styles) -> Iterator[Flowable]:
    """Nothing when no hand was corrected: most sessions never are."""
    if not record.hand_corrections:
        return
    game = report_game(record)
    yield CondPageBreak(40 * mm)
    yield Paragraph(text(_("Corrected hands")), styles.heading)
    for correction in record.hand_corrections:
        yield KeepTogether(list(_correction(correction, game, styles)))


def _correction(correction: HandCorrection, game: ReportGame, styles: Styles) -> Iterator[Flowable]:
    said = _("Hand {number}, corrected at event {event} ({time}): {description}")
    line = said.format(
        number=correction.hand_number,
        event=correction.seq,
        time=timestamp(correction.at),
        description=correction.description,
    )
    yield Paragraph(text(line), styles.body)
    if correction.reason:
        yield Paragraph(text(_("Reason: {reason}").format(reason=correction.reason)), styles.body)
    headings = (
        _("Player"),
        _("As recorded"),
        _("As corrected"),
        _("Difference"),
        _("Paid now"),
        _("Not covered"),
        _("Stack after"),
    )
    rows: list[list[object]] = [list(headings)]
    corrected = {seat.name: seat for seat in correction.corrected}
    for seat in correction.recorded or correction.corrected:
        name = seat.name
        after = correction.stacks_after.get(name)
        now = _hand_words(corrected[name], game) if name in corrected else "–"
        rows.append(
            [
                name,
                Paragraph(text(_hand_words(seat, game)), styles.cell),
                Paragraph(text(now), styles.cell),
                signed_chips(correction.difference.get(name, 0)),
                signed_chips(correction.paid.get(name, 0)),
                signed_chips(correction.not_covered.get(name, 0)),
                chips(after) if after is not None else _("left the table"),
            ]
        )
    widths = [18 * mm, 46 * mm, 46 * mm, 17 * mm, 17 * mm, 17 * mm, CONTENT_WIDTH - 161 * mm]
    yield grid_table(rows, widths, styles, numeric_columns=(3, 4, 5, 6))


def _hand_words(seat: SeatResult, game: ReportGame) -> str:
    """A player's hand in one cell: the rows front to back, the game's flag when it did not stand,
    and the chips the settlement gave them."""
    in_place = game.in_place_of_rows(seat)
    rows = in_place or " / ".join(" ".join(row.cards) for row in seat.rows)
    flag = f" ({game.flag})" if seat.foul else ""
    won = signed_chips(seat.stack_after - seat.stack_before)
    return _("{rows}{flag}: {chips}").format(rows=rows, flag=flag, chips=won)
