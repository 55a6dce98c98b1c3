"""A Chinese poker table's part of its snapshot: no streets and no Fantasyland; each seat shows the
hand entered for it (set rows, or nothing for a surrender or a declared special, which its own part
of the seat's view says: `chinese.view_parts`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ofc_desk.core.cards import DECK_SIZE
from ofc_desk.core.chinese.deal import CHINESE
from ofc_desk.core.chinese.presets import ChinesePreset
from ofc_desk.core.chinese.showdown import Entry, show
from ofc_desk.core.chinese.specials import HAND_CARDS
from ofc_desk.core.hands import hand_name
from ofc_desk.core.rows import ROW_SIZE, Row
from ofc_desk.i18n import _
from ofc_desk.service.table.games.chinese.play import ChineseHandState
from ofc_desk.service.table.games.chinese.view_parts import ChineseSeatView, ChineseTurn
from ofc_desk.service.table.seats import Seat
from ofc_desk.service.table.view_parts import GameView, SeatPlay
from ofc_desk.service.terms.snapshot import RowView, Turn


class ChineseTable(Protocol):
    """What a Chinese poker table's view reads of a table (`TableMachine` is one), so it never
    imports the machine."""

    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def hand_settled(self) -> bool: ...


def chinese_game_view(table: ChineseTable, preset: ChinesePreset, hand: ChineseHandState | None) -> GameView:
    entries = hand.showdown.entries if hand is not None else {}
    waiting = hand.showdown.next_to_enter() if hand is not None and not table.hand_settled else None
    dealt = len(hand.showdown.players) * 13 if hand is not None else 0
    return GameView(
        variant=CHINESE,
        preset=preset.name,
        to_act=None if waiting is None else Turn(waiting, ChineseTurn.SHOWDOWN, HAND_CARDS, HAND_CARDS, 0),
        plays=tuple(
            _seat_play(
                preset,
                hand is not None and seat.name in hand.stacks_before,
                entries.get(seat.name),
                seat.name == waiting,
            )
            for seat in table.seats
        ),
        cards_seen=sum(len(entry.cards) for entry in entries.values()),
        cards_left=DECK_SIZE - dealt,
    )


def _seat_play(preset: ChinesePreset, in_hand: bool, entry: Entry | None, next_up: bool) -> SeatPlay:
    return SeatPlay(
        in_hand=in_hand,
        to_act=next_up,
        rows=(
            _row_view(Row.FRONT, entry),
            _row_view(Row.MIDDLE, entry),
            _row_view(Row.BACK, entry),
        ),
        foul_certain=entry is not None and show(entry, preset).misset,
        part=ChineseSeatView(showdown=_showdown_words(entry)),
    )


def _row_view(row: Row, entry: Entry | None) -> RowView:
    """A set row and its hand's name; an empty one until the seat's entry is set rows."""
    rows = entry.rows if entry is not None else None
    if rows is None:
        return RowView(row, (), ROW_SIZE[row], None, None)
    return RowView(row, rows.row(row), ROW_SIZE[row], hand_name(rows.row(row)), None)


def _showdown_words(entry: Entry | None) -> str:
    if entry is None:
        return ""
    if entry.surrendered:
        return _("surrendered")
    return "" if entry.declared is None else _("declared {special}").format(special=entry.declared.kind.label)
