"""The seats of a table and the chip work done at them between hands: join, rebuy, cash out, sit
out and sit in, each as a check that reads the raw action and an apply that folds in its payload.

Seats are physical (docs/decisions.md, "Seats keep their numbers"): the players the table opens
with sit at seats 1, 2, … clockwise; a seat keeps its number for the whole session, a player who
cashes out leaves it empty (still numbered, shown empty), and a newcomer takes an empty seat by
its number. `TableMachine.seats` lists the occupied seats in clockwise order, as play reads them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ofc_desk.i18n import _
from ofc_desk.service import reading
from ofc_desk.service.errors import ActionRefused
from ofc_desk.service.events import EventKind, LedgerKind
from ofc_desk.service.outcome import NO_ROWS, LedgerEntry, Outcome
from ofc_desk.service.payloads import CashedOut, EventPayload, Joined, RawPayload, Rebought, SatIn, SatOut

if TYPE_CHECKING:
    from ofc_desk.service.machine import TableMachine


@dataclass
class Seat:
    name: str
    stack: int
    number: int
    """The seat's number at the table, for the whole session (1 = the first seat clockwise)."""
    sitting_out: bool = False
    fantasyland_next: int = 0
    fantasyland_streak: int = 0
    """Fantasyland hands played in a row up to the last hand (for the consecutive cap)."""


def free_seats(machine: TableMachine) -> list[int]:
    """The empty seats a newcomer may take, by number: the table's chairs (as many as its game
    seats) and any seat used this session, less the occupied ones."""
    *_game, chairs = machine.seat_limits()
    taken = {seat.number for seat in machine.seats}
    return sorted((set(range(1, chairs + 1)) | machine.seat_numbers) - taken)


def empty_seats(machine: TableMachine) -> tuple[int, ...]:
    """The seats used this session that nobody holds now: the desk shows them, empty."""
    return tuple(sorted(machine.seat_numbers - {seat.number for seat in machine.seats}))


def seat_named(machine: TableMachine, name: str) -> Seat:
    for seat in machine.seats:
        if seat.name == name:
            return seat
    raise ActionRefused(_("there is no player called {player} at this table").format(player=name))


# ---------------------------------------------------------------------- joining
def check_joined(machine: TableMachine, raw: RawPayload) -> Joined:
    machine.require_between_hands(_("players join"))
    name = reading.name(raw.get("player"))
    buy_in = reading.chips(raw.get("buy_in"), _("a buy-in"))
    if any(seat.name == name for seat in machine.seats):
        raise ActionRefused(_("there is already a player called {player} at this table").format(player=name))
    game, _least, most = machine.seat_limits()
    if len(machine.seats) >= most:
        raise ActionRefused(_("the table is full: {game} seats at most {most}").format(game=game, most=most))
    given_after = seat_named(machine, str(raw.get("after"))).name if raw.get("after") else None
    if raw.get("seat") is None:
        # Named by the player before them only (a session recorded before seats kept their
        # numbers, or a script that names no seat): clockwise after them, or after the last seat.
        after = given_after or (machine.seats[-1].name if machine.seats else None)
        return {"player": name, "buy_in": buy_in, "after": after}
    number = _free_seat(machine, raw.get("seat"))
    after = _player_before(machine, number)
    if given_after is not None and given_after != after:
        if after:
            said = _("seat {number} is not after {player}: it comes after {before}")
            raise ActionRefused(said.format(number=number, player=given_after, before=after))
        said = _("seat {number} is not after {player}: it is the first seat taken")
        raise ActionRefused(said.format(number=number, player=given_after))
    return {"player": name, "buy_in": buy_in, "after": after, "seat": number}


def _free_seat(machine: TableMachine, value: object) -> int:
    number = reading.whole_number(value)
    free = free_seats(machine)
    if number is not None and number in free:
        return number
    holder = next((seat.name for seat in machine.seats if seat.number == number), None)
    if holder is not None:
        raise ActionRefused(
            _("seat {number} is taken: {player} sits there").format(number=number, player=holder)
        )
    listed = ", ".join(str(n) for n in free)
    said = _("there is no empty seat {seat} at this table: the empty seats are {listed}")
    raise ActionRefused(said.format(seat=value, listed=listed))


def _player_before(machine: TableMachine, number: int) -> str | None:
    """Who a newcomer at seat `number` sits after in the clockwise order play reads: the player
    before the first seat numbered above it (None: they come first)."""
    index = next((i for i, seat in enumerate(machine.seats) if seat.number > number), len(machine.seats))
    return machine.seats[index - 1].name if index else None


