"""Builds the `TableSnapshot` the desk draws from the machine's live state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ofc_desk.core.ofc.deal import DealResult
from ofc_desk.core.ofc.presets import RulesPreset
from ofc_desk.core.ofc.scoring import evaluate_row, foul_certain
from ofc_desk.core.ofc.streets import DECK_SIZE
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.rows import ROW_SIZE, Row
from ofc_desk.i18n import _
from ofc_desk.service.chinese_view import build_chinese_snapshot
from ofc_desk.service.hand import HandState, PlayerHand
from ofc_desk.service.snapshot import RowView, SeatView, TableSnapshot
from ofc_desk.service.view_parts import table_snapshot

if TYPE_CHECKING:
    from ofc_desk.service.machine import TableMachine
    from ofc_desk.service.seats import Seat


def build_snapshot(machine: TableMachine, session_id: int, head_hash: str) -> TableSnapshot:
    if machine.chinese is not None:
        return build_chinese_snapshot(machine, session_id, head_hash)
    hand = machine.hand
    turn = hand.turn() if hand is not None and not machine.hand_settled else None
    preset = machine.preset
    assert preset is not None  # snapshots exist only for opened tables
    seats = tuple(
        _seat_view(machine, seat, position, hand, turn.player if turn else None, preset)
        for position, seat in enumerate(machine.seats)
    )
    dealt = hand.cards_dealt if hand is not None else 0
    return table_snapshot(
        machine,
        session_id,
        head_hash,
        variant=machine.variant.value,
        preset=preset.name,
        to_act=turn,
        seats=seats,
        cards_seen=hand.cards_seen if hand is not None else 0,
        cards_left=DECK_SIZE - dealt,
        # A live table scores with the core; only `verify` folds a stored result (`rescoring`).
        result=machine.result if isinstance(machine.result, DealResult) else None,
    )


def _seat_view(
    machine: TableMachine,
    seat: Seat,
    position: int,
    hand: HandState | None,
    to_act: str | None,
    preset: RulesPreset,
) -> SeatView:
    played = hand.players.get(seat.name) if hand is not None else None
    fouled = played is not None and foul_certain(played.rows, machine.variant)
    rows = {row: _row_view(row, played, preset, machine.variant, fouled) for row in Row}
    lock = machine.holds.waiting_for(seat.name, seat.stack)
    return SeatView(
        name=seat.name,
        position=position,
        number=seat.number,
        stack=seat.stack,
        button=seat.name == machine.button,
        sitting_out=seat.sitting_out,
        in_hand=played is not None,
        to_act=seat.name == to_act,
        fantasyland_cards=played.fantasyland_cards if played else 0,
        fantasyland_next=seat.fantasyland_next,
        front=rows[Row.FRONT],
        middle=rows[Row.MIDDLE],
        back=rows[Row.BACK],
        foul_certain=fouled,
        discards=tuple(played.discards) if played else (),
        locked_reason=_locked_reason(lock),
    )


def _locked_reason(waiting_for: tuple[str, ...]) -> str | None:
    """Why a player may not sit out or leave yet: "must stay until Bob's Fantasyland hand is over"."""
    if not waiting_for:
        return None
    said = _("must stay until {players}'s Fantasyland hand is over")
    return said.format(players=_(" and ").join(waiting_for))


def _row_view(
    row: Row, played: PlayerHand | None, preset: RulesPreset, variant: Variant, fouled: bool
) -> RowView:
    cards = tuple(played.rows[row]) if played else ()
    if len(cards) < ROW_SIZE[row]:
        return RowView(row, cards, ROW_SIZE[row], None, None)
    # A full row's royalty on its own, until the hand is certain to foul: a fouled hand earns no
    # royalties (docs/rules.md §3), and the felt must agree with the settlement.
    report = evaluate_row(row, cards, preset, variant)
    return RowView(row, cards, ROW_SIZE[row], report.hand, 0 if fouled else report.royalty)
