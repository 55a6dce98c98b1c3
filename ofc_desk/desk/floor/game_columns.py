"""The floor's columns that ask the table's game (`desk.games`: each game's desk part, and the rules
behind it): loaded by `columns` when a row is first made from a table, not for a listing of tables
shown as kept."""

from __future__ import annotations

from ofc_desk.desk.floor.cell_text import KEEP, NO_VALUE
from ofc_desk.desk.games import game_at
from ofc_desk.desk.table.seatface import SeatMark
from ofc_desk.i18n import _, ngettext, pgettext
from ofc_desk.i18n.formatting import number
from ofc_desk.reports.spoken import data_words
from ofc_desk.service.oversight.floor_kept import FloorTable
from ofc_desk.service.terms.snapshot import Phase, SeatView


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
    return " ".join(words.replace(" ", KEEP) for words in [f"{seat.name} {number(seat.stack)}", *badges])


def players_text(table: FloorTable) -> str:
    return " · ".join(seat_text(seat, _marks(table, seat)) for seat in table.snapshot.seats)


def players_detail(table: FloorTable) -> str:
    lines = []
    for seat in table.snapshot.seats:
        notes = [note for note, shown in _seat_notes(seat, _marks(table, seat)) if shown]
        line = ngettext("{name}: {chips} chip", "{name}: {chips} chips", seat.stack)
        line = line.format(name=seat.name, chips=number(seat.stack))
        lines.append(_("{seat} ({notes})").format(seat=line, notes=", ".join(notes)) if notes else line)
    return "\n".join(lines)


def _seat_notes(seat: SeatView, marks: list[SeatMark]) -> list[tuple[str, bool]]:
    return [
        (pgettext("seat", "button"), seat.button),
        (pgettext("seat", "to act"), seat.to_act),
        *((mark.floor_note, bool(mark.floor_note)) for mark in marks),
        (pgettext("seat", "sitting out"), seat.sitting_out),
    ]
