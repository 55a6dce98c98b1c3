"""The chip transfers of a settled hand as the settlement panel shows them, for every game: in
settlement order, one line a transfer, with what it was for and why it was capped on a smaller line
under it (which wraps: a long reason never widens the view). A Chinese hand's transfers come pass
by pass: the special pass first, then the rest.

The figures and sentences are the service's scored result (the core's `HandResult` of the hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ofc_desk.core.results import ResultTransfer
from ofc_desk.core.settlement import SettlementPass

PASS_TITLES = {
    SettlementPass.SPECIAL: "Special hands, settled first",
    SettlementPass.REST: "Then the rest",
}
KEEP = "white-space:nowrap"


def transfers_html(transfers: Sequence[ResultTransfer], capped_ink: str) -> str:
    if not transfers:
        return "<b>Chip transfers</b><p>No chips move.</p>"
    parts = ["<b>Chip transfers, in settlement order</b>"]
    numbered = list(enumerate(transfers, start=1))
    passes = [transfer.settles for transfer in transfers]
    if not any(passes):
        return "".join([*parts, _table(numbered, capped_ink)])
    for settlement_pass, title in PASS_TITLES.items():
        in_pass = [(number, t) for number, t in numbered if t.settles == settlement_pass]
        if in_pass:
            parts.append(f"<p><i>{title}</i></p>{_table(in_pass, capped_ink)}")
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
    last = f"<td width='100%' style='{KEEP}'>&nbsp;{f'of {owed} owed' if capped else ''}</td>"
    line = f"<tr{style}>{''.join(keep_cell(cell) for cell in cells)}{last}</tr>"
    why = [transfer.why] if transfer.why else []
    if capped:
        why.append(transfer.reason or "capped")
    if not why:
        return line
    return line + f"<tr{style}><td></td><td colspan='5'><small>{escape(' · '.join(why))}</small></td></tr>"


def keep_cell(html: str, align: str = "left") -> str:
    """A table cell whose line never breaks."""
    return f"<td align='{align}' style='{KEEP}'>{html}</td>"
