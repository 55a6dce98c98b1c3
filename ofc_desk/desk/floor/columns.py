"""The floor's columns, said once: each one's key, header, text, detail (its tooltip) and look.

`FloorTableModel` reads only `FLOOR_COLUMNS`; a new column is a row here (plus `service/floor.py`
if it needs data the floor does not read yet). The texts are made from the service's `FloorTable`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ofc_desk.i18n import LazyText, lazy_gettext, ngettext
from ofc_desk.service.floor import PACE_AFTER_MINUTES, FloorTable, LastSettlement
from ofc_desk.service.snapshot import Phase, SeatView, TurnKind

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


def requests_text(table: FloorTable) -> str:
    return "; ".join(request.line for request in table.open_requests)


def table_detail(table: FloorTable) -> str:
    return table.fault or f"session {table.session_id}, opened {table.opened_at} UTC"


@dataclass(frozen=True)
class FloorColumn:
    key: str
    header: LazyText
    text: Callable[[FloorTable], str]
    detail: Callable[[FloorTable], str] | None = None
    """Its tooltip, if it has more to say than its text."""
    bold: bool = False
    wide: bool = False
    """Given the room the others leave (players, settlements and requests run long)."""


FLOOR_COLUMNS: tuple[FloorColumn, ...] = (
    FloorColumn("table", lazy_gettext("Table"), table_text, table_detail, bold=True),
    FloorColumn("game", lazy_gettext("Game"), game_text),
    FloorColumn("hand", lazy_gettext("Hand"), hand_text),
    FloorColumn("to_act", lazy_gettext("To act"), to_act_text),
    FloorColumn("players", lazy_gettext("Players (chips)"), players_text, players_detail, wide=True),
    FloorColumn("pace", lazy_gettext("Hands/h"), pace_text, pace_detail),
    FloorColumn(
        "last_settlement",
        lazy_gettext("Last settlement"),
        lambda table: settlement_text(table.last_settlement),
        wide=True,
    ),
    FloorColumn(
        "requests",
        lazy_gettext("Open requests"),
        requests_text,
        lambda _table: "requests from the desks appear here",
        wide=True,
    ),
)


def column_index(key: str) -> int:
    """Where the column `key` is shown, counting from 0."""
    return _INDEX[key]


_INDEX = {column.key: index for index, column in enumerate(FLOOR_COLUMNS)}
