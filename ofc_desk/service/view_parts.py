"""What every game's snapshot says the same way: the table, its hand and phase, stakes, rake and
jackpot, the void, the requests to the floor, the dealer on duty and the empty seats. The OFC
builder (`view`) and the Chinese poker one (`chinese_view`) add only their game's own parts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ofc_desk.service.requests import open_request_views
from ofc_desk.service.seats import empty_seats
from ofc_desk.service.snapshot import RakeView, SeatView, TableSnapshot, Turn

if TYPE_CHECKING:
    from ofc_desk.core.chinese.deal import ChineseDealResult
    from ofc_desk.core.ofc.deal import DealResult
    from ofc_desk.service.machine import TableMachine


def table_snapshot(
    machine: TableMachine,
    session_id: int,
    head_hash: str,
    *,
    variant: str,
    preset: str,
    to_act: Turn | None,
    seats: tuple[SeatView, ...],
    cards_seen: int,
    cards_left: int,
    result: DealResult | None = None,
    chinese_result: ChineseDealResult | None = None,
) -> TableSnapshot:
    rake = machine.rake
    return TableSnapshot(
        table=machine.table,
        session_id=session_id,
        hand_number=machine.hands_started,
        phase=machine.phase,
        variant=variant,
        preset=preset,
        unit=machine.rules.unit,
        settlement=machine.rules.settlement,
        street=to_act.street if to_act else 0,
        to_act=to_act,
        cards_seen=cards_seen,
        cards_left=cards_left,
        button=machine.button,
        button_held_for_fantasyland=machine.button_held,
        seats=seats,
        result=result,
        rake=None if rake is None else RakeView(tuple(rake.per_player.items()), rake.total, rake.jackpot),
        jackpot_pool=machine.jackpot_pool,
        last_event_hash=head_hash,
        closed=machine.closed,
        hand_voided=machine.hands_started in machine.voided,
        chinese_result=chinese_result,
        open_requests=open_request_views(machine.requests),
        dealer=machine.dealer_on_duty,
        empty_seats=empty_seats(machine),
    )
