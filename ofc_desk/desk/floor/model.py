"""The floor's table model: one row per open table, one column per thing a supervisor watches.

Display text, a tooltip with the detail, and OBJECT_ROLE (the service's `FloorTable` itself).
A new reading of the room updates rows in place when the same tables are open, so a selection
survives the live updates; a table opening or closing resets the rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from ofc_desk.desk.records.models import OBJECT_ROLE
from ofc_desk.i18n import ngettext
from ofc_desk.service.floor import PACE_AFTER_MINUTES, FloorTable, LastSettlement
from ofc_desk.service.snapshot import Phase, SeatView, TurnKind

AnyIndex = QModelIndex | QPersistentModelIndex
NO_VALUE = "—"
TOO_EARLY = "too early"
"""The pace of a table open less than `service.floor.PACE_AFTER_MINUTES`."""
KEEP = "\u00a0"
"""A space a line never breaks at: a player's name, chips and badges wrap as one."""


def game_text(table: FloorTable) -> str:
    return f"{table.snapshot.variant} · {table.snapshot.preset}"


def hand_text(table: FloorTable) -> str:
    snapshot = table.snapshot
    if snapshot.hand_number == 0:
        return "no hand yet"
    if snapshot.street:
        return f"#{snapshot.hand_number} · street {snapshot.street}"
    if snapshot.phase in (Phase.SETTLED, Phase.BETWEEN_HANDS):
        return f"#{snapshot.hand_number} done · between hands"
    return f"#{snapshot.hand_number} · {snapshot.phase.value}"


def to_act_text(table: FloorTable) -> str:
    snapshot = table.snapshot
    turn = snapshot.to_act
    if turn is None:
        if snapshot.phase is Phase.AWAITING_SETTLEMENT:
            return "dealer: confirm the settlement"
        if snapshot.phase in (Phase.SETTLED, Phase.BETWEEN_HANDS):
            return "dealer: deal the next hand"
        return NO_VALUE
    if turn.kind is TurnKind.FANTASYLAND_SET:
        return f"{turn.player} (Fantasyland set)"
    if turn.kind is TurnKind.FACE_DOWN_REVEAL:
        return f"{turn.player} (face-down cards)"
    if turn.kind is TurnKind.SHOWDOWN:
        return f"{turn.player} (showdown)"
    return turn.player


def _hand_live(table: FloorTable) -> bool:
    """While a hand is being dealt a Fantasyland badge is about this hand, else about the next
    (as on the desk)."""
    return table.snapshot.phase in (Phase.LIVE, Phase.WAITING_FOR_FANTASYLAND)


def _fantasyland(seat: SeatView, live: bool) -> int:
    return seat.fantasyland_cards if live else seat.fantasyland_next


def seat_text(seat: SeatView, live: bool) -> str:
    """ "Ann 42", with badges: [FL 14] is dealt 14 cards in Fantasyland (this hand while one is
    dealt, else the next), (sitting out). Spaces that never break: a seat wraps as one."""
    badges = []
    if cards := _fantasyland(seat, live):
        badges.append(f"[FL {cards}]")
    if seat.sitting_out:
        badges.append("(sitting out)")
    return KEEP.join([seat.name, str(seat.stack), *badges]).replace(" ", KEEP)


def players_text(table: FloorTable) -> str:
    live = _hand_live(table)
    return " · ".join(seat_text(seat, live) for seat in table.snapshot.seats)


def players_detail(table: FloorTable) -> str:
    live = _hand_live(table)
    lines = []
    for seat in table.snapshot.seats:
        notes = [note for note, shown in _seat_notes(seat, live) if shown]
        lines.append(f"{seat.name}: {seat.stack} chips" + (f" ({', '.join(notes)})" if notes else ""))
    return "\n".join(lines)


