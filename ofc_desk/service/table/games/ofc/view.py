"""An OFC table's part of its snapshot: whose street it is, the cards out, the scored hand, and each
seat's rows with their live royalties, Fantasyland and discards. Fantasyland and the street are
OFC's own parts of a seat's view and of the table's (`ofc.view_parts`), read by OFC's part of the
desk."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ofc_desk.core.cards import DECK_SIZE
from ofc_desk.core.ofc.hand import PlayerHand
from ofc_desk.core.ofc.presets import RulesPreset
from ofc_desk.core.ofc.scoring import evaluate_row, foul_certain
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.rows import ROW_SIZE, Row
from ofc_desk.i18n import _
from ofc_desk.service.table.carry import CarryOver
from ofc_desk.service.table.games.ofc.carry import OfcCarry
from ofc_desk.service.table.games.ofc.live import OfcHand
from ofc_desk.service.table.games.ofc.view_parts import OfcSeatView, OfcTableView
from ofc_desk.service.table.seats import Seat
from ofc_desk.service.table.view_parts import GameView, SeatPlay
from ofc_desk.service.terms.snapshot import RowView


class OfcTable(Protocol):
    """What an OFC table's view reads of a table (`TableMachine` is one), so it never imports the
    machine."""

    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def hand_settled(self) -> bool: ...
    @property
    def carried(self) -> CarryOver: ...
    @property
    def button_held(self) -> bool: ...


def ofc_game_view(
    table: OfcTable,
    preset: RulesPreset,
    variant: Variant,
    hand: OfcHand | None,
) -> GameView:
    carried = OfcCarry.of(table.carried)
    playing = None if table.hand_settled else hand
    turn = playing.to_act() if playing is not None else None
    to_act = turn.player if turn else None
    dealt = hand.cards_dealt if hand is not None else 0
    return GameView(
        variant=variant.value,
        preset=preset.name,
        to_act=turn,
        plays=tuple(_seat_play(carried, seat, hand, to_act, preset, variant) for seat in table.seats),
        cards_seen=hand.cards_seen if hand is not None else 0,
        cards_left=DECK_SIZE - dealt,
        part=OfcTableView(street=_street(playing), button_held_for_fantasyland=table.button_held),
    )


def _street(playing: OfcHand | None) -> int:
    """The street the player on turn is dealt; 0 at a Fantasyland set and while no hand is played."""
    turn = playing.turn() if playing is not None else None
    return turn.street if turn is not None else 0


def _seat_play(
    carried: OfcCarry,
    seat: Seat,
    hand: OfcHand | None,
    to_act: str | None,
    preset: RulesPreset,
    variant: Variant,
) -> SeatPlay:
    played = hand.players.get(seat.name) if hand is not None else None
    fouled = played is not None and foul_certain(played.rows, variant)
    lock = carried.waiting_for(seat.name, seat.stack)
    return SeatPlay(
        in_hand=played is not None,
        to_act=seat.name == to_act,
        rows=(
            _row_view(Row.FRONT, played, preset, variant, fouled),
            _row_view(Row.MIDDLE, played, preset, variant, fouled),
            _row_view(Row.BACK, played, preset, variant, fouled),
        ),
        foul_certain=fouled,
        discards=tuple(played.discards) if played else (),
        locked_reason=_locked_reason(lock),
        part=OfcSeatView(
            fantasyland_cards=played.fantasyland_cards if played else 0,
            fantasyland_next=carried.fantasyland_next.get(seat.name, 0),
        ),
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
    return RowView(row, cards, ROW_SIZE[row], report.hand, points=0 if fouled else report.royalty)
