"""A Chinese poker hand's settlement as the panel shows it: each player's showdown (set rows, a
surrender, a declared special, a misset) and the pairs (the transfers are drawn by `transfer_lines`).

The figures are the service's scored result (the core's `HandResult` of the hand); nothing here
adds or decides anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ofc_desk.core.results import HandResult, ResultPair, ResultSeat
from ofc_desk.desk.hand_end.transfer_lines import keep_cell

GAP = "&nbsp;" * 3
PAIR_COLUMNS = (("specials", "right"), ("rows", "left"), ("rest", "right"), ("unit", "left"))


def chinese_details_html(result: HandResult, rake_line: str, foul_ink: str) -> str:
    parts = [_players_html(result.seats, foul_ink), _pairs_html(result.pairs)]
    if rake_line:
        parts.append(f"<p>{escape(rake_line)}</p>")
    return "".join(parts)


def _players_html(seats: Sequence[ResultSeat], foul_ink: str) -> str:
    rows = []
    for seat in seats:
        stacks = f"{seat.stack_before} → <b>{seat.stack_after}</b>"
        aces = seat.showdown.aces if seat.showdown else None
        rows.append(
            f"<tr><td><b>{escape(seat.name)}</b>{GAP}</td>"
            f"<td>{_showdown(seat, foul_ink)}{GAP}</td>"
            f"<td>{'' if aces is None else f'aces {aces}'}{GAP}</td>"
            f"<td align='right'>{_signed(seat.points)} pts{GAP}</td>"
            f"<td align='right'>{stacks}</td></tr>"
        )
    return "<b>Hands</b><table cellpadding='0' cellspacing='0'>" + "".join(rows) + "</table>"


def _showdown(seat: ResultSeat, foul_ink: str) -> str:
    showdown = seat.showdown
    if showdown is not None and showdown.surrendered:
        return "<b>surrendered</b>"
    if showdown is not None and showdown.special is not None:
        return f"<b>declared {escape(showdown.special.value.replace('-', ' '))}</b>"
    if seat.foul:
        reason = escape(seat.foul_reason or "")
        return f"<b style='color:{foul_ink}'>MISSET</b> — {reason}: loses every row"
    return " · ".join(
        escape(row.hand) + (f" (+{row.points})" if row.points else "") for row in seat.rows or ()
    )


def _pairs_html(pairs: Sequence[ResultPair]) -> str:
    """One line a pair, in columns: the special pass, each row, the rest; six pairs at a glance."""
    heading = "".join(f"<th align='{align}'>&nbsp;{title}</th>" for title, align in PAIR_COLUMNS)
    rows = [f"<tr><th align='left'>pair</th>{heading}</tr>"]
    for pair in pairs:
        first, second = escape(pair.first), escape(pair.second)
        by_row = ", ".join(_signed(value) for value in pair.rows) if pair.rows else "not compared"
        cells = (
            (f"<b>{first} – {second}</b>", "left"),
            (f"&nbsp;{_signed(pair.special)}", "right"),
            (f"&nbsp;{escape(by_row)}", "left"),
            (f"&nbsp;{_signed(pair.points)}", "right"),
            (f"&nbsp;× {pair.unit}", "left"),
        )
        rows.append("<tr>" + "".join(keep_cell(html, align) for html, align in cells) + "</tr>")
    return (
        "<h3>Pairs (points from the first player's side)</h3><table cellpadding='1' cellspacing='0'>"
        + "".join(rows)
        + "</table>"
    )


def _signed(value: int | None) -> str:
    number = value or 0
    return f"+{number}" if number > 0 else str(number)
