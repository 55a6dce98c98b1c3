"""A settled hand corrected by a floor supervisor (docs/rules.md §12): scored again from corrected
entries, settled again from the stacks it began with, and the difference paid now at today's
stacks.

No second rulebook: the corrected entries go through a fresh hand of the game the hand was dealt
in (`TableGame.start`, its own checks and refusals, as when dealing), the complete hand is scored
and settled by the core (`LiveHand.score`, never `verify`'s scorer, which answers a hand's number
with its stored result), and what the game carries over (`carry`) and the button by the
hand's own `after_settling`.

The table keeps a `HandTrace` of every settled hand: what the correction needs to deal it again.
The spec of the `hand_corrected` event (its check, apply and sentence) is in
`actions.corrections`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ofc_desk.core.settlement import SettleFrom, settlement_order
from ofc_desk.i18n import _
from ofc_desk.service.table.carry import CarryOver
from ofc_desk.service.table.games.base import HandDeal, LiveHand, SettledResult, TableGame
from ofc_desk.service.table.seats import Seat
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.payloads import EventPayload, RawPayload
from ofc_desk.service.terms.setup import TableRules


@dataclass(frozen=True)
class HandTrace:
    """What the table keeps of a settled hand to deal it again: the game and rules it was dealt
    under, its deal (button, order, stacks at its start, what the hand before carried over), the
    seats as its score read them, its entries and its settlement's chips per player (both the last
    correction's once it is corrected), and the button and what the next hand owes that it left."""

    game: TableGame
    rules: TableRules
    deal: HandDeal
    seats: tuple[Seat, ...]
    entries: tuple[EventPayload, ...]
    net: dict[str, int]
    """Each player's chips from the settlement (before rake and award, which a correction keeps)."""
    owed_next: dict[str, int]
    """What the hand leaves the next owing its players (`CarryOver.owed`), in their seats' order."""
    button_before: str | None = None
    """The table's button before the hand settled: where a correction that follows starts from."""
    corrections: int = 0


def traced(
    game: TableGame,
    rules: TableRules,
    deal: HandDeal,
    seats: tuple[Seat, ...],
    entries: Sequence[EventPayload],
    result: SettledResult,
    owed_next: dict[str, int],
    button_before: str | None,
) -> HandTrace:
    """A settled hand's trace: `seats` and `button_before` as they were before it settled (copies,
    `Seat.copied`), `owed_next` what the game carried on after it. Made once, when both are known:
    `verify` settles every hand of a long session, and copying a first trace through
    `dataclasses.replace` reads its fields anew each time."""
    return HandTrace(game, rules, deal, seats, tuple(entries), net_of(result), owed_next, button_before)


def net_of(result: SettledResult) -> dict[str, int]:
    """Each player's chips from a settlement."""
    return {player.name: player.stack_after - player.stack_before for player in result.players}


@dataclass(frozen=True)
class Rescored:
    """A hand dealt again from corrected entries: its entries as stored, the hand, its result."""

    entries: tuple[EventPayload, ...]
    live: LiveHand
    result: SettledResult


def rescore(trace: HandTrace, entries: object) -> Rescored:
    """Deal the hand again with `entries` (a replay script's `actions`), each checked as when
    dealing; the complete hand scored and settled by the core. A refusal names the entry."""
    if not isinstance(entries, Sequence) or isinstance(entries, str) or not entries:
        raise ActionRefused(_("a correction gives the hand's entries, a list of the hand's actions"))
    live = trace.game.start(trace.deal)
    stored: list[EventPayload] = []
    for index, raw in enumerate(entries, start=1):
        stored.append(_entered(trace.game, live, index, raw))
    if not live.complete:
        said = _("the corrected hand {number} is not finished: {waiting}")
        raise ActionRefused(said.format(number=trace.deal.number, waiting=live.waiting()))
    return Rescored(tuple(stored), live, live.score(trace.rules, trace.seats, None))


def _entered(game: TableGame, live: LiveHand, index: int, raw: object) -> EventPayload:
    if not isinstance(raw, Mapping) or "op" in raw:
        said = _("entry {number}: a correction gives the hand's entries as they should stand, no undo")
        raise ActionRefused(said.format(number=index))
    action: RawPayload = raw
    kind = game.entry_kind(live, action)
    try:
        entry = live.check_event(kind, action)
    except ActionRefused as error:
        raise ActionRefused(_("entry {number}: {problem}").format(number=index, problem=error)) from None
    entry.apply()
    return entry.payload


def differences(recorded: Mapping[str, int], corrected: Mapping[str, int]) -> dict[str, int]:
    """Each player's D: the corrected settlement's chips less the recorded (or last corrected) one's."""
    return {name: corrected.get(name, 0) - recorded.get(name, 0) for name in corrected}


@dataclass(frozen=True)
class PaidNow:
    """The differences paid at today's stacks (§12): `paid` (negative when paid out) and what is
    not covered, with D's sign, so that paid + not covered = D for every player."""

    paid: dict[str, int]
    not_covered: dict[str, int]


def pay_now(difference: Mapping[str, int], order: Sequence[str], stacks: Mapping[str, int]) -> PaidNow:
    """Payers still seated pay up to their stack, receivers still seated receive up to their D, in
    settlement order; no chip is created or destroyed, so no more is collected than the seated
    receivers can take."""
    payable = {n: min(-difference[n], stacks[n]) for n in order if difference.get(n, 0) < 0 and n in stacks}
    receivable = {n: difference[n] for n in order if difference.get(n, 0) > 0 and n in stacks}
    moving = min(sum(payable.values()), sum(receivable.values()))
    paid: dict[str, int] = {}
    for side, sign in ((payable, -1), (receivable, 1)):
        left = moving
        for name, most in side.items():
            chips = min(most, left)
            left -= chips
            if chips:
                paid[name] = sign * chips
    not_covered = {n: d - paid.get(n, 0) for n, d in difference.items() if d != paid.get(n, 0)}
    return PaidNow(paid, not_covered)


def settling_order(trace: HandTrace) -> list[str]:
    """The hand's settlement order (§8, from its own starting point)."""
    order = list(trace.deal.order)
    return settlement_order(order, trace.deal.button, SettleFrom(trace.rules.settle_from))


@dataclass
class _Table:
    """A table to carry a hand's carry-over on without touching the real one (`GameTable`)."""

    seats: list[Seat]
    button: str | None
    carried: CarryOver
    button_held: bool = False
    hand_settled: bool = True

    def seat(self, name: str) -> Seat:
        return next(seat for seat in self.seats if seat.name == name)

    def next_clockwise(self, name: str) -> str:
        names = [seat.name for seat in self.seats]
        return names[(names.index(name) + 1) % len(names)]


def owed_after(trace: HandTrace, live: LiveHand, result: SettledResult) -> dict[str, int]:
    """What the hand scored so leaves the next owing its players (`CarryOver.owed`), as its game
    carries it on."""
    table = _Table([seat.copied() for seat in trace.seats], trace.deal.button, trace.deal.carried)
    live.after_settling(table, result)
    return owed_by_seat(table.carried, table.seats, trace.deal.order)


def owed_by_seat(carried: CarryOver, seats: Sequence[Seat], dealt_in: Collection[str]) -> dict[str, int]:
    """What `carried` owes the players dealt in, in their seats' order."""
    owed = carried.owed
    return {seat.name: owed[seat.name] for seat in seats if seat.name in dealt_in and seat.name in owed}
