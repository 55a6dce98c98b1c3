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

from ofc_desk.desk import refusals
from ofc_desk.desk.hand_end.between_hands import press_focused_button
from ofc_desk.desk.refusals import refusal_label

ROW_NAMES = ("front", "middle", "back")
FOUL_COLOUR = "#ff4d3d"
CAPPED_COLOUR = "#ffb300"


class SettlementPanel(QWidget):
    confirm_requested = Signal()
    confirm_and_hold_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("Settlement", self)
        self.title.setObjectName("prompt")
        self.details = QTextBrowser(self)
        self.details.setAccessibleName("Settlement details")
        self.details.setOpenLinks(False)
        self.details.setMinimumHeight(300)
        self.refusal = refusal_label(self)
        self.confirm_button = QPushButton("Confirm settlement and deal next hand (Enter)", self)
        self.confirm_button.setAccessibleName("Confirm settlement")
        self.confirm_button.setDefault(True)
        self.confirm_button.clicked.connect(self.confirm_requested)
        self.hold_button = QPushButton("Confirm, deal later (chip operations first)", self)
        self.hold_button.setAccessibleName("Confirm settlement and hold the deal")
        self.hold_button.clicked.connect(self.confirm_and_hold_requested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.refusal, 1)
        buttons.addWidget(self.hold_button)
        buttons.addWidget(self.confirm_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.details, 1)
        layout.addLayout(buttons)

    def keyPressEvent(self, event: Any) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if not press_focused_button(self):
                self.confirm_requested.emit()
            return
        super().keyPressEvent(event)

    def show_result(self, hand_number: int, result: Mapping[str, Any], rake_line: str) -> None:
        self.title.setText(f"Hand {hand_number} complete — check and confirm the settlement")
        self.details.setHtml(settlement_html(result, rake_line))
        refusals.show_on(self.refusal, "")


def settlement_html(result: Mapping[str, Any], rake_line: str = "") -> str:
    parts = [_players_html(result.get("players", ())), _matchups_html(result.get("matchups", ()))]
    parts.append(_transfers_html(result.get("transfers", ())))
    if rake_line:
        parts.append(f"<p>{escape(rake_line)}</p>")
    return "".join(parts)


def _players_html(players: Sequence[Mapping[str, Any]]) -> str:
    rows = []
    for player in players:
        name = escape(str(player.get("name", "")))
        if player.get("foul"):
            hand = f"<b style='color:{FOUL_COLOUR}'>FOUL</b> — {escape(str(player.get('foul_reason') or ''))}"
        else:
            hand = " · ".join(
                f"{row} {escape(str(view.get('hand', '')))}"
                + (f" <b>+{view['royalty']}</b>" if view.get("royalty") else "")
                for row, view in dict(player.get("rows", {})).items()
            )
        fantasyland = player.get("fantasyland", {})
        going = f"→ Fantasyland ({fantasyland.get('cards')} cards)" if fantasyland.get("next") else ""
        stacks = f"{player.get('stack_before', '')} → <b>{player.get('stack_after', '')}</b>"
        rows.append(
            f"<tr><td><b>{name}</b></td><td>{hand}</td>"
            f"<td>royalties {player.get('royalties', 0)}</td><td>{escape(going)}</td>"
            f"<td align='right'>{_signed(player.get('points', 0))} pts</td>"
            f"<td align='right'>{stacks}</td></tr>"
        )
    return "<h3>Hands</h3><table cellpadding='4'>" + "".join(rows) + "</table>"


def _matchups_html(matchups: Sequence[Mapping[str, Any]]) -> str:
    rows = []
    for matchup in matchups:
        first, second = (escape(str(name)) for name in matchup.get("players", ("?", "?")))
        points = int(matchup.get("points", 0))
        summary = (
            f"{first} wins {points}" if points > 0
            else f"{second} wins {-points}" if points < 0
            else "even"
        )  # fmt: skip
        rows.append(
            f"<tr><td><b>{first} – {second}</b></td><td>{escape(_breakdown(matchup))}</td>"
            f"<td><b>{summary}</b> × {matchup.get('unit', 1)}</td></tr>"
        )
    return (
        "<h3>Pairs (points from the first player's side)</h3><table cellpadding='4'>"
        + "".join(rows)
        + "</table>"
    )


def _breakdown(matchup: Mapping[str, Any]) -> str:
    rows = matchup.get("rows") or ()
    pieces = [
        "rows " + ", ".join(f"{name} {_signed(value)}" for name, value in zip(ROW_NAMES, rows, strict=False))
    ]
    for key, label in (("scoop", "scoop"), ("royalties", "royalties"), ("foul_penalty", "foul penalty")):
        if matchup.get(key):
            pieces.append(f"{label} {_signed(matchup[key])}")
    if matchup.get("foul"):
        pieces.append("fouled: " + ", ".join(str(name) for name in matchup["foul"]))
    return "; ".join(pieces)


def _signed(value: Any) -> str:
    number = int(value or 0)
    return f"+{number}" if number > 0 else str(number)


def _transfers_html(transfers: Sequence[Mapping[str, Any]]) -> str:
    if not transfers:
        return "<h3>Chip transfers</h3><p>No chips move.</p>"
    rows = ["<tr><th>#</th><th>from</th><th>to</th><th>owed</th><th>paid</th><th>why capped</th></tr>"]
    for index, transfer in enumerate(transfers, start=1):
        owed, paid = transfer.get("owed", ""), transfer.get("paid", "")
        reason = str(transfer.get("reason") or "")
        style = f" style='color:{CAPPED_COLOUR}'" if owed != paid else ""
        rows.append(
            f"<tr{style}><td>{index}</td><td>{escape(str(transfer.get('from', '')))}</td>"
            f"<td>{escape(str(transfer.get('to', '')))}</td><td align='right'>{owed}</td>"
            f"<td align='right'><b>{paid}</b></td><td>{escape(reason)}</td></tr>"
        )
    title = "<h3>Chip transfers, in settlement order</h3>"
    return title + "<table cellpadding='4'>" + "".join(rows) + "</table>"
