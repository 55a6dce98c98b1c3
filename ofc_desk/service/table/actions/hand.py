"""The opening and the play of a hand, one spec each: the table opened, a hand dealt, a street
placed or a Fantasyland set revealed, a Chinese poker showdown, an entry taken back, the hand
settled. Their rules are here, reading and changing the table through `PlayingTable` (so they do
not import the machine); an entry's are its game's (the live hand the machine holds), reached by
its kind through the machine's `check_entry` / `apply_entry`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Generic, Protocol, TypeVar, cast

from ofc_desk.core.cards import UNKNOWN_TOKEN
from ofc_desk.core.jackpot import JackpotAward
from ofc_desk.core.presets import RakeRules
from ofc_desk.core.rake import RakeResult, compute_rake
from ofc_desk.core.rows import placement_label
from ofc_desk.core.seating import acting_order, dealer_for_hand
from ofc_desk.i18n import LazyText, _, formatting
from ofc_desk.service.room import room_pool
from ofc_desk.service.room.room_pool import PoolTable
from ofc_desk.service.table.actions.spec import ActionSpec, CheckedAction, Signer, Spec
from ofc_desk.service.table.actions.words import rules_words
from ofc_desk.service.table.corrections import HandTrace, owed_by_seat, traced
from ofc_desk.service.table.games.base import (
    CheckedEntry,
    GameTable,
    HandDeal,
    LiveHand,
    SettledPlayer,
    SettledResult,
    TableGame,
    by_row,
)
from ofc_desk.service.table.games.choose import OWN_ENTRY_WORDS, entry_refused, game_for, own_entry_words
from ofc_desk.service.table.seats import Seat
from ofc_desk.service.terms import reading
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import ChipKind, EventKind, LedgerKind
from ofc_desk.service.terms.outcome import NO_ROWS, LedgerEntry, Outcome, PoolMove, ScoredResult, SettledHand
from ofc_desk.service.terms.payloads import (
    EntryPayload,
    EventPayload,
    HandSettled,
    HandStarted,
    RawPayload,
    SeatPayload,
    ShownPayload,
    TableOpened,
    Undone,
)
from ofc_desk.service.terms.setup import TableRules


class PlayingTable(PoolTable, GameTable, Protocol):
    """What the opening and the play of a hand read and change of a table (`TableMachine` is
    one): an entry goes to the live hand of the table's game by its kind, whichever game's."""

    opened: bool
    table: str
    rules: TableRules
    game: TableGame
    seat_numbers: set[int]
    live: LiveHand | None
    result: SettledResult | None
    rake: RakeResult | None
    hands_started: int
    hand_deal: HandDeal
    hand_entries: list[EventPayload]
    hand_traces: MutableMapping[int, HandTrace]
    jackpot_pool: int

    def seat(self, name: str) -> Seat: ...
    def set_rules(self, rules: TableRules) -> None: ...
    def seat_limits(self) -> tuple[LazyText, int, int]: ...
    def jackpot_award(self) -> JackpotAward | None: ...
    def check_entry(self, kind: EventKind, raw: RawPayload) -> CheckedEntry:
        """An entry of the live hand (a street, a set, a showdown): its game's check of `kind`."""
        ...

    def apply_entry(self, kind: EventKind, entry: CheckedEntry) -> Outcome: ...


def _not_finished(number: int, waiting: str) -> str:
    """A hand settled too early, and what it waits for: "hand 3 is not finished: Ann: take 3"."""
    return _("hand {number} is not finished: {waiting}").format(number=number, waiting=waiting)


