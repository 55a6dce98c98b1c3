"""The one builder of the `TableSnapshot` the desk draws: what every table says alike is built
here once, from the table's plain fields; the game played gives the rest (`games.base.TableGame.view`).
It reads a `ViewedTable`, so the machine imports it and it never imports the
machine."""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Protocol

from ofc_desk.core.rake import RakeResult
from ofc_desk.core.settlement import SettlementPolicy
from ofc_desk.service.room.requests import FloorRequest, open_request_views
from ofc_desk.service.table.games.base import GameTable, LiveHand, TableGame
from ofc_desk.service.table.seats import Seat, SeatedTable, empty_seats
from ofc_desk.service.table.view_parts import SeatPlay
from ofc_desk.service.terms.outcome import ScoredResult
from ofc_desk.service.terms.setup import TableRules
from ofc_desk.service.terms.snapshot import Phase, RakeView, SeatView, TableSnapshot


class ViewedTable(SeatedTable, GameTable, Protocol):
    """What a snapshot reads of a table (`TableMachine` is one): its game's parts and these."""

    @property
    def table(self) -> str: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def rules(self) -> TableRules: ...
    @property
    def game(self) -> TableGame: ...
    @property
    def live(self) -> LiveHand | None: ...
    @property
    def result(self) -> ScoredResult | None: ...
    @property
    def hands_started(self) -> int: ...
    @property
    def rake(self) -> RakeResult | None: ...
    @property
    def jackpot_pool(self) -> int: ...
    @property
    def closed(self) -> bool: ...
    @property
    def voided(self) -> Set[int]: ...
    @property
    def requests(self) -> Mapping[int, FloorRequest]: ...
    @property
    def dealer_on_duty(self) -> str: ...


def build_snapshot(table: ViewedTable, session_id: int, head_hash: str) -> TableSnapshot:
    game = table.game.view(table, table.live)
    scored = table.result
    rake = table.rake
    pairs = enumerate(zip(table.seats, game.plays, strict=True))
    seats = tuple(_seat_view(seat, position, play, table.button) for position, (seat, play) in pairs)
    return TableSnapshot(
        table=table.table,
        session_id=session_id,
        hand_number=table.hands_started,
        phase=table.phase,
        variant=game.variant,
        preset=game.preset,
        unit=table.rules.unit,
        # The rules in force passed their game's check, which refuses a policy the core has not.
        settlement=SettlementPolicy(table.rules.settlement),
        to_act=game.to_act,
        cards_seen=game.cards_seen,
        cards_left=game.cards_left,
        button=table.button,
        seats=seats,
        result=None if scored is None else table.game.shown_result(scored.view()),
        rake=None if rake is None else RakeView(tuple(rake.per_player.items()), rake.total, rake.jackpot),
        jackpot_pool=table.jackpot_pool,
        last_event_hash=head_hash,
        closed=table.closed,
        hand_voided=table.hands_started in table.voided,
        open_requests=open_request_views(table.requests),
        dealer=table.dealer_on_duty,
        empty_seats=empty_seats(table),
        game=table.game.game,
        part=game.part,
    )


def _seat_view(seat: Seat, position: int, play: SeatPlay, button: str | None) -> SeatView:
    return SeatView(
        name=seat.name,
        position=position,
        number=seat.number,
        stack=seat.stack,
        button=seat.name == button,
        sitting_out=seat.sitting_out,
        in_hand=play.in_hand,
        to_act=play.to_act,
        rows=play.rows,
        foul_certain=play.foul_certain,
        discards=play.discards,
        locked_reason=play.locked_reason,
        part=play.part,
    )
