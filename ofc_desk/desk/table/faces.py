"""From the service's snapshot to what the desk draws: seat faces, the status line, the prompt.

Pure functions of the snapshot plus the cards the dealer has staged but not yet confirmed.
"""

from __future__ import annotations

from collections.abc import Sequence

from ofc_desk.core.chinese.deal import CHINESE
from ofc_desk.core.rows import DISCARD, ROW_SIZE, Row
from ofc_desk.desk.entry.key_syntax import KeyedPlacement
from ofc_desk.desk.table.seatface import RowFace, SeatFace
from ofc_desk.service.snapshot import Phase, SeatView, TableSnapshot, TurnKind


def seat_faces(
    snapshot: TableSnapshot, staged: Sequence[KeyedPlacement] = (), staged_for: str | None = None
) -> tuple[SeatFace, ...]:
    """Every seat at the table in clockwise order, the empty ones too (numbered, shown empty).
    `staged_for` is the player the staged cards are for, when not the player on turn (a Chinese
    hand entered for a seat picked out of turn)."""
    actor = staged_for or (snapshot.to_act.player if snapshot.to_act else None)
    faces = [_seat_face(snapshot, seat, staged if seat.name == actor else ()) for seat in snapshot.seats]
    for number in snapshot.empty_seats:
        # Before the first seat numbered above it: the seats' clockwise order is their numbers'.
        at = next((i for i, face in enumerate(faces) if face.seat_number > number), len(faces))
        faces.insert(at, _empty_seat(number))
    return tuple(faces)


def seat_map(snapshot: TableSnapshot | None) -> dict[int, str]:
    """Each seat's number with its player ("" for an empty seat): what `2:` may name."""
    if snapshot is None:
        return {}
    return {seat.number: seat.name for seat in snapshot.seats} | dict.fromkeys(snapshot.empty_seats, "")


def _empty_seat(number: int) -> SeatFace:
    rows = tuple(RowFace(name=row.value, size=ROW_SIZE[row]) for row in Row)
    return SeatFace(seat_number=number, name="", stack=0, rows=rows, empty=True)


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
        seat_number=seat.number,
        name=seat.name,
        stack=seat.stack,
        rows=rows,
        is_button=seat.button,
        fantasyland_cards=seat.fantasyland_cards if live else seat.fantasyland_next,
        to_act=seat.to_act,
        cards_to_take=turn.take if turn is not None and turn.player == seat.name else 0,
        sitting_out=seat.sitting_out,
        fouled=seat.foul_certain,
        foul_word="MISSET" if snapshot.variant == CHINESE else "FOUL",
        showdown=seat.showdown,
        discards=len(seat.discards),
        pending_discards=tuple(p.label for p in staged if p.placement == DISCARD),
        note=seat.locked_reason or "",
        voided=snapshot.hand_voided and seat.in_hand,
    )


_PHASE_AFTER_HAND = {Phase.AWAITING_SETTLEMENT: " awaiting settlement", Phase.SETTLED: " settled"}
"""How the status line goes on after "Hand 3" when no player is to act."""


def status_text(snapshot: TableSnapshot) -> str:
    """One line at the narrowest window a card room uses (1366 px): the counts of the turn are in
    the entry's prompt, so only the name of the player to act is here, with the hand and street."""
    hand = f"Hand {snapshot.hand_number}" if snapshot.hand_number else "No hand yet"
    hand = f"{hand} VOID" if snapshot.hand_voided else hand
    turn = snapshot.to_act
    entering = snapshot.phase in (Phase.LIVE, Phase.WAITING_FOR_FANTASYLAND)
    if entering and turn is not None and turn.kind is TurnKind.SHOWDOWN:
        hand += f", showdown: {turn.player}'s hand next"
    elif entering and turn is not None:
        street = "Fantasyland set" if turn.kind is TurnKind.FANTASYLAND_SET else f"street {snapshot.street}"
        hand += f", {street}: {turn.player} to act"
    elif not (snapshot.hand_voided and snapshot.phase is Phase.SETTLED):  # VOID says it was settled
        hand += _PHASE_AFTER_HAND.get(snapshot.phase, f", {snapshot.phase}")
    parts = [
        snapshot.table,
        f"{snapshot.preset} {snapshot.variant}, {snapshot.unit} a point, {snapshot.settlement}",
        hand,
        f"{snapshot.cards_seen} seen, {snapshot.cards_left} left",
    ]
    # Who deals, the dealer on duty and the button, in one part that a narrow line keeps.
    dealing = [f"dealer {snapshot.dealer}"] if snapshot.dealer else []
    if snapshot.button:
        held = " (held: Fantasyland)" if snapshot.button_held_for_fantasyland else ""
        dealing.append(f"button {snapshot.button}{held}")
    if dealing:
        parts.append(", ".join(dealing))
    # Should it still wrap (a long table name), only between its parts, never inside one.
    return "\u00a0\u00a0·  ".join(part.replace(" ", "\u00a0") for part in parts)


def prompt_text(snapshot: TableSnapshot, typed_for: str | None = None) -> str:
    """`typed_for` is the seat whose Chinese hand is being typed, when not the next one's."""
    turn = snapshot.to_act
    if turn is not None and typed_for and turn.kind is TurnKind.SHOWDOWN:
        turn = turn._replace(player=typed_for)
    if turn is None:
        return str(snapshot.phase).capitalize()
    if turn.kind is TurnKind.FANTASYLAND_SET:
        return f"{turn.player}: Fantasyland set of {turn.take} cards — F6 opens the set dialog"
    if turn.kind is TurnKind.FACE_DOWN_REVEAL:
        return f"{turn.player}: enter the {turn.take} face-down cards as revealed"
    if turn.kind is TurnKind.SHOWDOWN:
        return (
            f"▶ {turn.player}: {turn.take} cards with their rows · s surrenders · "
            "another seat: click it or type its number and a colon"
        )
    return "▶ " + turn.describe


def cards_in_play(snapshot: TableSnapshot, staged: Sequence[KeyedPlacement] = ()) -> set[str]:
    """Every card face up on the table or staged: the picker greys these out."""
    labels = {str(card) for seat in snapshot.seats for row in seat.rows for card in row.cards}
    labels |= {str(card) for seat in snapshot.seats for card in seat.discards if card is not None}
    return labels | {p.label for p in staged if p.card is not None}