def _seat_notes(seat: SeatView, live: bool) -> list[tuple[str, bool]]:
    cards = _fantasyland(seat, live)
    return [
        ("button", seat.button),
        ("to act", seat.to_act),
        (f"in Fantasyland this hand, {cards} cards", bool(cards) and live),
        (f"goes to Fantasyland next hand, {cards} cards", bool(cards) and not live),
        ("sitting out", seat.sitting_out),
    ]


def pace_text(table: FloorTable) -> str:
    return TOO_EARLY if table.hands_per_hour is None else str(table.hands_per_hour)


def pace_detail(table: FloorTable) -> str:
    opened = table.opened_at[11:16]
    count = table.hands_settled
    settled = ngettext("{count} hand settled", "{count} hands settled", count).format(count=count)
    settled = f"{settled} since it opened at {opened} UTC"
    if table.hands_per_hour is None:
        return f"{settled}; the pace shows after its first {PACE_AFTER_MINUTES} minutes"
    return settled


def settlement_text(last: LastSettlement | None) -> str:
    if last is None:
        return NO_VALUE
    moves = [
        f"{t.payer}→{t.payee}{KEEP}{t.paid}" + (f"{KEEP}of{KEEP}{t.owed}" if t.paid != t.owed else "")
        for t in last.transfers
    ]
    shown = ", ".join(moves) if moves else "no chips moved"
    return f"hand {last.hand_number}: {shown}" + (" (voided)" if last.voided else "")


def table_text(table: FloorTable) -> str:
    return f"{table.table}  ⚠" if table.fault else table.table


class FloorTableModel(QAbstractTableModel):
    TABLE, GAME, HAND, TO_ACT, PLAYERS, PACE, LAST_SETTLEMENT, REQUESTS = range(8)
    HEADERS = (
        "Table",
        "Game",
        "Hand",
        "To act",
        "Players (chips)",
        "Hands/h",
        "Last settlement",
        "Open requests",
    )
    _TEXT: Sequence[Callable[[FloorTable], str]] = (
        table_text,
        game_text,
        hand_text,
        to_act_text,
        players_text,
        pace_text,
        lambda table: settlement_text(table.last_settlement),
        lambda table: "; ".join(request.line for request in table.open_requests),
    )
    _DETAIL: dict[int, Callable[[FloorTable], str]] = {  # noqa: RUF012 - read-only table
        TABLE: lambda table: table.fault or f"session {table.session_id}, opened {table.opened_at} UTC",
        PLAYERS: players_detail,
        PACE: pace_detail,
        REQUESTS: lambda table: "requests from the desks appear here",
    }

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tables: list[FloorTable] = []

    def set_tables(self, tables: Sequence[FloorTable]) -> None:
        if [t.session_id for t in tables] != [t.session_id for t in self._tables]:
            self.beginResetModel()
            self._tables = list(tables)
            self.endResetModel()
            return
        for row, (old, new) in enumerate(zip(self._tables, tables, strict=True)):
            if old != new:
                self._tables[row] = new
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.HEADERS) - 1))

    def table_at(self, row: int) -> FloorTable:
        return self._tables[row]

    @property
    def tables(self) -> tuple[FloorTable, ...]:
        return tuple(self._tables)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 - Qt API
        return 0 if parent.isValid() else len(self._tables)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 - Qt API
        return 0 if parent.isValid() else len(self.HEADERS)

    def data(self, index: AnyIndex, role: int = int(Qt.ItemDataRole.DisplayRole)) -> Any:
        if not index.isValid() or index.row() >= len(self._tables):
            return None
        table = self._tables[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._TEXT[index.column()](table)
        if role == Qt.ItemDataRole.ToolTipRole:
            detail = self._DETAIL.get(index.column())
            return detail(table) if detail else None
        if role == OBJECT_ROLE:
            return table
        if role == Qt.ItemDataRole.FontRole and index.column() == self.TABLE:
            bold = QFont()
            bold.setBold(True)
            return bold
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        """Selectable, never editable: the floor reads tables, it does not change them."""
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = int(Qt.ItemDataRole.DisplayRole)
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None
