"""The end of a hand: each pair's breakdown and the ordered chip transfers, then Confirm.

It shows the service's scored result (the `ofc-desk score` JSON of the hand) as it is; the desk
adds no arithmetic of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QTextBrowser, QVBoxLayout, QWidget

_KNOWN_MATCHUP_KEYS = {"players", "points"}


class SettlementPanel(QWidget):
    confirm_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("Settlement", self)
        self.title.setObjectName("prompt")
        self.details = QTextBrowser(self)
        self.details.setAccessibleName("Settlement details")
        self.details.setOpenLinks(False)
        self.refusal = QLabel("", self)
        self.refusal.setObjectName("refusal")
        self.refusal.setAccessibleName("Refusal")
        self.refusal.setWordWrap(True)
        self.confirm_button = QPushButton("Confirm settlement and deal next hand (Enter)", self)
        self.confirm_button.setAccessibleName("Confirm settlement")
        self.confirm_button.setDefault(True)
        self.confirm_button.clicked.connect(self.confirm_requested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.refusal, 1)
        buttons.addWidget(self.confirm_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.details, 1)
        layout.addLayout(buttons)

    def keyPressEvent(self, event: Any) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.confirm_requested.emit()
            return
        super().keyPressEvent(event)

    def show_result(self, hand_number: int, result: Mapping[str, Any], rake_line: str) -> None:
        self.title.setText(f"Hand {hand_number} complete — check and confirm the settlement")
        self.details.setHtml(settlement_html(result, rake_line))
        self.refusal.setText("")


def settlement_html(result: Mapping[str, Any], rake_line: str = "") -> str:
    parts = [_players_html(result.get("players", ())), _matchups_html(result.get("matchups", ()))]
    parts.append(_transfers_html(result.get("transfers", ())))
    if rake_line:
        parts.append(f"<p>{escape(rake_line)}</p>")
    return "".join(parts)


def _players_html(players: Sequence[Mapping[str, Any]]) -> str:
    rows = []
    for player in players:
        royalties = player.get("royalties", {})
        royalty_text = " · ".join(f"{row} {value}" for row, value in royalties.items() if value)
        fantasyland = player.get("fantasyland", {})
        going = f"Fantasyland next: {fantasyland.get('cards')} cards" if fantasyland.get("next") else ""
        foul = "<b style='color:#ff4d3d'>FOUL</b>" if player.get("foul") else ""
        rows.append(
            f"<tr><td><b>{escape(str(player.get('name', '')))}</b></td><td>{foul}</td>"
            f"<td>royalties: {escape(royalty_text) or 'none'}</td><td>{escape(going)}</td>"
            f"<td align='right'>stack after: <b>{player.get('stack_after', '')}</b></td></tr>"
        )
    return "<h3>Players</h3><table cellpadding='4'>" + "".join(rows) + "</table>"


def _matchups_html(matchups: Sequence[Mapping[str, Any]]) -> str:
    rows = []
    for matchup in matchups:
        first, second = (escape(str(name)) for name in matchup.get("players", ("?", "?")))
        points = int(matchup.get("points", 0))
        summary = (
            f"{first} wins {points} from {second}"
            if points > 0
            else f"{second} wins {-points} from {first}"
            if points < 0
            else "no points change hands"
        )
        breakdown = _breakdown_text(matchup)
        rows.append(f"<tr><td><b>{first} – {second}</b></td><td>{summary}</td><td>{breakdown}</td></tr>")
    return "<h3>Pairs</h3><table cellpadding='4'>" + "".join(rows) + "</table>"


def _breakdown_text(matchup: Mapping[str, Any]) -> str:
    """Everything the service says about a pair beyond its points, in its own words."""
    pieces = []
    for key, value in matchup.items():
        if key in _KNOWN_MATCHUP_KEYS or value in (None, False, "", [], {}):
            continue
        pieces.append(f"{key.replace('_', ' ')}: {_plain(value)}")
    return escape("; ".join(pieces))


def _plain(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{key} {_plain(item)}" for key, item in value.items())
    if isinstance(value, list | tuple):
        return " ".join(_plain(item) for item in value)
    return str(value)


def _transfers_html(transfers: Sequence[Mapping[str, Any]]) -> str:
    if not transfers:
        return "<h3>Chip transfers</h3><p>No chips move.</p>"
    rows = ["<tr><th>#</th><th>from</th><th>to</th><th>owed</th><th>paid</th><th>why capped</th></tr>"]
    for index, transfer in enumerate(transfers, start=1):
        owed, paid = transfer.get("owed", ""), transfer.get("paid", "")
        reason = str(transfer.get("reason") or "")
        style = " style='color:#ffb300'" if owed != paid else ""
        rows.append(
            f"<tr{style}><td>{index}</td><td>{escape(str(transfer.get('from', '')))}</td>"
            f"<td>{escape(str(transfer.get('to', '')))}</td><td align='right'>{owed}</td>"
            f"<td align='right'><b>{paid}</b></td><td>{escape(reason)}</td></tr>"
        )
    return "<h3>Chip transfers, in settlement order</h3><table cellpadding='4'>" + "".join(rows) + "</table>"
