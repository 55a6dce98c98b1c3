"""From the service's snapshot to what the desk draws: seat faces, the status line, the prompt.

Pure functions of the snapshot plus the cards the dealer has staged but not yet confirmed.
"""

from __future__ import annotations

from collections.abc import Sequence

from ofc_desk.core.rows import DISCARD
from ofc_desk.desk.entry.key_syntax import KeyedPlacement
from ofc_desk.desk.table.seatface import RowFace, SeatFace
from ofc_desk.service.snapshot import Phase, SeatView, TableSnapshot, TurnKind


def seat_faces(snapshot: TableSnapshot, staged: Sequence[KeyedPlacement] = ()) -> tuple[SeatFace, ...]:
    actor = snapshot.to_act.player if snapshot.to_act else None
    return tuple(_seat_face(snapshot, seat, staged if seat.name == actor else ()) for seat in snapshot.seats)


def _seat_face(snapshot: TableSnapshot, seat: SeatView, staged: Sequence[KeyedPlacement]) -> SeatFace:
    rows = tuple(
        RowFace(
            name=view.row.value,
            size=view.size,
            cards=tuple(str(card) for card in view.cards),
            pending=tuple(p.label for p in staged if p.placement == view.row.value),
            hand_name=view.hand_name or "",
            royalty=view.royalty or 0,
        )
        for view in seat.rows
    )
    live = snapshot.phase in (Phase.LIVE, Phase.WAITING_FOR_FANTASYLAND)
    turn = snapshot.to_act
    return SeatFace(
        seat_number=seat.position + 1,
        name=seat.name,
        stack=seat.stack,
        rows=rows,
        is_button=seat.button,
        fantasyland_cards=seat.fantasyland_cards if live else seat.fantasyland_next,
        to_act=seat.to_act,
        cards_to_take=turn.take if turn is not None and turn.player == seat.name else 0,
        sitting_out=seat.sitting_out,
        fouled=seat.foul_certain,
        discards=len(seat.discards),
        pending_discards=tuple(p.label for p in staged if p.placement == DISCARD),
        note=seat.locked_reason or "",
    )


def status_text(snapshot: TableSnapshot) -> str:
    parts = [
        snapshot.table,
        f"{snapshot.preset} {snapshot.variant}, {snapshot.unit} a point, {snapshot.settlement}",
        f"Hand {snapshot.hand_number}" if snapshot.hand_number else "No hand yet",
    ]
    turn = snapshot.to_act
    if snapshot.phase is Phase.LIVE and turn is not None:
        street = "Fantasyland set" if turn.kind is TurnKind.FANTASYLAND_SET else f"street {snapshot.street}"
        parts += [street, f"to act: {turn.describe}"]
    else:
        parts.append(str(snapshot.phase))
        if turn is not None:
            parts.append(f"to act: {turn.describe}")
    parts.append(f"cards seen {snapshot.cards_seen} / left {snapshot.cards_left}")
    if snapshot.button:
        parts.append(f"button: {snapshot.button}")
    if snapshot.button_held_for_fantasyland:
        parts.append("button held: Fantasyland")
    # A long status line wraps only between its parts, after a dot, never inside a part.
    return "\u00a0\u00a0·  ".join(part.replace(" ", "\u00a0") for part in parts)


def prompt_text(snapshot: TableSnapshot) -> str:
    turn = snapshot.to_act
    if turn is None:
        return str(snapshot.phase).capitalize()
    if turn.kind is TurnKind.FANTASYLAND_SET:
        return f"{turn.player}: Fantasyland set of {turn.take} cards — F6 opens the set dialog"
    if turn.kind is TurnKind.FACE_DOWN_REVEAL:
        return f"{turn.player}: enter the {turn.take} face-down cards as revealed"
    return "▶ " + turn.describe


def cards_in_play(snapshot: TableSnapshot, staged: Sequence[KeyedPlacement] = ()) -> set[str]:
    """Every card face up on the table or staged: the picker greys these out."""
    labels = {str(card) for seat in snapshot.seats for row in seat.rows for card in row.cards}
    labels |= {str(card) for seat in snapshot.seats for card in seat.discards if card is not None}
    return labels | {p.label for p in staged if p.card is not None}