def check_opened(machine: PlayingTable, raw: RawPayload) -> TableOpened:
    if machine.opened:
        raise ActionRefused(_("{table} is already open").format(table=machine.table))
    table = reading.name(raw.get("table"), _("a table"))
    rules = reading.rules(raw.get("rules"))
    game = game_for(rules)
    least, most = game.seat_limits
    seats: list[SeatPayload] = [
        {
            "name": reading.name(seat.get("name")),
            "buy_in": reading.chips(seat.get("buy_in"), _("a buy-in")),
        }
        for seat in reading.mappings(raw.get("seats"), "seats")
    ]
    names = [seat["name"] for seat in seats]
    duplicate = next((name for name in names if names.count(name) > 1), None)
    if duplicate:
        raise ActionRefused(_("{player} is seated twice").format(player=duplicate))
    if not least <= len(seats) <= most:
        said = _("{game} seats {least} to {most} players, not {count}")
        raise ActionRefused(said.format(game=game.label, least=least, most=most, count=len(seats)))
    button = reading.text(raw, "button")
    if button not in names:
        if not button:
            raise ActionRefused(_("the button must be at one of the seats, not nobody"))
        raise ActionRefused(_("the button must be at one of the seats, not {player}").format(player=button))
    return {"table": table, "seats": seats, "button": button, "rules": rules.to_json()}


def apply_opened(machine: PlayingTable, payload: TableOpened) -> Outcome:
    machine.opened = True
    machine.table = payload["table"]
    machine.set_rules(TableRules.from_json(payload["rules"]))
    opening = enumerate(payload["seats"], start=1)
    machine.seats = [Seat(seat["name"], seat["buy_in"], number) for number, seat in opening]
    machine.seat_numbers = {seat.number for seat in machine.seats}
    machine.button = payload["button"]
    return Outcome(
        tuple(LedgerEntry(seat.name, LedgerKind.BUY_IN, seat.stack, note="opening") for seat in machine.seats)
    )


def check_started(machine: PlayingTable, raw: RawPayload) -> HandStarted:
    machine.require_between_hands(_("a new hand is dealt"))
    playing = in_play(machine)
    for seat in playing:
        if seat.stack <= 0:
            raise ActionRefused(_("{player} has no chips: rebuy or sit out").format(player=seat.name))
    game, least, most = machine.seat_limits()
    if len(playing) < least:
        said = _("{game} needs at least {least} players in their seats; {count} can play")
        raise ActionRefused(said.format(game=game, least=least, count=len(playing)))
    if len(playing) > most:
        raise ActionRefused(_("{game} deals to at most {most} players").format(game=game, most=most))
    machine.game.check_deal(playing, machine.carried)
    return {"number": machine.hands_started + 1}


def apply_started(machine: PlayingTable, payload: HandStarted) -> Outcome:
    playing = in_play(machine)
    names = [seat.name for seat in playing]
    dealer = dealer_of(machine, names)
    stacks = {seat.name: seat.stack for seat in playing}
    machine.button = dealer
    machine.hands_started = payload["number"]
    machine.hand_settled = False
    machine.result = None
    machine.rake = None
    order = tuple(acting_order(names, dealer))
    machine.hand_deal = HandDeal(payload["number"], dealer, order, stacks, machine.carried)
    machine.hand_entries = []
    machine.live = machine.game.start(machine.hand_deal)
    return NO_ROWS


def dealer_of(machine: PlayingTable, playing: list[str]) -> str:
    """The button holder, or the next player clockwise if the holder is not playing."""
    dealer = dealer_for_hand([seat.name for seat in machine.seats], machine.button, playing)
    if dealer is None:
        raise ActionRefused(_("nobody can deal"))
    return dealer


def live_hand(machine: PlayingTable, kind: EventKind) -> LiveHand:
    """The hand an entry of `kind` goes into; refused between hands, and at a table whose game
    plays no such entry (`TableGame.entry_kinds`), in the words of the game whose entry it is."""
    live = machine.live
    if live is None or machine.hand_settled or kind not in machine.game.entry_kinds:
        raise entry_refused(kind)
    return live


def check_undone(machine: PlayingTable, raw: RawPayload) -> Undone:
    return live_hand(machine, machine.game.entry).last_entry()


def apply_undone(machine: PlayingTable, payload: Undone) -> Outcome:
    live_hand(machine, machine.game.entry).take_back()
    machine.hand_entries.pop()
    machine.result = None
    return NO_ROWS


def check_settled(machine: PlayingTable, raw: RawPayload) -> HandSettled:
    live = machine.live
    if live is None or machine.hand_settled:
        raise machine.game.nothing_to_settle()
    if not live.complete:
        raise ActionRefused(_not_finished(live.number, live.waiting()))
    return _settled_payload(machine, live.number, raw)