def apply_joined(machine: TableMachine, payload: Joined) -> Outcome:
    names = [seat.name for seat in machine.seats]
    at = names.index(payload["after"]) + 1 if payload["after"] is not None else 0
    number = payload.get("seat") or _seat_for_unnumbered_join(machine, at)
    machine.seats.insert(at, Seat(payload["player"], payload["buy_in"], number))
    machine.seat_numbers.add(number)
    return Outcome((LedgerEntry(payload["player"], LedgerKind.BUY_IN, payload["buy_in"]),))


def _seat_for_unnumbered_join(machine: TableMachine, at: int) -> int:
    """The seat of a join recorded without one, who plays at place `at` in the clockwise order
    whatever the numbers say: the lowest empty seat between the players either side of them if
    there is one (numbers stay in clockwise order), else the lowest empty seat."""
    free = free_seats(machine)
    before = machine.seats[at - 1].number if at else 0
    after = machine.seats[at].number if at < len(machine.seats) else None
    between = [n for n in free if n > before and (after is None or n < after)]
    return (between or free)[0]


# ---------------------------------------------------------------------- chips and sitting out
def check_rebought(machine: TableMachine, raw: RawPayload) -> Rebought:
    machine.require_between_hands(_("rebuys"))
    seat = seat_named(machine, str(raw.get("player")))
    return {"player": seat.name, "amount": reading.chips(raw.get("amount"), _("a rebuy"))}


def apply_rebought(machine: TableMachine, payload: Rebought) -> Outcome:
    seat_named(machine, payload["player"]).stack += payload["amount"]
    return Outcome((LedgerEntry(payload["player"], LedgerKind.REBUY, payload["amount"]),))


def check_cashed_out(machine: TableMachine, raw: RawPayload) -> CashedOut:
    machine.require_between_hands(_("cash-outs"))
    seat = seat_named(machine, str(raw.get("player")))
    machine.holds.refuse_if_held(seat.name, seat.stack, leaving=True)
    return {"player": seat.name, "amount": seat.stack}


def apply_cashed_out(machine: TableMachine, payload: CashedOut) -> Outcome:
    """The player leaves; their seat stays, empty, with its number."""
    name = payload["player"]
    if machine.button == name and len(machine.seats) > 1:
        machine.button = machine.next_clockwise(name)
    machine.seats.remove(seat_named(machine, name))
    machine.holds.release(name)
    return Outcome((LedgerEntry(name, LedgerKind.CASH_OUT, -payload["amount"]),))


def check_sat_out(machine: TableMachine, raw: RawPayload) -> SatOut:
    machine.require_between_hands(_("players sit out"))
    seat = seat_named(machine, str(raw.get("player")))
    if seat.sitting_out:
        raise ActionRefused(_("{player} is already sitting out").format(player=seat.name))
    machine.holds.refuse_if_held(seat.name, seat.stack, leaving=False)
    return {"player": seat.name}


def apply_sat_out(machine: TableMachine, payload: SatOut) -> Outcome:
    seat = seat_named(machine, payload["player"])
    seat.sitting_out = True
    seat.fantasyland_next = 0
    seat.fantasyland_streak = 0
    machine.holds.release(seat.name)
    return NO_ROWS


def check_sat_in(machine: TableMachine, raw: RawPayload) -> SatIn:
    machine.require_between_hands(_("players sit in"))
    seat = seat_named(machine, str(raw.get("player")))
    if not seat.sitting_out:
        raise ActionRefused(_("{player} is not sitting out").format(player=seat.name))
    return {"player": seat.name}


def apply_sat_in(machine: TableMachine, payload: SatIn) -> Outcome:
    seat_named(machine, payload["player"]).sitting_out = False
    return NO_ROWS


CHECKERS: dict[EventKind, Callable[[TableMachine, RawPayload], EventPayload]] = {
    EventKind.JOINED: check_joined,
    EventKind.REBOUGHT: check_rebought,
    EventKind.CASHED_OUT: check_cashed_out,
    EventKind.SAT_OUT: check_sat_out,
    EventKind.SAT_IN: check_sat_in,
}
"""The chip work between hands, for `TableMachine`'s table of checks."""
# Any: each applier takes its own kind's payload (as in `TableMachine._appliers`).
APPLIERS: dict[EventKind, Callable[[TableMachine, Any], Outcome]] = {
    EventKind.JOINED: apply_joined,
    EventKind.REBOUGHT: apply_rebought,
    EventKind.CASHED_OUT: apply_cashed_out,
    EventKind.SAT_OUT: apply_sat_out,
    EventKind.SAT_IN: apply_sat_in,
}
