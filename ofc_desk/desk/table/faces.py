"""From the service's snapshot to what the desk draws: seat faces, the status line, the prompt.

Pure functions of the snapshot plus the cards the dealer has staged but not yet confirmed.
"""

from __future__ import annotations

from collections.abc import Sequence

from ofc_desk.core.rows import DISCARD
from ofc_desk.desk.entry.key_syntax import KeyedPlacement
from ofc_desk.desk.games import game_at
from ofc_desk.desk.games.base import DeskGame, TakenBy
from ofc_desk.desk.shell.status_line import StatusPart
from ofc_desk.desk.table.seatface import RowFace, SeatFace
from ofc_desk.i18n import _
from ofc_desk.reports.spoken import data_words, hand_words
from ofc_desk.service.terms.snapshot import Phase, RowView, SeatView, TableSnapshot


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
        faces.insert(at, _empty_seat(game_at(snapshot), number))
    return tuple(faces)


def _empty_seat(game: DeskGame, number: int) -> SeatFace:
    rows = tuple(RowFace(name=row.value, size=size) for row, size in game.felt_rows)
    return SeatFace(seat_number=number, name="", stack=0, rows=rows, empty=True)


def _row_face(game: DeskGame, view: RowView, staged: Sequence[KeyedPlacement]) -> RowFace:
    return RowFace(
        name=view.row.value,
        size=view.size,
        cards=tuple(str(card) for card in view.cards),
        pending=tuple(p.label for p in staged if p.placement == view.row.value),
        hand_name=hand_words([str(card) for card in view.cards], view.hand_name or ""),
        worth=game.row_worth(view),
    )


def _seat_face(snapshot: TableSnapshot, seat: SeatView, staged: Sequence[KeyedPlacement]) -> SeatFace:
    game = game_at(snapshot)
    rows = tuple(_row_face(game, seat.row(row), staged) for row, _size in game.felt_rows)
    turn = snapshot.to_act
    return SeatFace(
        seat_number=seat.number,
        name=seat.name,
        stack=seat.stack,
        rows=rows,
        is_button=seat.button,
        marks=game.seat_marks(snapshot, seat),
        to_act=seat.to_act,
        cards_to_take=turn.take if turn is not None and turn.player == seat.name else 0,
        sitting_out=seat.sitting_out,
        fouled=seat.foul_certain,
        foul_word=game.foul_word(),
        discards=len(seat.discards),
        pending_discards=tuple(p.label for p in staged if p.placement == DISCARD),
        note=seat.locked_reason or "",
        voided=snapshot.hand_voided and seat.in_hand,
    )


def rules_text(snapshot: TableSnapshot) -> str:
    """The table's game and stakes, in the reader's words."""
    return _("{preset} {variant}, {unit} a point, {settlement}").format(
        preset=snapshot.preset,
        variant=data_words(snapshot.variant),
        unit=snapshot.unit,
        settlement=data_words(snapshot.settlement),
    )


def window_title(snapshot: TableSnapshot) -> str:
    """The table and its rules, which the status line leaves out first when the window is narrow."""
    product = _("OFC Desk")
    return f"{product} — {snapshot.table} — {rules_text(snapshot)}"


def status_parts(snapshot: TableSnapshot, jackpot: str | None = None) -> list[StatusPart]:
    """One line at the narrowest window a card room uses (1366 px): the counts of the turn are in
    the entry's prompt, so only the name of the player to act is here, in one part with the hand
    and the street; the dealer on duty is with the button: who deals. Short of room, the line says
    less (`StatusLine`): the cards' count goes first, then the rules shrink to the preset's name,
    then the button gives way to the dealer; the table, the preset, the hand and the dealer stay."""
    parts = [
        StatusPart(snapshot.table),
        StatusPart(rules_text(snapshot), short=snapshot.preset, order=2),
        StatusPart(_hand_words(snapshot)),
    ]
    if game_at(snapshot).counts_cards:
        counts = _("{seen} seen, {left} left").format(seen=snapshot.cards_seen, left=snapshot.cards_left)
        parts.append(StatusPart(counts, short="", order=1))
    if snapshot.button:  # every open table has one
        parts.append(_button_part(snapshot))
    if jackpot:  # the room's pool, at a table whose preset pays an award from it
        parts.append(StatusPart(jackpot))
    return parts


def _hand_words(snapshot: TableSnapshot) -> str:
    hand = (
        _("Hand {number}").format(number=snapshot.hand_number) if snapshot.hand_number else _("No hand yet")
    )
    hand = _("{hand} VOID").format(hand=hand) if snapshot.hand_voided else hand
    turn = snapshot.to_act
    if snapshot.phase is Phase.LIVE and turn is not None:
        return game_at(snapshot).turn_status(snapshot, turn, hand)
    if snapshot.hand_voided and snapshot.phase is Phase.SETTLED:  # VOID says it was settled
        return hand
    return _("{hand}, {phase}").format(hand=hand, phase=str(snapshot.phase.label))


def _button_part(snapshot: TableSnapshot) -> StatusPart:
    """Who has the button, and the dealer on duty, who stays when the button gives way."""
    button = game_at(snapshot).button_words(snapshot, _("button {player}").format(player=snapshot.button))
    if not snapshot.dealer:
        return StatusPart(button)
    dealer = _("dealer {dealer}").format(dealer=snapshot.dealer)
    return StatusPart(_("dealer {dealer}, {button}").format(dealer=snapshot.dealer, button=button), dealer, 3)


def prompt_text(snapshot: TableSnapshot, typed_for: str | None = None, keys: Sequence[str] = ()) -> str:
    """`typed_for` is the seat whose hand is being typed, when not the next one's (at a turn taken
    from any seat); `keys` the words of the keys the table takes besides the cards
    (`DeskGame.prompt_keys`)."""
    turn = snapshot.to_act
    if turn is None:
        phase = str(snapshot.phase.label)
        return phase[:1].upper() + phase[1:]
    game = game_at(snapshot)
    if typed_for and game.taken_by(turn) is TakenBy.ANY_SEAT:
        turn = turn._replace(player=typed_for)
    return game.turn_prompt(turn, keys)


def cards_in_play(snapshot: TableSnapshot, staged: Sequence[KeyedPlacement] = ()) -> set[str]:
    """Every card face up on the table or staged: the picker greys these out."""
    labels = {str(card) for seat in snapshot.seats for row in seat.rows for card in row.cards}
    labels |= {str(card) for seat in snapshot.seats for card in seat.discards if card is not None}
    return labels | {p.label for p in staged if p.card is not None}