def _settled_payload(machine: PlayingTable, number: int, raw: RawPayload) -> HandSettled:
    """At a table with an award, the settlement says the room's pool it found."""
    if machine.jackpot_award() is None:
        return {"number": number}
    return {"number": number, "jackpot_pool": room_pool.pool_found(raw)}


def apply_settled(machine: PlayingTable, payload: HandSettled) -> Outcome:
    """Chips move as the core settled them, the rake is taken, the game carries on what it
    carries (`carry`, the button), and an award is paid out of the room's pool."""
    live, result = machine.live, machine.result
    assert live is not None and result is not None  # checked: the hand is complete
    dealt_in = live.dealt_in(machine.seats)
    seats_before, button_before = tuple(seat.copied() for seat in machine.seats), machine.button
    rake, ledger = _pay_out(
        machine, live.number, dealt_in, live.stacks_before, result.players, machine.game.rake
    )
    live.after_settling(machine, result)
    owed = owed_by_seat(machine.carried, machine.seats, dealt_in)
    machine.hand_traces[live.number] = traced(
        machine.game,
        machine.rules,
        machine.hand_deal,
        seats_before,
        machine.hand_entries,
        result,
        owed,
        button_before,
    )
    award = machine.jackpot_award()
    if award is None:
        settled = SettledHand(
            live.number, live.button, live.owed, result, dict(rake.per_player), rake.jackpot
        )
        return Outcome(ledger, settled, pool_moves=room_pool.drop_moves(live.number, rake.jackpot))
    deal = live.jackpot_deal(result, machine.seats)
    pool_before = payload.get("jackpot_pool", 0)
    paid = room_pool.pay_award(
        machine, live.number, award, deal.pairs, deal.scored, deal.dealt_in, pool_before, rake.jackpot
    )
    scored: ScoredResult = paid.result
    settled = SettledHand(live.number, live.button, live.owed, scored, dict(rake.per_player), rake.jackpot)
    moves: tuple[PoolMove, ...] = paid.moves
    return Outcome(ledger + paid.ledger, settled, pool_moves=moves, pool_before=pool_before)


def _pay_out(
    machine: PlayingTable,
    number: int,
    seating: list[str],
    stacks_before: Mapping[str, int],
    players: Sequence[SettledPlayer],
    rake_rules: RakeRules,
) -> tuple[RakeResult, tuple[LedgerEntry, ...]]:
    """The settled stacks, less the house's rake (docs/rules.md §9), with the hand's ledger lines;
    the same for every game."""
    for player in players:
        machine.seat(player.name).stack = player.stack_after
    net_wins = {p.name: p.stack_after - p.stack_before for p in players}
    rake = compute_rake(rake_rules, {name: machine.seat(name).stack for name in seating}, net_wins)
    for name, chips in rake.per_player.items():
        machine.seat(name).stack -= chips
    changes = {name: machine.seat(name).stack - stacks_before[name] for name in seating}
    if sum(changes.values()) + rake.total != 0:
        raise ActionRefused(_("hand {number}: chips are not conserved").format(number=number))
    machine.jackpot_pool += rake.jackpot
    machine.hand_changes[number] = changes
    machine.hand_jackpots[number] = rake.jackpot
    machine.hand_settled = True
    machine.rake = rake
    ledger = [
        LedgerEntry(name, LedgerKind.HAND, changes[name] + rake.per_player.get(name, 0), number)
        for name in seating
    ] + [LedgerEntry(name, LedgerKind.RAKE, -chips, number) for name, chips in rake.per_player.items()]
    return rake, tuple(ledger)


def in_play(machine: PlayingTable) -> list[Seat]:
    """The seats dealt in when a hand starts: those not sitting out."""
    return [seat for seat in machine.seats if not seat.sitting_out]


EntryT = TypeVar("EntryT", EntryPayload, ShownPayload)


