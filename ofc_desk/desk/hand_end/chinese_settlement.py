"""A Chinese poker hand's settlement as the panel shows it: each player's showdown (set rows, a
surrender, a declared special, a misset), the pairs, and the transfers: the special pass first,
then the rest, each with what was owed, what was paid and why.

The figures are the service's scored result (`ofc-desk score`'s JSON of the hand); nothing here
adds or decides anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ofc_desk.core.chinese.deal import SettlementPass

GAP = "&nbsp;" * 3
PASS_TITLES = {
    SettlementPass.SPECIAL.value: "Special hands, settled first",
    SettlementPass.REST.value: "Then the rest",
}


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
    rows = []
    for matchup in matchups:
        first, second = (escape(str(name)) for name in matchup.get("players", ("?", "?")))
        rows_won = matchup.get("rows")
        by_row = "rows " + ", ".join(_signed(value) for value in rows_won) if rows_won else "not compared"
        rows.append(
            f"<tr><td><b>{first} – {second}</b></td><td>specials {_signed(matchup.get('special', 0))}</td>"
            f"<td>{escape(by_row)}</td><td>rest {_signed(matchup.get('points', 0))}</td>"
            f"<td>× {matchup.get('unit', 1)}</td></tr>"
        )
    return (
        "<h3>Pairs (points from the first player's side)</h3><table cellpadding='3'>"
        + "".join(rows)
        + "</table>"
    )


def chinese_transfers_html(transfers: Sequence[Mapping[str, Any]], capped_ink: str) -> str:
    """The transfers pass by pass, in settlement order, each with why it was paid."""
    if not transfers:
        return "<b>Chip transfers</b><p>No chips move.</p>"
    parts = ["<b>Chip transfers, in settlement order</b>"]
    number = 0
    for settlement_pass, title in PASS_TITLES.items():
        in_pass = [transfer for transfer in transfers if transfer.get("pass") == settlement_pass]
        if not in_pass:
            continue
        lines = []
        for transfer in in_pass:
            number += 1
            lines.append(_transfer_line(number, transfer, capped_ink))
        parts.append(f"<p><i>{title}</i></p><table cellpadding='1' cellspacing='0'>{''.join(lines)}</table>")
    return "".join(parts)


def _transfer_line(number: int, transfer: Mapping[str, Any], capped_ink: str) -> str:
    """One row a transfer, what it is for beside it: four players' transfers read at a glance."""
    owed, paid = transfer.get("owed", ""), transfer.get("paid", "")
    capped = owed != paid
    style = f" style='color:{capped_ink}'" if capped else ""
    why_capped = escape(str(transfer.get("reason", "")))
    paid_text = f"<b>{paid}</b>" + (f" of {owed} owed ({why_capped})" if capped else "")
    return (
        f"<tr{style}><td>{number}&nbsp;</td>"
        f"<td style='white-space:nowrap'>{escape(str(transfer.get('from', '')))}&nbsp;→&nbsp;"
        f"{escape(str(transfer.get('to', '')))}&nbsp;&nbsp;{paid_text}&nbsp;&nbsp;</td>"
        f"<td><small>{escape(str(transfer.get('for', '')))}</small></td></tr>"
    )


def _signed(value: Any) -> str:
    number = int(value or 0)
    return f"+{number}" if number > 0 else str(number)
