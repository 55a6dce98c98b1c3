"""The `TableSnapshot` of a Chinese poker table: no streets and no Fantasyland; each seat shows
the hand entered for it (set rows, or nothing for a surrender or a declared special)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ofc_desk.core.chinese.showdown import Entry, show
from ofc_desk.core.chinese.specials import HAND_CARDS
from ofc_desk.core.hands import hand_name
from ofc_desk.core.ofc.streets import DECK_SIZE
from ofc_desk.core.rows import ROW_SIZE, Row
from ofc_desk.i18n import _
from ofc_desk.service.snapshot import RowView, SeatView, TableSnapshot, Turn, TurnKind
from ofc_desk.service.view_parts import table_snapshot

if TYPE_CHECKING:
    from ofc_desk.service.machine import TableMachine
    from ofc_desk.service.seats import Seat

CHINESE = "chinese"


def build_chinese_snapshot(machine: TableMachine, session_id: int, head_hash: str) -> TableSnapshot:
    preset = machine.chinese
    assert preset is not None  # a Chinese table
    hand = machine.chinese_hand
    entries = hand.showdown.entries if hand is not None else {}
    waiting = hand.showdown.next_to_enter() if hand is not None and not machine.hand_settled else None
    dealt = len(hand.showdown.players) * 13 if hand is not None else 0
    return table_snapshot(
        machine,
        session_id,
        head_hash,
        variant=CHINESE,
        preset=preset.name,
        to_act=None if waiting is None else Turn(waiting, TurnKind.SHOWDOWN, 0, HAND_CARDS, HAND_CARDS, 0),
        seats=tuple(
            _seat_view(
                machine,
                seat,
                position,
                hand is not None and seat.name in hand.stacks_before,
                entries.get(seat.name),
                seat.name == waiting,
            )
            for position, seat in enumerate(machine.seats)
        ),
        cards_seen=sum(len(entry.cards) for entry in entries.values()),
        cards_left=DECK_SIZE - dealt,
        chinese_result=machine.chinese_result,
    )


def _seat_view(
    machine: TableMachine, seat: Seat, position: int, in_hand: bool, entry: Entry | None, next_up: bool
) -> SeatView:
    preset = machine.chinese
    assert preset is not None  # a Chinese table
    rows = entry.rows if entry is not None else None
    views = {
        row: RowView(row, rows.row(row), ROW_SIZE[row], hand_name(rows.row(row)), None)
        if rows is not None
        else RowView(row, (), ROW_SIZE[row], None, None)
        for row in Row
    }
    return SeatView(
        name=seat.name,
        position=position,
        number=seat.number,
        stack=seat.stack,
        button=seat.name == machine.button,
        sitting_out=seat.sitting_out,
        in_hand=in_hand,
        to_act=next_up,
        fantasyland_cards=0,
        fantasyland_next=0,
        front=views[Row.FRONT],
        middle=views[Row.MIDDLE],
        back=views[Row.BACK],
        foul_certain=entry is not None and show(entry, preset).misset,
        discards=(),
        locked_reason=None,
        showdown=_showdown_words(entry),
    )


def _showdown_words(entry: Entry | None) -> str:
    if entry is None:
        return ""
    if entry.surrendered:
        return _("surrendered")
    return "" if entry.declared is None else _("declared {special}").format(special=entry.declared.kind.label)
