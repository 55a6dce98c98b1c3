"""The chip transfers of a settled hand as the settlement panel shows them, for every game: in
settlement order, one line a transfer, with what it was for and why it was capped on a smaller line
under it (which wraps: a long reason never widens the view). A Chinese hand whose transfers settle
in both passes shows them pass by pass: the special pass first, then the rest.

The figures and sentences are the service's scored result (the core's `HandResult` of the hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ofc_desk.core.results import ResultSeat, ResultTransfer
from ofc_desk.core.settlement import SettlementPass
from ofc_desk.i18n import _, lazy_gettext, pgettext
from ofc_desk.reports.spoken import reason_words, why_words

PASS_TITLES = {
    SettlementPass.SPECIAL: lazy_gettext("Special hands, settled first"),
    SettlementPass.REST: lazy_gettext("Then the rest"),
}
KEEP = "white-space:nowrap"


def transfers_html(transfers: Sequence[ResultTransfer], capped_ink: str) -> str:
    if not transfers:
        heading, nothing = escape(_("Chip transfers")), escape(_("No chips move."))
        return f"<b>{heading}</b><p>{nothing}</p>"
    heading = escape(_("Chip transfers, in settlement order"))
    parts = [f"<b>{heading}</b>"]
    numbered = list(enumerate(transfers, start=1))
    passes = {transfer.settles for transfer in transfers}
    if len(passes) < 2:  # one pass (a pool table's, a hand without specials) needs no heading
        return "".join([*parts, _table(numbered, capped_ink)])
    for settlement_pass, title in PASS_TITLES.items():
        in_pass = [(number, t) for number, t in numbered if t.settles == settlement_pass]
        if in_pass:
            parts.append(f"<p><i>{escape(str(title))}</i></p>{_table(in_pass, capped_ink)}")
    return "".join(parts)


def _table(numbered: Sequence[tuple[int, ResultTransfer]], capped_ink: str) -> str:
    rows = "".join(_rows(number, transfer, capped_ink) for number, transfer in numbered)
    return f"<table cellpadding='1' cellspacing='0'>{rows}</table>"


def _rows(number: int, transfer: ResultTransfer, capped_ink: str) -> str:
    owed, paid = transfer.owed, transfer.paid
    capped = owed != paid
    style = f" style='color:{capped_ink}'" if capped else ""
    cells = (
        f"{number}&nbsp;",
        escape(transfer.payer),
        "&nbsp;→&nbsp;",
        escape(transfer.payee),
        f"&nbsp;&nbsp;<b>{paid}</b>",
    )
    # The last column takes the slack, so the reason under a transfer never spreads the others.
    of_owed = escape(_("of {owed} owed").format(owed=owed)) if capped else ""
    last = f"<td width='100%' style='{KEEP}'>&nbsp;{of_owed}</td>"
    line = f"<tr{style}>{''.join(keep_cell(cell) for cell in cells)}{last}</tr>"
    why = [why_words(transfer.why, transfer.payer, transfer.payee)] if transfer.why else []
    if capped:
        why.append(reason_words(transfer.reason) if transfer.reason else _("capped"))
    if not why:
        return line
    return line + f"<tr{style}><td></td><td colspan='5'><small>{escape(' · '.join(why))}</small></td></tr>"


def keep_cell(html: str, align: str = "left") -> str:
    """A table cell whose line never breaks."""
    return f"<td align='{align}' style='{KEEP}'>{html}</td>"


def signed(value: int | None) -> str:
    number = value or 0
    return f"+{number}" if number > 0 else str(number)


def points_words(points: int | None) -> str:
    """A player's points in a hand: "+6 pts"."""
    return _("{points} pts").format(points=signed(points))


GAP = "&nbsp;" * 3
"""The space after a cell of the settlement's hands."""


def hands_table(rows: Sequence[str]) -> str:
    """The settlement's players, one table row each, under their heading."""
    heading = escape(pgettext("settlement heading", "Hands"))
    return f"<b>{heading}</b><table cellpadding='0' cellspacing='0'>" + "".join(rows) + "</table>"


def stacks_cell(seat: ResultSeat) -> str:
    """A player's stack before the hand and, in bold, after it."""
    return f"{seat.stack_before} → <b>{seat.stack_after}</b>"


def pairs_table(rows: Sequence[str]) -> str:
    """The settlement's pairs, one table row each (the first the columns' titles), under their heading."""
    heading = escape(_("Pairs (points from the first player's side)"))
    return f"<h3>{heading}</h3><table cellpadding='1' cellspacing='0'>" + "".join(rows) + "</table>"
