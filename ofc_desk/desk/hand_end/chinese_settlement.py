"""A Chinese poker hand's settlement as the panel shows it: each player's showdown (set rows, a
surrender, a declared special, a misset) and the pairs (the transfers are drawn by `transfer_lines`).

The figures are the service's scored result (`ofc-desk score`'s JSON of the hand); nothing here
adds or decides anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ofc_desk.desk.hand_end.transfer_lines import keep_cell

GAP = "&nbsp;" * 3
PAIR_COLUMNS = (("specials", "right"), ("rows", "left"), ("rest", "right"), ("unit", "left"))


def chinese_details_html(result: Mapping[str, Any], rake_line: str, foul_ink: str) -> str:
    parts = [_players_html(result.get("players", ()), foul_ink), _pairs_html(result.get("matchups", ()))]
    if rake_line:
        parts.append(f"<p>{escape(rake_line)}</p>")
    return "".join(parts)


def _players_html(players: Sequence[Mapping[str, Any]], foul_ink: str) -> str:
    rows = []
    for player in players:
        stacks = f"{player.get('stack_before', '')} → <b>{player.get('stack_after', '')}</b>"
        aces = player.get("aces")
        rows.append(
            f"<tr><td><b>{escape(str(player.get('name', '')))}</b>{GAP}</td>"
            f"<td>{_showdown(player, foul_ink)}{GAP}</td>"
            f"<td>{'' if aces is None else f'aces {aces}'}{GAP}</td>"
            f"<td align='right'>{_signed(player.get('points', 0))} pts{GAP}</td>"
            f"<td align='right'>{stacks}</td></tr>"
        )
    return "<b>Hands</b><table cellpadding='0' cellspacing='0'>" + "".join(rows) + "</table>"


def _showdown(player: Mapping[str, Any], foul_ink: str) -> str:
    if player.get("surrendered"):
        return "<b>surrendered</b>"
    if player.get("special"):
        return f"<b>declared {escape(str(player['special']).replace('-', ' '))}</b>"
    if player.get("foul"):
        reason = escape(str(player.get("foul_reason") or ""))
        return f"<b style='color:{foul_ink}'>MISSET</b> — {reason}: loses every row"
    rows = player.get("rows") or {}
    return " · ".join(
        escape(str(row.get("hand", ""))) + (f" (+{row['bonus']})" if row.get("bonus") else "")
        for row in rows.values()
    )


def _pairs_html(matchups: Sequence[Mapping[str, Any]]) -> str:
    """One line a pair, in columns: the special pass, each row, the rest; six pairs at a glance."""
    heading = "".join(f"<th align='{align}'>&nbsp;{title}</th>" for title, align in PAIR_COLUMNS)
    rows = [f"<tr><th align='left'>pair</th>{heading}</tr>"]
    for matchup in matchups:
        first, second = (escape(str(name)) for name in matchup.get("players", ("?", "?")))
        rows_won = matchup.get("rows")
        by_row = ", ".join(_signed(value) for value in rows_won) if rows_won else "not compared"
        cells = (
            (f"<b>{first} – {second}</b>", "left"),
            (f"&nbsp;{_signed(matchup.get('special', 0))}", "right"),
            (f"&nbsp;{escape(by_row)}", "left"),
            (f"&nbsp;{_signed(matchup.get('points', 0))}", "right"),
            (f"&nbsp;× {matchup.get('unit', 1)}", "left"),
        )
        rows.append("<tr>" + "".join(keep_cell(html, align) for html, align in cells) + "</tr>")
    return (
        "<h3>Pairs (points from the first player's side)</h3><table cellpadding='1' cellspacing='0'>"
        + "".join(rows)
        + "</table>"
    )


def _signed(value: Any) -> str:
    number = int(value or 0)
    return f"+{number}" if number > 0 else str(number)
