"""The pure state machine of a table: folds events into the live state and checks every action.

No database here. `check(kind, raw)` refuses an action with the dealer's sentence or returns its
canonical payload; `apply(kind, payload)` re-checks it and changes the state, returning the derived
rows (`Outcome`) that storage keeps beside the event. Folding a session's events through `apply`
rebuilds the table exactly, which is how a desk resumes and how `verify` re-checks history.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from ofc_desk.core.chinese.deal import ChineseDealResult
from ofc_desk.core.chinese.deal import jackpot_pairs as chinese_jackpot_pairs
from ofc_desk.core.chinese.presets import ChinesePreset
from ofc_desk.core.jackpot import JackpotAward
from ofc_desk.core.ofc.deal import DealResult
from ofc_desk.core.ofc.deal import jackpot_pairs as ofc_jackpot_pairs
from ofc_desk.core.ofc.presets import RulesPreset
from ofc_desk.core.ofc.streets import DECK_SIZE, StreetPlan, cards_needed
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import Game, RakeRules
from ofc_desk.core.rake import RakeResult, compute_rake
from ofc_desk.core.seating import acting_order, dealer_for_hand, next_button
from ofc_desk.i18n import LazyText, _
from ofc_desk.service import actions, dealers, reading, room_pool, rule_pins, seats, supervision
from ofc_desk.service.actions import SUPERVISED
from ofc_desk.service.chinese_play import SEATS as CHINESE_SEATS
from ofc_desk.service.chinese_play import ChineseHandState, check_chinese_rules, game_seats, is_chinese
from ofc_desk.service.errors import ActionRefused, no_showdown_being_entered, nothing_to_undo
from ofc_desk.service.events import EventKind, LedgerKind
from ofc_desk.service.hand import Entry, HandState
from ofc_desk.service.holds import FantasylandHolds
from ofc_desk.service.outcome import NO_ROWS, LedgerEntry, Outcome, PoolMove, ScoredResult, SettledHand
from ofc_desk.service.payloads import (
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
from ofc_desk.service.requests import FloorRequest
from ofc_desk.service.rule_pins import PinnedPresets
from ofc_desk.service.scoring_bridge import HandScorer, ScoredHand, SettledPlayer, check_rules, score_hand
from ofc_desk.service.seats import Seat
from ofc_desk.service.setup import TableRules
from ofc_desk.service.snapshot import Phase, TableSnapshot
from ofc_desk.service.view import build_snapshot


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
        self.preset: RulesPreset | None = None
        self.variant = Variant.REGULAR
        self.seats: list[Seat] = []
        """The occupied seats, clockwise (`seats`: empty ones are in `seat_numbers` only)."""
        self.seat_numbers: set[int] = set()
        """Every seat used this session, by number: those nobody holds now are shown empty."""
        self.dealer_on_duty = ""
        """Who deals: the actor of the last dealer's event folded, or the dealer a hand-over named;
        a desk puts its own signed-in dealer here."""
        self.button: str | None = None
        self.button_held = False
        self.hand: HandState | None = None
        self.chinese: ChinesePreset | None = None
        """The preset of a Chinese poker table (then `preset` is None and `variant` unused)."""
        self.chinese_hand: ChineseHandState | None = None
        self.chinese_result: ChineseDealResult | None = None
        self.hand_settled = False
        self.result: ScoredHand | None = None
        self.scorer: HandScorer = score_hand
        self.rake: RakeResult | None = None
        self.hands_started = 0
        self.hand_changes: dict[int, dict[str, int]] = {}
        self.hand_jackpots: dict[int, int] = {}
        self.hand_awards: dict[int, int] = {}
        """The chips each hand's jackpot award paid out of the room's pool (a void gives them back)."""
        self.voided: set[int] = set()
        self.requests: dict[int, FloorRequest] = {}
        self.phase_waived = False
        """While a request to the floor is checked: what it asks for is done between hands."""
        self.holds = FantasylandHolds()
        self.jackpot_pool = 0
        self.closed = False
        self._checked_entry: tuple[EntryPayload, Entry] | None = None

    # ------------------------------------------------------------------ reading
    @property
    def phase(self) -> Phase:
        if self.closed:
            return Phase.CLOSED
        if self.chinese_hand is not None:
            if self.hand_settled:
                return Phase.SETTLED
            return Phase.AWAITING_SETTLEMENT if self.chinese_hand.complete else Phase.LIVE
        if self.hand is None:
            return Phase.BETWEEN_HANDS
        if self.hand_settled:
            return Phase.SETTLED
        turn = self.hand.turn()
        if turn is None:
            return Phase.AWAITING_SETTLEMENT
        if self.hand.players[turn.player].fantasyland_cards:
            return Phase.WAITING_FOR_FANTASYLAND
        return Phase.LIVE

    def seat(self, name: str) -> Seat:
        return seats.seat_named(self, name)

    def next_dealer(self) -> str | None:
        """Who deals the next hand if it started now."""
        playing = [seat.name for seat in self._playing()]
        return self._dealer(playing) if playing else None

    def jackpot_award(self) -> JackpotAward | None:
        """The award the table's preset pays out of the room's pool, if any (docs/rules.md §11)."""
        preset = self.chinese or self.preset
        return preset.jackpot_award if preset is not None else None

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

    def check_opening(self, raw: RawPayload) -> TableOpened:
        """`check` of the event that opens a table, typed for the store that creates the session."""
        return self.check_opened(raw)

    def check_place(self, player: str, cards: object, rows: object, *, partial: bool) -> EntryPayload:
        return self._check_entry(player, cards, rows, partial=partial, fantasyland=False)

    def check_reveal(self, player: str, cards: object, rows: object, *, partial: bool) -> EntryPayload:
        return self._check_entry(player, cards, rows, partial=partial, fantasyland=True)

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
        game, least, most = game_seats(rules)
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
            raise ActionRefused(said.format(game=game, least=least, most=most, count=len(seats)))
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
        if is_chinese(rules):
            self.chinese, self.preset = check_chinese_rules(rules), None
        else:
            self.chinese = None
            self.preset, self.variant = check_rules(rules)
        self.rules = rules

    def seat_limits(self) -> tuple[LazyText, int, int]:
        """The table's game (its word) and how many players it seats, at least and at most."""
        if self.chinese is not None:
            return Game.CHINESE.label, *CHINESE_SEATS
        structure = self.variant.structure
        return self.variant.label, structure.min_players, structure.max_players

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
        if self.chinese is not None:
            return {"number": self.hands_started + 1}
        plan = self._plan()
        needed = cards_needed(plan, [seat.fantasyland_next for seat in playing])
        if needed > DECK_SIZE:
            raise ActionRefused(_("the deck cannot deal {count} cards to these players").format(count=needed))
        return {"number": self.hands_started + 1}

    def apply_started(self, payload: HandStarted) -> Outcome:
        playing = [seat.name for seat in self._playing()]
        dealer = self._dealer(playing)
        order = acting_order(playing, dealer)
        fantasyland = {s.name: s.fantasyland_next for s in self._playing() if s.fantasyland_next}
        stacks = {seat.name: seat.stack for seat in self._playing()}
        self.button = dealer
        self.hands_started = payload["number"]
        self.hand_settled = False
        self.result = self.chinese_result = None
        self.rake = None
        if self.chinese is not None:
            self.hand = None
            self.chinese_hand = ChineseHandState(payload["number"], dealer, order, stacks, self.chinese)
            return NO_ROWS
        self.chinese_hand = None
        self.hand = HandState(
            payload["number"], dealer, order, fantasyland, stacks, self._plan(), self.variant
        )
        return NO_ROWS

    def _plan(self) -> StreetPlan:
        return StreetPlan.for_variant(self.variant, self.rules.last_three_face_down)

    def _dealer(self, playing: list[str]) -> str:
        """The button holder, or the next player clockwise if the holder is not playing."""
        dealer = dealer_for_hand([seat.name for seat in self.seats], self.button, playing)
        if dealer is None:
            raise ActionRefused(_("nobody can deal"))
        return dealer

    def _check_entry(
        self, player: str, cards: object, rows: object, *, partial: bool, fantasyland: bool
    ) -> EntryPayload:
        hand = self._live_hand()
        entry = hand.check_entry(player, cards, rows, partial=partial, fantasyland=fantasyland)
        payload = entry.to_json()
        self._checked_entry = (payload, entry)
        return payload

    def check_placed(self, raw: RawPayload) -> EntryPayload:
        return self._check_entry(
            str(raw.get("player")),
            raw.get("cards"),
            raw.get("rows"),
            partial=False,
            fantasyland=False,
        )

    def check_revealed(self, raw: RawPayload) -> EntryPayload:
        return self._check_entry(
            str(raw.get("player")),
            raw.get("cards"),
            raw.get("rows"),
            partial=False,
            fantasyland=True,
        )

    def apply_entry(self, payload: EntryPayload) -> Outcome:
        hand = self._live_hand()
        hand.apply(self._entry_of(payload))
        if hand.complete:
            # An award is paid from the scored pairs: a stored result (verify's scorer) has none.
            scorer = score_hand if self.jackpot_award() is not None else self.scorer
            self.result = scorer(hand, self._seating(hand), self.rules, self._streaks(hand))
        return NO_ROWS

    def _entry_of(self, payload: EntryPayload) -> Entry:
        """The entry a payload holds; the one just checked is not read a second time (every
        street is checked, then applied: `verify` does it for every street of a session)."""
        if self._checked_entry is not None and self._checked_entry[0] == payload:
            return self._checked_entry[1]
        return Entry.from_json(payload)

    def check_shown(self, raw: RawPayload) -> ShownPayload:
        return self._live_chinese_hand().check(raw)

    def apply_shown(self, payload: ShownPayload) -> Outcome:
        hand = self._live_chinese_hand()
        hand.apply(payload)
        if hand.complete:
            self.chinese_result = hand.score(self.rules)
        return NO_ROWS

    def _live_chinese_hand(self) -> ChineseHandState:
        if self.chinese_hand is None or self.hand_settled:
            raise no_showdown_being_entered()
        return self.chinese_hand

    def check_undone(self, raw: RawPayload) -> Undone:
        if self.chinese is not None:
            return self._check_chinese_undone()
        hand = self._live_hand()
        if not hand.entries:
            raise nothing_to_undo(hand.number)
        entry = hand.entries[-1]
        return {"undone": entry.to_json()}

    def _check_chinese_undone(self) -> Undone:
        shown = self._live_chinese_hand()
        if not shown.entries:
            raise nothing_to_undo(shown.number)
        return {"undone": shown.entries[-1]}

    def apply_undone(self, payload: Undone) -> Outcome:
        if self.chinese is not None:
            self._live_chinese_hand().undo()
            self.chinese_result = None
            return NO_ROWS
        self._live_hand().undo()
        self.result = None
        return NO_ROWS

    def _live_hand(self) -> HandState:
        if self.hand is None or self.hand_settled:
            raise ActionRefused(_("no hand is being dealt: start the next hand"))
        return self.hand

    def _seating(self, hand: HandState) -> list[str]:
        return [seat.name for seat in self.seats if seat.name in hand.players]

    def _streaks(self, hand: HandState) -> dict[str, int]:
        return {name: self.seat(name).fantasyland_streak + 1 for name in hand.fantasyland}

    # ------------------------------------------------------------------ settlement
    def check_settled(self, raw: RawPayload) -> HandSettled:
        if self.chinese is not None:
            hand = self._live_chinese_hand()
            if not hand.complete:
                raise ActionRefused(_not_finished(hand.number, hand.waiting()))
            return self._settled_payload(hand.number, raw)
        if self.hand is None or self.hand_settled:
            raise ActionRefused(_("there is no hand to settle"))
        turn = self.hand.turn()
        if turn is not None:
            raise ActionRefused(_not_finished(self.hand.number, turn.describe))
        return self._settled_payload(self.hand.number, raw)

    def _settled_payload(self, number: int, raw: RawPayload) -> HandSettled:
        """At a table with an award, the settlement says the room's pool it found."""
        if self.jackpot_award() is None:
            return {"number": number}
        return {"number": number, "jackpot_pool": room_pool.pool_found(raw)}

    def apply_settled(self, payload: HandSettled) -> Outcome:
        if self.chinese is not None:
            return self._apply_chinese_settled(payload)
        hand, result = self.hand, self.result
        assert hand is not None and result is not None  # checked: the hand is complete
        assert self.preset is not None  # set when the table opened
        rake, ledger = self._pay_out(
            hand.number, self._seating(hand), hand.stacks_before, result.players, self.preset.rake
        )
        self._carry_fantasyland(hand, result)
        award = self.jackpot_award()
        if award is None:
            settled = SettledHand(
                hand.number, hand.button, hand.fantasyland, result, dict(rake.per_player), rake.jackpot
            )
            return Outcome(ledger, settled, pool_moves=room_pool.drop_moves(hand.number, rake.jackpot))
        assert isinstance(result, DealResult)  # scored by the core when the table has an award
        paid = room_pool.pay_award(
            self, hand.number, award, ofc_jackpot_pairs(result), result,
            self._seating(hand), payload.get("jackpot_pool", 0), rake.jackpot,
        )  # fmt: skip
        return self._settled_with_award(
            payload, (hand.number, hand.button, hand.fantasyland), rake, ledger, paid
        )

    def _settled_with_award(
        self,
        payload: HandSettled,
        hand: tuple[int, str, dict[str, int]],
        rake: RakeResult,
        ledger: tuple[LedgerEntry, ...],
        paid: room_pool.PaidJackpot,
    ) -> Outcome:
        scored: ScoredResult = paid.result
        settled = SettledHand(*hand, scored, dict(rake.per_player), rake.jackpot)
        moves: tuple[PoolMove, ...] = paid.moves
        return Outcome(
            ledger + paid.ledger, settled, pool_moves=moves, pool_before=payload.get("jackpot_pool", 0)
        )

    def _apply_chinese_settled(self, payload: HandSettled) -> Outcome:
        """Chips move as the core settled them, the rake is taken, the button moves (every hand)."""
        hand, result, preset = self.chinese_hand, self.chinese_result, self.chinese
        assert hand is not None and result is not None and preset is not None  # checked: complete
        rake, ledger = self._pay_out(
            hand.number, list(hand.stacks_before), hand.stacks_before, result.players, preset.rake
        )
        self.button_held = False
        self.button = self.next_clockwise(hand.button)
        if preset.jackpot_award is None:
            settled = SettledHand(hand.number, hand.button, {}, result, dict(rake.per_player), rake.jackpot)
            return Outcome(ledger, settled, pool_moves=room_pool.drop_moves(hand.number, rake.jackpot))
        paid = room_pool.pay_award(
            self, hand.number, preset.jackpot_award, chinese_jackpot_pairs(result), result,
            [player.name for player in result.players], payload.get("jackpot_pool", 0), rake.jackpot,
        )  # fmt: skip
        return self._settled_with_award(payload, (hand.number, hand.button, {}), rake, ledger, paid)

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

    def _carry_fantasyland(self, hand: HandState, result: ScoredHand) -> None:
        """Who plays the next hand in Fantasyland; hold the button or move it (docs/rules.md §6)."""
        going: list[str] = []
        for player in result.players:
            seat = self.seat(player.name)
            played_in = bool(hand.players[player.name].fantasyland_cards)
            seat.fantasyland_streak = seat.fantasyland_streak + 1 if played_in else 0
            seat.fantasyland_next = player.fantasyland_next
            if player.fantasyland_next:
                going.append(player.name)
        self.holds.hold_for(going, hand.players)
        self.button_held = bool(going)
        if not going:
            self.button = self.next_clockwise(hand.button)

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
