"""The seats of a table: who sits where, and what the chip work between hands reads of a table
(`SeatedTable`); that work itself is in `service.table.actions` (join, rebuy, cash out, sit out, sit in).

Seats are physical (docs/decisions.md, "Seats keep their numbers"): the players the table opens
with sit at seats 1, 2, … clockwise; a seat keeps its number for the whole session, a player who
cashes out leaves it empty (still numbered, shown empty), and a newcomer takes an empty seat by
its number. `TableMachine.seats` lists the occupied seats in clockwise order, as play reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ofc_desk.i18n import LazyText, _
from ofc_desk.service.table.carry import CarryOver
from ofc_desk.service.terms.errors import ActionRefused


@dataclass
class Seat:
    """A seat at the live table: its player, stack and number."""

    name: str
    stack: int
    number: int
    """The seat's number at the table, for the whole session (1 = the first seat clockwise)."""
    sitting_out: bool = False

    def copied(self) -> Seat:
        """A seat of its own with the same fields: a settled hand's trace keeps its seats as they
        were (`corrections.traced`, at every settlement `verify` folds; `dataclasses.replace`
        cost four times as much)."""
        return Seat(**vars(self))


class SeatedTable(Protocol):
    """What the seats' rules read and change of a table (`TableMachine` is one): they take this
    rather than the machine, so the machine imports them and they do not import it."""

    seats: list[Seat]
    seat_numbers: set[int]
    button: str | None
    carried: CarryOver
    """What the game carries to the next hand (`carry`): who may not leave yet, what leaving forfeits."""

    def seat_limits(self) -> tuple[LazyText, int, int]: ...

    def require_between_hands(self, what: str) -> None: ...

    def next_clockwise(self, name: str) -> str: ...


def free_seats(machine: SeatedTable) -> list[int]:
    """The empty seats a newcomer may take, by number: the table's chairs (as many as its game
    seats) and any seat used this session, less the occupied ones."""
    *_game, chairs = machine.seat_limits()
    taken = {seat.number for seat in machine.seats}
    return sorted((set(range(1, chairs + 1)) | machine.seat_numbers) - taken)


def empty_seats(machine: SeatedTable) -> tuple[int, ...]:
    """The seats used this session that nobody holds now: the desk shows them, empty."""
    return tuple(sorted(machine.seat_numbers - {seat.number for seat in machine.seats}))


def seat_named(machine: SeatedTable, name: str) -> Seat:
    for seat in machine.seats:
        if seat.name == name:
            return seat
    raise ActionRefused(_("there is no player called {player} at this table").format(player=name))