@dataclass(frozen=True)
class EntrySpec(Generic[EntryT]):
    """An entry of a hand (a street, a Fantasyland set, a showdown): checked and applied by the
    live hand of the table's game, keyed by its kind (`LiveHand.check_event`), whose payload the
    sentence reads (`EntryT`: a street's or a set's, or a showdown's)."""

    kind: EventKind
    sentence: Callable[[EntryT, str], str]
    signer: Signer = Signer.NOBODY
    op: str | None = None
    """A script enters it among a hand's actions, not as a `between` operation."""
    op_fields: tuple[str, ...] = ()
    chips: ChipKind | None = None

    def checked(self, table: PlayingTable, raw: RawPayload) -> CheckedAction:
        entry = table.check_entry(self.kind, raw)
        # Made in C, not by the named tuple's `__new__` (a Python call): one for every entry.
        return tuple.__new__(
            CheckedAction, (self.kind, entry.payload, table, partial(table.apply_entry, self.kind, entry))
        )


def started_sentence(started: HandStarted, actor: str) -> str:
    return _("Hand {number} dealt").format(number=started["number"])


def placed_sentence(entry: EntryPayload, actor: str) -> str:
    return entry_sentence(entry)


def revealed_sentence(entry: EntryPayload, actor: str) -> str:
    return _("{player} revealed: {cards}").format(
        player=entry["player"], cards=by_row(entry["cards"], entry["rows"])
    )


def shown_sentence(shown: ShownPayload, actor: str) -> str:
    return OWN_ENTRY_WORDS[EventKind.SHOWN](shown)


def undone_sentence(payload: Undone, actor: str) -> str:
    undone = payload["undone"]
    taken = own_entry_words(undone) or entry_sentence(undone)  # a game's own entry, or a street
    return _("Taken back: {entry}").format(entry=taken)


def settled_sentence(settled: HandSettled, actor: str) -> str:
    return _("Hand {number} settled").format(number=settled["number"])


def entry_sentence(entry: Mapping[str, object]) -> str:
    """ "Ann: 8s front, Kd back, ?? discard" for a street's cards and rows."""
    placed = _placements(cast(EntryPayload, entry))
    return f"{entry.get('player', '?')}: {placed}" if placed else _("the last entry")


def _placements(entry: EntryPayload) -> str:
    cards = [card or UNKNOWN_TOKEN for card in entry.get("cards") or ()]
    rows = [placement_label(str(row)) for row in entry.get("rows") or ()]
    return ", ".join(f"{card} {row}" for card, row in zip(cards, rows, strict=False))


def opened_sentence(opened: TableOpened, actor: str) -> str:
    seats = ", ".join(f"{seat['name']} {formatting.number(seat['buy_in'])}" for seat in opened["seats"])
    rules = rules_words(opened["rules"])
    if actor:
        said = _("Table {table} opened by {actor}: {seats}; button {button}; {rules}")
    else:
        said = _("Table {table} opened: {seats}; button {button}; {rules}")
    return said.format(table=opened["table"], actor=actor, seats=seats, button=opened["button"], rules=rules)


TABLE_OPENED = ActionSpec(
    EventKind.TABLE_OPENED,
    check_opened,
    apply_opened,
    opened_sentence,
    Signer.DEALER,
    chips=ChipKind.OPENING,
)
HAND_STARTED = ActionSpec(
    EventKind.HAND_STARTED, check_started, apply_started, started_sentence, Signer.NOBODY
)
PLACED = EntrySpec(EventKind.PLACED, placed_sentence)
REVEALED = EntrySpec(EventKind.REVEALED, revealed_sentence)
SHOWN = EntrySpec(EventKind.SHOWN, shown_sentence)
UNDONE = ActionSpec(EventKind.UNDONE, check_undone, apply_undone, undone_sentence, Signer.NOBODY)
"""Taken back by `{"op": "undo"}` among a hand's actions or its `between` operations
(`replay_vocabulary.UNDO_OP`), not by an operation of its own name."""
HAND_SETTLED = ActionSpec(
    EventKind.HAND_SETTLED, check_settled, apply_settled, settled_sentence, Signer.DEALER
)

HAND_SPECS: tuple[Spec[PlayingTable], ...] = (
    TABLE_OPENED,
    HAND_STARTED,
    PLACED,
    REVEALED,
    SHOWN,
    UNDONE,
    HAND_SETTLED,
)
