"""The floor's columns, said once: each one's key, header, text, detail (its tooltip) and look.

`FloorTableModel` reads only `FLOOR_COLUMNS`; a new column is a row here (plus `service/oversight/floor.py`
if it needs data the floor does not read yet). The texts are made from the service's `FloorTable`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ofc_desk.desk.games import game_at
from ofc_desk.desk.table.seatface import SeatMark
from ofc_desk.i18n import LazyText, _, lazy_gettext, ngettext, pgettext
from ofc_desk.reports.spoken import data_words
from ofc_desk.service.oversight.floor import PACE_AFTER_MINUTES, FloorTable, LastSettlement
from ofc_desk.service.terms.snapshot import Phase, SeatView

NO_VALUE = "—"
TOO_EARLY = lazy_gettext("too early")
"""The pace of a table open less than `service.oversight.floor.PACE_AFTER_MINUTES`."""
KEEP = "\u00a0"
"""A space a line never breaks at: a player's name and chips wrap as one, and so does each badge."""


def game_text(table: FloorTable) -> str:
    """The variant in the reader's words; the preset's name is data, shown as it is."""
    return f"{data_words(table.snapshot.variant)} · {table.snapshot.preset}"


def hand_text(table: FloorTable) -> str:
    snapshot = table.snapshot
    if snapshot.hand_number == 0:
        return _("no hand yet")
    progress = game_at(snapshot).hand_progress(snapshot)
    if progress:
        return progress
    if snapshot.phase in (Phase.SETTLED, Phase.BETWEEN_HANDS):
        return _("#{hand} done · between hands").format(hand=snapshot.hand_number)
    return f"#{snapshot.hand_number} · {game_at(snapshot).phase_words(snapshot)}"


def to_act_text(table: FloorTable) -> str:
    snapshot = table.snapshot
    turn = snapshot.to_act
    if turn is None:
        if snapshot.phase is Phase.AWAITING_SETTLEMENT:
            return _("dealer: confirm the settlement")
        if snapshot.phase in (Phase.SETTLED, Phase.BETWEEN_HANDS):
            return _("dealer: deal the next hand")
        return NO_VALUE
    return game_at(snapshot).turn_floor(turn)


def _marks(table: FloorTable, seat: SeatView) -> list[SeatMark]:
    """The game's own marks on the seat (`DeskGame.seat_marks`), as on the desk."""
    marks = game_at(table.snapshot).seat_marks(table.snapshot, seat)
    return [mark for mark in marks if mark is not None]


def seat_text(seat: SeatView, marks: list[SeatMark]) -> str:
    """ "Ann 42", with badges: the game's own (`marks`: [FL 14]), (sitting out). The name and chips
    never break apart, nor does a badge; a narrow column (a longer language's badges) may put a
    badge on the next line."""
    badges = [mark.floor_badge for mark in marks if mark.floor_badge]
    if seat.sitting_out:
        badges.append(_("(sitting out)"))
    return " ".join(words.replace(" ", KEEP) for words in [f"{seat.name} {seat.stack}", *badges])


def players_text(table: FloorTable) -> str:
    return " · ".join(seat_text(seat, _marks(table, seat)) for seat in table.snapshot.seats)


def players_detail(table: FloorTable) -> str:
    lines = []
    for seat in table.snapshot.seats:
        notes = [note for note, shown in _seat_notes(seat, _marks(table, seat)) if shown]
        line = ngettext("{name}: {chips} chip", "{name}: {chips} chips", seat.stack)
        line = line.format(name=seat.name, chips=seat.stack)
        lines.append(_("{seat} ({notes})").format(seat=line, notes=", ".join(notes)) if notes else line)
    return "\n".join(lines)


def _seat_notes(seat: SeatView, marks: list[SeatMark]) -> list[tuple[str, bool]]:
    return [
        (pgettext("seat", "button"), seat.button),
        (pgettext("seat", "to act"), seat.to_act),
        *((mark.floor_note, bool(mark.floor_note)) for mark in marks),
        (pgettext("seat", "sitting out"), seat.sitting_out),
    ]


def pace_text(table: FloorTable) -> str:
    return str(TOO_EARLY) if table.hands_per_hour is None else str(table.hands_per_hour)


def pace_detail(table: FloorTable) -> str:
    opened = table.opened_at[11:16]
    count = table.hands_settled
    settled = ngettext(
        "{count} hand settled since it opened at {opened} UTC",
        "{count} hands settled since it opened at {opened} UTC",
        count,
    ).format(count=count, opened=opened)
    if table.hands_per_hour is None:
        later = ngettext(
            "{settled}; the pace shows after its first {minutes} minute",
            "{settled}; the pace shows after its first {minutes} minutes",
            PACE_AFTER_MINUTES,
        )
        return later.format(settled=settled, minutes=PACE_AFTER_MINUTES)
    return settled


def settlement_text(last: LastSettlement | None) -> str:
    if last is None:
        return NO_VALUE
    moves = [f"{t.payer}→{t.payee}{KEEP}{_amount_moved(t.paid, t.owed)}" for t in last.transfers]
    shown = ", ".join(moves) if moves else _("no chips moved")
    if last.award is not None:
        shares = ", ".join(f"{name}{KEEP}+{chips}" for name, chips in last.award.chips.items() if chips)
        shown = _("{moves}; room jackpot award: {shares}").format(moves=shown, shares=shares or "0")
    if last.voided:
        return _("hand {number}: {moves} (voided)").format(number=last.hand_number, moves=shown)
    return _("hand {number}: {moves}").format(number=last.hand_number, moves=shown)


def _amount_moved(paid: int, owed: int) -> str:
    """What a transfer paid, and what it owed when it paid less; it never breaks across lines."""
    return (
        str(paid) if paid == owed else _("{paid} of {owed}").format(paid=paid, owed=owed).replace(" ", KEEP)
    )


def table_text(table: FloorTable) -> str:
    return f"{table.table}  ⚠" if table.fault else table.table


def requests_text(table: FloorTable) -> str:
    return "; ".join(request.line for request in table.open_requests)


def table_detail(table: FloorTable) -> str:
    return table.fault or _("session {session}, opened {opened} UTC").format(
        session=table.session_id, opened=table.opened_at
    )


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
    FloorColumn("hand", lazy_gettext("Hand"), hand_text, wide=True),
    FloorColumn("to_act", lazy_gettext("To act"), to_act_text, wide=True),
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
        lambda _table: _("requests from the desks appear here"),
        wide=True,
    ),
)


def column_index(key: str) -> int:
    """Where the column `key` is shown, counting from 0."""
    return _INDEX[key]


_INDEX = {column.key: index for index, column in enumerate(FLOOR_COLUMNS)}
