"""A player's seat between hands: joining the table, sitting out and sitting back in, each one spec.

Seats are physical (docs/decisions.md, "Seats keep their numbers"): a newcomer takes an empty seat
by its number, or, in a session recorded before seats kept their numbers, a place in the clockwise
order (`service.table.seats`).
"""

from __future__ import annotations

from ofc_desk.i18n import _, formatting, ngettext
from ofc_desk.service.table.actions.spec import ActionSpec, Signer, Spec
from ofc_desk.service.table.seats import Seat, SeatedTable, free_seats, seat_named
from ofc_desk.service.terms import reading
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import ChipKind, EventKind, LedgerKind
from ofc_desk.service.terms.outcome import NO_ROWS, LedgerEntry, Outcome
from ofc_desk.service.terms.payloads import Joined, RawPayload, SatIn, SatOut


def check_joined(machine: SeatedTable, raw: RawPayload) -> Joined:
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


def _free_seat(machine: SeatedTable, value: object) -> int:
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


def _player_before(machine: SeatedTable, number: int) -> str | None:
    """Who a newcomer at seat `number` sits after in the clockwise order play reads: the player
    before the first seat numbered above it (None: they come first)."""
    index = next((i for i, seat in enumerate(machine.seats) if seat.number > number), len(machine.seats))
    return machine.seats[index - 1].name if index else None


def apply_joined(machine: SeatedTable, payload: Joined) -> Outcome:
    names = [seat.name for seat in machine.seats]
    at = names.index(payload["after"]) + 1 if payload["after"] is not None else 0
    number = payload.get("seat") or _seat_for_unnumbered_join(machine, at)
    machine.seats.insert(at, Seat(payload["player"], payload["buy_in"], number))
    machine.seat_numbers.add(number)
    return Outcome((LedgerEntry(payload["player"], LedgerKind.BUY_IN, payload["buy_in"]),))


def _seat_for_unnumbered_join(machine: SeatedTable, at: int) -> int:
    """The seat of a join recorded without one, who plays at place `at` in the clockwise order
    whatever the numbers say: the lowest empty seat between the players either side of them if
    there is one (numbers stay in clockwise order), else the lowest empty seat."""
    free = free_seats(machine)
    before = machine.seats[at - 1].number if at else 0
    after = machine.seats[at].number if at < len(machine.seats) else None
    between = [n for n in free if n > before and (after is None or n < after)]
    return (between or free)[0]


def joined_sentence(joined: Joined, actor: str) -> str:
    fields = {"player": joined["player"], "after": joined["after"], "seat": joined.get("seat")}
    amount = joined["buy_in"]
    fields["chips"] = formatting.number(amount)
    match "seat" in joined, bool(joined["after"]):
        case True, True:
            said = ngettext(
                "{player} joined with {chips} chip at seat {seat}, seated after {after}",
                "{player} joined with {chips} chips at seat {seat}, seated after {after}",
                amount,
            )
        case True, False:
            said = ngettext(
                "{player} joined with {chips} chip at seat {seat}",
                "{player} joined with {chips} chips at seat {seat}",
                amount,
            )
        case False, True:
            said = ngettext(
                "{player} joined with {chips} chip, seated after {after}",
                "{player} joined with {chips} chips, seated after {after}",
                amount,
            )
        case _:
            said = ngettext("{player} joined with {chips} chip", "{player} joined with {chips} chips", amount)
    return said.format(**fields)


def check_sat_out(machine: SeatedTable, raw: RawPayload) -> SatOut:
    machine.require_between_hands(_("players sit out"))
    seat = seat_named(machine, str(raw.get("player")))
    if seat.sitting_out:
        raise ActionRefused(_("{player} is already sitting out").format(player=seat.name))
    machine.carried.refuse_leaving(seat.name, seat.stack, leaving=False)
    return {"player": seat.name}


def apply_sat_out(machine: SeatedTable, payload: SatOut) -> Outcome:
    seat = seat_named(machine, payload["player"])
    seat.sitting_out = True
    machine.carried = machine.carried.without(seat.name)
    return NO_ROWS


def check_sat_in(machine: SeatedTable, raw: RawPayload) -> SatIn:
    machine.require_between_hands(_("players sit in"))
    seat = seat_named(machine, str(raw.get("player")))
    if not seat.sitting_out:
        raise ActionRefused(_("{player} is not sitting out").format(player=seat.name))
    return {"player": seat.name}


def apply_sat_in(machine: SeatedTable, payload: SatIn) -> Outcome:
    seat_named(machine, payload["player"]).sitting_out = False
    return NO_ROWS


def sat_out_sentence(sat_out: SatOut, actor: str) -> str:
    return _("{player} sat out").format(player=sat_out["player"])


def sat_in_sentence(sat_in: SatIn, actor: str) -> str:
    return _("{player} sat back in").format(player=sat_in["player"])


JOINED = ActionSpec(
    EventKind.JOINED,
    check_joined,
    apply_joined,
    joined_sentence,
    Signer.DEALER,
    op="join",
    op_fields=("player", "buy_in", "after", "seat"),
    chips=ChipKind.BUY_IN,
)
SAT_OUT = ActionSpec(
    EventKind.SAT_OUT, check_sat_out, apply_sat_out, sat_out_sentence, Signer.NOBODY, "sit_out", ("player",)
)
SAT_IN = ActionSpec(
    EventKind.SAT_IN, check_sat_in, apply_sat_in, sat_in_sentence, Signer.NOBODY, "sit_in", ("player",)
)

SEATING_SPECS: tuple[Spec[SeatedTable], ...] = (JOINED, SAT_OUT, SAT_IN)
