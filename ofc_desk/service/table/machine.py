"""The pure state machine of a table: folds events into the live state and checks every action.

No database here. `check(kind, raw)` refuses an action with the dealer's sentence or returns its
canonical payload; `apply(kind, payload)` re-checks it and changes the state, returning the derived
rows (`Outcome`) that storage keeps beside the event. Folding a session's events through `apply`
rebuilds the table exactly, which is how a desk resumes and how `verify` re-checks history.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar, cast

from ofc_desk.core.jackpot import JackpotAward
from ofc_desk.core.presets import RakeRules
from ofc_desk.core.rake import RakeResult, compute_rake
from ofc_desk.core.seating import acting_order, dealer_for_hand, next_button
from ofc_desk.i18n import LazyText, _
from ofc_desk.service.room import room_pool
from ofc_desk.service.room.requests import FloorRequest
from ofc_desk.service.table import actions, dealers, rule_pins, seats, supervision
from ofc_desk.service.table.actions import SUPERVISED
from ofc_desk.service.table.corrections import HandTrace, traced
from ofc_desk.service.table.games.base import (
    HandDeal,
    HandScorer,
    LiveHand,
    SettledPlayer,
    SettledResult,
    TableGame,
    entry_refused,
)
from ofc_desk.service.table.games.choose import game_for
from ofc_desk.service.table.holds import FantasylandHolds
from ofc_desk.service.table.rule_pins import PinnedPresets
from ofc_desk.service.table.seats import Seat
from ofc_desk.service.table.view import build_snapshot
from ofc_desk.service.terms import reading
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind, LedgerKind
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
from ofc_desk.service.terms.snapshot import Phase, TableSnapshot


def _not_finished(number: int, waiting: str) -> str:
    """A hand settled too early, and what it waits for: "hand 3 is not finished: Ann: take 3"."""
    return _("hand {number} is not finished: {waiting}").format(number=number, waiting=waiting)


class TableMachine:
    def __init__(self) -> None:
        self.opened = False
        self.table = ""
        self.rules = TableRules()
        self.pinned_presets: PinnedPresets = {}
        """Presets pinned after the fact (`rule_pins`): set before folding a stored session."""
        self.named_presets: set[str] = set()
        self.game: TableGame = game_for(self.rules)
        """The game played under the rules in force (`games`): the machine never asks which."""
        self.seats: list[Seat] = []
        """The occupied seats, clockwise (`seats`: empty ones are in `seat_numbers` only)."""
        self.seat_numbers: set[int] = set()
        """Every seat used this session, by number: those nobody holds now are shown empty."""
        self.dealer_on_duty = ""
        """Who deals: the actor of the last dealer's event folded, or the dealer a hand-over named;
        a desk puts its own signed-in dealer here."""
        self.button: str | None = None
        self.button_held = False
        self.live: LiveHand | None = None
        """The hand being dealt, or the last one until the next starts."""
        self.hand_settled = False
        self.result: SettledResult | None = None
        """The live hand's score once its last entry is in."""
        # Any: the scorer takes the deal of the table's game, which the machine never names.
        self.scorer: HandScorer[Any] | None = None
        """`verify`'s, scoring OFC hands beside the fold; None: every hand is scored by the core."""
        self.rake: RakeResult | None = None
        self.hands_started = 0
        self.hand_deal = HandDeal(0, "", (), {})
        """The live hand's deal, as the game started it."""
        self.hand_changes: dict[int, dict[str, int]] = {}
        """Each settled hand's chips won or lost per player, kept for a void to give back."""
        self.hand_jackpots: dict[int, int] = {}
        self.hand_awards: dict[int, int] = {}
        """The chips each hand's jackpot award paid out of the room's pool (a void gives them back)."""
        self.voided: set[int] = set()
        self.hand_traces: dict[int, HandTrace] = {}
        """What each settled hand needs to be dealt again from corrected entries (`corrections`)."""
        self.hand_entries: list[EventPayload] = []
        """The live hand's entries in order, undone ones taken out."""
        self.requests: dict[int, FloorRequest] = {}
        self.phase_waived = False
        """While a request to the floor is checked: what it asks for is done between hands."""
        self.holds = FantasylandHolds()
        self.jackpot_pool = 0
        self.closed = False

    # ------------------------------------------------------------------ reading
    @property
    def phase(self) -> Phase:
        if self.closed:
            return Phase.CLOSED
        if self.live is None:
            return Phase.BETWEEN_HANDS
        if self.hand_settled:
            return Phase.SETTLED
        return self.live.phase

    @property
    def hands_settled(self) -> int:
        """Hands dealt to the end and settled so far, voided ones included (they were dealt)."""
        return len(self.hand_changes)

    def seat(self, name: str) -> Seat:
        return seats.seat_named(self, name)

    def next_dealer(self) -> str | None:
        """Who deals the next hand if it started now."""
        playing = [seat.name for seat in self._playing()]
        return self._dealer(playing) if playing else None

    def jackpot_award(self) -> JackpotAward | None:
        """The award the table's preset pays out of the room's pool, if any (docs/rules.md §11)."""
        return self.game.jackpot_award

    def may_change_pool(self, kind: EventKind) -> bool:
        """Whether an event of `kind` may change the room's jackpot pool here, and so must be stored
        under the pool's lock (`room_pool.hold_pool`): a seed or a void may; a settlement only at a
        table whose rake drops into the jackpot or whose preset pays an award. Every other table's
        settlement neither reads the pool nor moves it, and does not wait for the other tables'."""
        if kind is not EventKind.HAND_SETTLED:
            return kind in room_pool.POOL_KINDS
        return self.jackpot_award() is not None or self.game.rake.jackpot_percent > 0

    def snapshot(self, session_id: int, head_hash: str) -> TableSnapshot:
        return build_snapshot(self, session_id, head_hash)

    # ------------------------------------------------------------------ the two entry points
    def check(self, kind: EventKind, raw: RawPayload) -> EventPayload:
        """The canonical payload of an acceptable action, or `ActionRefused` saying why not."""
        if kind in SUPERVISED and not supervision.approver(raw).strip():
            self._refuse_unless_open(kind)
            raise ActionRefused(_("a floor supervisor must approve this"))
        return self.check_before_approval(kind, raw)

    def check_before_approval(self, kind: EventKind, raw: RawPayload) -> EventPayload:
        """Like `check`, but a supervised action that names no supervisor yet is checked as if one
        approved it: whether the desk should offer it before asking for a PIN."""
        self._refuse_unless_open(kind)
        return self._checkers[kind](self, raw)

    def apply(self, kind: EventKind, payload: RawPayload, actor: str = "") -> Outcome:
        """Re-check a stored or new event and fold it into the state; `actor`, when given, is who
        recorded it: a dealer's event says who is dealing."""
        return self.apply_checked(kind, self.check(kind, payload), actor)

    def apply_checked(self, kind: EventKind, canonical: EventPayload, actor: str = "") -> Outcome:
        """Fold in an event whose payload `check` has just returned (no second check)."""
        if actor and kind not in dealers.NOT_THE_DEALERS:
            self.dealer_on_duty = actor
        return self._appliers[kind](self, canonical)

    def check_typing(self, kind: EventKind, player: str, cards: object, rows: object) -> None:
        """Refuse an entry of `kind` being typed as soon as what is typed so far breaks a rule."""
        self._live(kind).check_typing(kind, player, cards, rows)

    def entry_kind(self, raw: RawPayload) -> EventKind:
        """The event a scripted entry makes at this table now (a street, a set, a showdown)."""
        return self.game.entry_kind(self.live, raw)

    def _refuse_unless_open(self, kind: EventKind) -> None:
        if kind is not EventKind.TABLE_OPENED:
            if not self.opened:
                raise ActionRefused(_("the table is not open"))
            if self.closed and kind is not EventKind.RULES_PINNED:
                raise ActionRefused(_("the session at {table} is closed").format(table=self.table))

    # ------------------------------------------------------------------ opening and rules
    def check_opened(self, raw: RawPayload) -> TableOpened:
        if self.opened:
            raise ActionRefused(_("{table} is already open").format(table=self.table))
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
            raise ActionRefused(
                _("the button must be at one of the seats, not {player}").format(player=button)
            )
        return {"table": table, "seats": seats, "button": button, "rules": rules.to_json()}

    def apply_opened(self, payload: TableOpened) -> Outcome:
        self.opened = True
        self.table = payload["table"]
        self.set_rules(TableRules.from_json(payload["rules"]))
        opening = enumerate(payload["seats"], start=1)
        self.seats = [Seat(seat["name"], seat["buy_in"], number) for number, seat in opening]
        self.seat_numbers = {seat.number for seat in self.seats}
        self.button = payload["button"]
        return Outcome(
            tuple(
                LedgerEntry(seat.name, LedgerKind.BUY_IN, seat.stack, note="opening") for seat in self.seats
            )
        )

    def set_rules(self, rules: TableRules) -> None:
        if isinstance(rules.preset, str):
            self.named_presets.add(rules.preset)
            rules = rule_pins.with_pins(rules, self.pinned_presets)
        self.game = game_for(rules)
        self.rules = rules

    def seat_limits(self) -> tuple[LazyText, int, int]:
        """The table's game (its word) and how many players it seats, at least and at most."""
        return self.game.label, *self.game.seat_limits

    # ------------------------------------------------------------------ the hand
    def check_started(self, raw: RawPayload) -> HandStarted:
        self.require_between_hands(_("a new hand is dealt"))
        playing = self._playing()
        for seat in playing:
            if seat.stack <= 0:
                raise ActionRefused(_("{player} has no chips: rebuy or sit out").format(player=seat.name))
        game, least, most = self.seat_limits()
        if len(playing) < least:
            said = _("{game} needs at least {least} players in their seats; {count} can play")
            raise ActionRefused(said.format(game=game, least=least, count=len(playing)))
        if len(playing) > most:
            raise ActionRefused(_("{game} deals to at most {most} players").format(game=game, most=most))
        self.game.check_deal(playing)
        return {"number": self.hands_started + 1}

    def apply_started(self, payload: HandStarted) -> Outcome:
        playing = self._playing()
        names = [seat.name for seat in playing]
        dealer = self._dealer(names)
        fantasyland = {seat.name: seat.fantasyland_next for seat in playing if seat.fantasyland_next}
        stacks = {seat.name: seat.stack for seat in playing}
        self.button = dealer
        self.hands_started = payload["number"]
        self.hand_settled = False
        self.result = None
        self.rake = None
        order = tuple(acting_order(names, dealer))
        self.hand_deal = HandDeal(payload["number"], dealer, order, stacks, fantasyland)
        self.hand_entries = []
        self.live = self.game.start(self.hand_deal)
        return NO_ROWS

    def _dealer(self, playing: list[str]) -> str:
        """The button holder, or the next player clockwise if the holder is not playing."""
        dealer = dealer_for_hand([seat.name for seat in self.seats], self.button, playing)
        if dealer is None:
            raise ActionRefused(_("nobody can deal"))
        return dealer

    # A live hand's check of a kind gives that kind's payload; mypy cannot tie the two.
    def check_placed(self, raw: RawPayload) -> EntryPayload:
        return cast(EntryPayload, self._check_entry(EventKind.PLACED, raw))

    def check_revealed(self, raw: RawPayload) -> EntryPayload:
        return cast(EntryPayload, self._check_entry(EventKind.REVEALED, raw))

    def check_shown(self, raw: RawPayload) -> ShownPayload:
        return cast(ShownPayload, self._check_entry(EventKind.SHOWN, raw))

    def _check_entry(self, kind: EventKind, raw: RawPayload) -> EventPayload:
        return self._live(kind).check_event(kind, raw)

    def apply_entry(self, payload: EntryPayload) -> Outcome:
        return self._apply_entry(EventKind.PLACED, payload)

    def apply_shown(self, payload: ShownPayload) -> Outcome:
        return self._apply_entry(EventKind.SHOWN, payload)

    def _apply_entry(self, kind: EventKind, payload: EventPayload) -> Outcome:
        live = self._live(kind)
        live.apply_event(kind, payload)
        self.hand_entries.append(payload)
        if live.complete:
            self.result = live.score(self.rules, self.seats, self.scorer)
        return NO_ROWS

    def _live(self, kind: EventKind) -> LiveHand:
        """The hand an entry of `kind` goes into; refused between hands."""
        if self.live is None or self.hand_settled:
            raise entry_refused(kind)
        return self.live

    def check_undone(self, raw: RawPayload) -> Undone:
        return self._live(self.game.entry).last_entry()

    def apply_undone(self, payload: Undone) -> Outcome:
        self._live(self.game.entry).take_back()
        self.hand_entries.pop()
        self.result = None
        return NO_ROWS

    # ------------------------------------------------------------------ settlement
    def check_settled(self, raw: RawPayload) -> HandSettled:
        live = self.live
        if live is None or self.hand_settled:
            raise self.game.nothing_to_settle()
        if not live.complete:
            raise ActionRefused(_not_finished(live.number, live.waiting()))
        return self._settled_payload(live.number, raw)

    def _settled_payload(self, number: int, raw: RawPayload) -> HandSettled:
        """At a table with an award, the settlement says the room's pool it found."""
        if self.jackpot_award() is None:
            return {"number": number}
        return {"number": number, "jackpot_pool": room_pool.pool_found(raw)}

    def apply_settled(self, payload: HandSettled) -> Outcome:
        """Chips move as the core settled them, the rake is taken, the game carries on what it
        carries (Fantasyland, the button), and an award is paid out of the room's pool."""
        live, result = self.live, self.result
        assert live is not None and result is not None  # checked: the hand is complete
        dealt_in = live.dealt_in(self.seats)
        trace = traced(
            self.game, self.rules, self.hand_deal, self.seats, self.hand_entries, result, self.button
        )
        rake, ledger = self._pay_out(
            live.number, dealt_in, live.stacks_before, result.players, self.game.rake
        )
        live.after_settling(self, result)
        going = {s.name: s.fantasyland_next for s in self.seats if s.name in dealt_in and s.fantasyland_next}
        self.hand_traces[live.number] = replace(trace, fantasyland_next=going)
        award = self.jackpot_award()
        if award is None:
            settled = SettledHand(
                live.number, live.button, live.fantasyland, result, dict(rake.per_player), rake.jackpot
            )
            return Outcome(ledger, settled, pool_moves=room_pool.drop_moves(live.number, rake.jackpot))
        deal = live.jackpot_deal(result, self.seats)
        pool_before = payload.get("jackpot_pool", 0)
        paid = room_pool.pay_award(
            self, live.number, award, deal.pairs, deal.scored, deal.dealt_in, pool_before, rake.jackpot
        )
        scored: ScoredResult = paid.result
        settled = SettledHand(
            live.number, live.button, live.fantasyland, scored, dict(rake.per_player), rake.jackpot
        )
        moves: tuple[PoolMove, ...] = paid.moves
        return Outcome(ledger + paid.ledger, settled, pool_moves=moves, pool_before=pool_before)

    def _pay_out(
        self,
        number: int,
        seating: list[str],
        stacks_before: Mapping[str, int],
        players: Sequence[SettledPlayer],
        rake_rules: RakeRules,
    ) -> tuple[RakeResult, tuple[LedgerEntry, ...]]:
        """The settled stacks, less the house's rake (docs/rules.md §9), with the hand's ledger lines;
        the same for every game."""
        for player in players:
            self.seat(player.name).stack = player.stack_after
        net_wins = {p.name: p.stack_after - p.stack_before for p in players}
        rake = compute_rake(rake_rules, {name: self.seat(name).stack for name in seating}, net_wins)
        for name, chips in rake.per_player.items():
            self.seat(name).stack -= chips
        changes = {name: self.seat(name).stack - stacks_before[name] for name in seating}
        if sum(changes.values()) + rake.total != 0:
            raise ActionRefused(_("hand {number}: chips are not conserved").format(number=number))
        self.jackpot_pool += rake.jackpot
        self.hand_changes[number] = changes
        self.hand_jackpots[number] = rake.jackpot
        self.hand_settled = True
        self.rake = rake
        ledger = [
            LedgerEntry(name, LedgerKind.HAND, changes[name] + rake.per_player.get(name, 0), number)
            for name in seating
        ] + [LedgerEntry(name, LedgerKind.RAKE, -chips, number) for name, chips in rake.per_player.items()]
        return rake, tuple(ledger)

    def next_clockwise(self, name: str) -> str:
        sitting_out = {seat.name for seat in self.seats if seat.sitting_out}
        return next_button([seat.name for seat in self.seats], name, sitting_out)

    # ------------------------------------------------------------------ between hands
    def can_change_between_hands(self) -> bool:
        return self.phase in (Phase.BETWEEN_HANDS, Phase.SETTLED) and not self.closed

    def require_between_hands(self, what: str) -> None:
        """Refuse `what` (the action's words, translated: "rebuys") while a hand is being dealt."""
        if self.phase_waived:
            return
        phase = self.phase
        if phase not in (Phase.BETWEEN_HANDS, Phase.SETTLED):
            said = _("{what} only between hands: hand {number} is {state}")
            raise ActionRefused(said.format(what=what, number=self.hands_started, state=phase.label))

    def _playing(self) -> list[Seat]:
        return [seat for seat in self.seats if not seat.sitting_out]

    _checkers: ClassVar[dict[EventKind, Callable[[TableMachine, RawPayload], EventPayload]]] = dict(
        actions.CHECKERS
    )
    # Any: each applier takes its own kind's payload, which `check` made; mypy cannot tie a key's
    # kind to its value's parameter type.
    _appliers: ClassVar[dict[EventKind, Callable[[TableMachine, Any], Outcome]]] = dict(actions.APPLIERS)
