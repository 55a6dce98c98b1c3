"""The pure state machine of a table: folds events into the live state and checks every action.

No database here. `check(kind, raw)` refuses an action with the dealer's sentence or returns its
canonical payload; `apply(kind, payload)` re-checks it and changes the state, returning the derived
rows (`Outcome`) that storage keeps beside the event. Folding a session's events through `apply`
rebuilds the table exactly, which is how a desk resumes and how `verify` re-checks history.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ofc_desk.core.deal import DealResult
from ofc_desk.core.presets import RulesPreset
from ofc_desk.core.rake import RakeResult, compute_rake
from ofc_desk.core.settlement import MAX_CHIPS
from ofc_desk.core.variants import Variant
from ofc_desk.service.errors import ActionRefused
from ofc_desk.service.events import SUPERVISED, EventKind
from ofc_desk.service.hand import DECK_SIZE, Entry, HandState, StreetPlan
from ofc_desk.service.holds import FantasylandHolds
from ofc_desk.service.outcome import LedgerEntry, Outcome, SettledHand
from ofc_desk.service.scoring_bridge import check_rules, score_hand
from ofc_desk.service.setup import TableRules
from ofc_desk.service.snapshot import Phase, TableSnapshot
from ofc_desk.service.view import build_snapshot

MAX_NAME_LENGTH = 80
_HAND_STATES = {
    Phase.LIVE: "live",
    Phase.WAITING_FOR_FANTASYLAND: "waiting for Fantasyland sets",
    Phase.AWAITING_SETTLEMENT: "awaiting settlement",
}


@dataclass
class Seat:
    name: str
    stack: int
    sitting_out: bool = False
    fantasyland_next: int = 0
    fantasyland_streak: int = 0
    """Fantasyland hands played in a row up to the last hand (for the consecutive cap)."""


Payload = dict[str, Any]


class TableMachine:
    def __init__(self) -> None:
        self.opened = False
        self.table = ""
        self.rules = TableRules()
        self.preset: RulesPreset | None = None
        self.variant = Variant.REGULAR
        self.seats: list[Seat] = []
        self.button: str | None = None
        self.button_held = False
        self.hand: HandState | None = None
        self.hand_settled = False
        self.result: DealResult | None = None
        self.rake: RakeResult | None = None
        self.hands_started = 0
        self.hand_changes: dict[int, dict[str, int]] = {}
        self.hand_jackpots: dict[int, int] = {}
        self.voided: set[int] = set()
        self.holds = FantasylandHolds()
        self.jackpot_pool = 0
        self.closed = False
        self._checked_entry: tuple[Payload, Entry] | None = None

    # ------------------------------------------------------------------ reading
    @property
    def phase(self) -> Phase:
        if self.closed:
            return Phase.CLOSED
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
        for seat in self.seats:
            if seat.name == name:
                return seat
        raise ActionRefused(f"there is no player called {name} at this table")

    def next_dealer(self) -> str | None:
        """Who deals the next hand if it started now."""
        playing = [seat.name for seat in self._playing()]
        return self._dealer(playing) if playing else None

    def snapshot(self, session_id: int, head_hash: str) -> TableSnapshot:
        return build_snapshot(self, session_id, head_hash)

    # ------------------------------------------------------------------ the two entry points
    def check(self, kind: EventKind, raw: Mapping[str, Any]) -> Payload:
        """The canonical payload of an acceptable action, or `ActionRefused` saying why not."""
        if kind is not EventKind.TABLE_OPENED:
            if not self.opened:
                raise ActionRefused("the table is not open")
            if self.closed:
                raise ActionRefused(f"the session at {self.table} is closed")
        if kind in SUPERVISED and not str(raw.get("supervisor") or "").strip():
            raise ActionRefused("a floor supervisor must approve this")
        payload = self._checkers[kind](self, dict(raw))
        if kind in SUPERVISED:
            payload["supervisor"] = str(raw["supervisor"])
        return payload

    def apply(self, kind: EventKind, payload: Payload) -> Outcome:
        """Re-check a stored or new event and fold it into the state."""
        return self.apply_checked(kind, self.check(kind, payload))

    def apply_checked(self, kind: EventKind, canonical: Payload) -> Outcome:
        """Fold in an event whose payload `check` has just returned (no second check)."""
        return self._appliers[kind](self, canonical)

    def check_place(self, player: str, cards: Any, rows: Any, *, partial: bool) -> Payload:
        return self._check_entry(player, cards, rows, partial=partial, fantasyland=False)

    def check_reveal(self, player: str, cards: Any, rows: Any, *, partial: bool) -> Payload:
        return self._check_entry(player, cards, rows, partial=partial, fantasyland=True)

    # ------------------------------------------------------------------ opening and rules
    def _check_opened(self, raw: Payload) -> Payload:
        if self.opened:
            raise ActionRefused(f"{self.table} is already open")
        table = str(raw.get("table") or "").strip()
        if not table:
            raise ActionRefused("a table needs a name")
        rules = _read_rules(raw.get("rules"))
        _, variant = check_rules(rules)
        seats = [
            {"name": _name(seat.get("name")), "buy_in": _chips(seat.get("buy_in"), "buy-in")}
            for seat in raw.get("seats") or []
        ]
        names = [seat["name"] for seat in seats]
        duplicate = next((name for name in names if names.count(name) > 1), None)
        if duplicate:
            raise ActionRefused(f"{duplicate} is seated twice")
        structure = variant.structure
        if not structure.min_players <= len(seats) <= structure.max_players:
            raise ActionRefused(
                f"{variant.value} seats {structure.min_players} to {structure.max_players}"
                f" players, not {len(seats)}"
            )
        button = str(raw.get("button") or "")
        if button not in names:
            raise ActionRefused(f"the button must be at one of the seats, not {button or 'nobody'}")
        return {"table": table, "seats": seats, "button": button, "rules": rules.to_json()}

    def _apply_opened(self, payload: Payload) -> Outcome:
        self.opened = True
        self.table = payload["table"]
        self._set_rules(TableRules.from_json(payload["rules"]))
        self.seats = [Seat(seat["name"], seat["buy_in"]) for seat in payload["seats"]]
        self.button = payload["button"]
        return Outcome(
            tuple(LedgerEntry(seat.name, "buy_in", seat.stack, note="opening") for seat in self.seats)
        )

    def _set_rules(self, rules: TableRules) -> None:
        self.preset, self.variant = check_rules(rules)
        self.rules = rules

    def _check_rules_changed(self, raw: Payload) -> Payload:
        self._require_between_hands("rules and stakes change")
        rules = _read_rules(raw.get("rules"))
        _, variant = check_rules(rules)
        self._refuse_if_fantasyland_changes(rules)
        most = variant.structure.max_players
        if len(self.seats) > most:
            raise ActionRefused(f"{variant.value} seats at most {most} players; {len(self.seats)} are seated")
        return {"rules": rules.to_json()}

    def _refuse_if_fantasyland_changes(self, rules: TableRules) -> None:
        """A Fantasyland hand already earned is dealt by the rules it was earned under, so what
        decides its cards (preset, house options, variant, progressive) waits until it is played;
        stakes and settlement may change."""
        owed = [f"{s.name} ({s.fantasyland_next} cards)" for s in self.seats if s.fantasyland_next]
        if owed and not rules.deals_like(self.rules):
            raise ActionRefused(
                "the preset, house options and variant stay until the Fantasyland hands owed are"
                f" played: {', '.join(owed)}"
            )

    def _apply_rules_changed(self, payload: Payload) -> Outcome:
        self._set_rules(TableRules.from_json(payload["rules"]))
        return Outcome()

    def _check_closed(self, raw: Payload) -> Payload:
        self._require_between_hands("the session closes")
        return {}

    def _apply_closed(self, payload: Payload) -> Outcome:
        self.closed = True
        return Outcome(closes_session=True)

    # ------------------------------------------------------------------ the hand
    def _check_started(self, raw: Payload) -> Payload:
        self._require_between_hands("a new hand is dealt")
        playing = self._playing()
        for seat in playing:
            if seat.stack <= 0:
                raise ActionRefused(f"{seat.name} has no chips: rebuy or sit out")
        structure = self.variant.structure
        if len(playing) < structure.min_players:
            raise ActionRefused(
                f"{self.variant.value} needs at least {structure.min_players} players in their"
                f" seats; {len(playing)} can play"
            )
        if len(playing) > structure.max_players:
            raise ActionRefused(f"{self.variant.value} deals to at most {structure.max_players} players")
        plan = self._plan()
        needed = sum(seat.fantasyland_next or plan.cards_per_player for seat in playing)
        if needed > DECK_SIZE:
            raise ActionRefused(f"the deck cannot deal {needed} cards to these players")
        return {"number": self.hands_started + 1}

    def _apply_started(self, payload: Payload) -> Outcome:
        playing = [seat.name for seat in self._playing()]
        dealer = self._dealer(playing)
        at = playing.index(dealer)
        order = playing[at + 1 :] + playing[: at + 1]
        fantasyland = {s.name: s.fantasyland_next for s in self._playing() if s.fantasyland_next}
        stacks = {seat.name: seat.stack for seat in self._playing()}
        self.button = dealer
        self.hands_started = payload["number"]
        self.hand = HandState(
            payload["number"], dealer, order, fantasyland, stacks, self._plan(), self.variant
        )
        self.hand_settled = False
        self.result = None
        self.rake = None
        return Outcome()

    def _plan(self) -> StreetPlan:
        return StreetPlan.for_variant(self.variant, self.rules.last_three_face_down)

    def _dealer(self, playing: list[str]) -> str:
        """The button holder, or the next player clockwise if the holder is not playing."""
        names = [seat.name for seat in self.seats]
        start = names.index(self.button) if self.button in names else 0
        for step in range(len(names)):
            name = names[(start + step) % len(names)]
            if name in playing:
                return name
        raise ActionRefused("nobody can deal")

    def _check_entry(
        self, player: str, cards: Any, rows: Any, *, partial: bool, fantasyland: bool
    ) -> Payload:
        hand = self._live_hand()
        entry = hand.check_entry(player, cards, rows, partial=partial, fantasyland=fantasyland)
        payload = entry.to_json()
        self._checked_entry = (payload, entry)
        return payload

    def _check_placed(self, raw: Payload) -> Payload:
        return self._check_entry(
            str(raw.get("player")),
            raw.get("cards") or [],
            raw.get("rows") or [],
            partial=False,
            fantasyland=False,
        )

    def _check_revealed(self, raw: Payload) -> Payload:
        return self._check_entry(
            str(raw.get("player")),
            raw.get("cards") or [],
            raw.get("rows") or [],
            partial=False,
            fantasyland=True,
        )

    def _apply_entry(self, payload: Payload) -> Outcome:
        hand = self._live_hand()
        hand.apply(self._entry_of(payload))
        if hand.complete:
            self.result = score_hand(hand, self._seating(hand), self.rules, self._streaks(hand))
        return Outcome()

    def _entry_of(self, payload: Payload) -> Entry:
        """The entry a payload holds; the one just checked is not read a second time (every
        street is checked, then applied: `verify` does it for every street of a session)."""
        if self._checked_entry is not None and self._checked_entry[0] == payload:
            return self._checked_entry[1]
        return Entry.from_json(payload)

    def _check_undone(self, raw: Payload) -> Payload:
        hand = self._live_hand()
        if not hand.entries:
            raise ActionRefused(f"nothing to undo in hand {hand.number}")
        entry = hand.entries[-1]
        return {"undone": entry.to_json()}

    def _apply_undone(self, payload: Payload) -> Outcome:
        self._live_hand().undo()
        self.result = None
        return Outcome()

    def _live_hand(self) -> HandState:
        if self.hand is None or self.hand_settled:
            raise ActionRefused("no hand is being dealt: start the next hand")
        return self.hand

    def _seating(self, hand: HandState) -> list[str]:
        return [seat.name for seat in self.seats if seat.name in hand.players]

    def _streaks(self, hand: HandState) -> dict[str, int]:
        return {name: self.seat(name).fantasyland_streak + 1 for name in hand.fantasyland}

    # ------------------------------------------------------------------ settlement
    def _check_settled(self, raw: Payload) -> Payload:
        if self.hand is None or self.hand_settled:
            raise ActionRefused("there is no hand to settle")
        turn = self.hand.turn()
        if turn is not None:
            raise ActionRefused(f"hand {self.hand.number} is not finished: {turn.describe}")
        return {"number": self.hand.number}

    def _apply_settled(self, payload: Payload) -> Outcome:
        hand, result = self.hand, self.result
        assert hand is not None and result is not None  # checked: the hand is complete
        seating = self._seating(hand)
        for player in result.players:
            self.seat(player.name).stack = player.stack_after
        net_wins = {p.name: p.stack_after - p.stack_before for p in result.players}
        assert self.preset is not None  # set when the table opened
        stacks = {name: self.seat(name).stack for name in seating}
        rake = compute_rake(self.preset.rake, stacks, net_wins)
        for name, chips in rake.per_player.items():
            self.seat(name).stack -= chips
        changes = {name: self.seat(name).stack - hand.stacks_before[name] for name in seating}
        if sum(changes.values()) + rake.total != 0:
            raise ActionRefused(f"hand {hand.number}: chips are not conserved")
        self.jackpot_pool += rake.jackpot
        self.hand_changes[hand.number] = changes
        self.hand_jackpots[hand.number] = rake.jackpot
        self._carry_fantasyland(hand, result)
        self.hand_settled = True
        self.rake = rake
        ledger = [
            LedgerEntry(name, "hand", changes[name] + rake.per_player.get(name, 0), hand.number)
            for name in seating
        ] + [LedgerEntry(name, "rake", -chips, hand.number) for name, chips in rake.per_player.items()]
        settled = SettledHand(
            hand.number,
            hand.button,
            hand.fantasyland,
            result.to_json(),
            dict(rake.per_player),
            rake.jackpot,
        )
        return Outcome(tuple(ledger), settled)

    def _carry_fantasyland(self, hand: HandState, result: DealResult) -> None:
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
            self.button = self._next_clockwise(hand.button)

    def _next_clockwise(self, name: str) -> str:
        names = [seat.name for seat in self.seats]
        at = names.index(name)
        for step in range(1, len(names) + 1):
            seat = self.seats[(at + step) % len(names)]
            if not seat.sitting_out:
                return seat.name
        return name

    # ------------------------------------------------------------------ between hands
    def _require_between_hands(self, what: str) -> None:
        phase = self.phase
        if phase not in (Phase.BETWEEN_HANDS, Phase.SETTLED):
            assert self.hand is not None
            state = _HAND_STATES[phase]
            raise ActionRefused(f"{what} only between hands: hand {self.hand.number} is {state}")

    def _playing(self) -> list[Seat]:
        return [seat for seat in self.seats if not seat.sitting_out]

    def _check_joined(self, raw: Payload) -> Payload:
        self._require_between_hands("players join")
        name = _name(raw.get("player"))
        buy_in = _chips(raw.get("buy_in"), "buy-in")
        if any(seat.name == name for seat in self.seats):
            raise ActionRefused(f"there is already a player called {name} at this table")
        most = self.variant.structure.max_players
        if len(self.seats) >= most:
            raise ActionRefused(f"the table is full: {self.variant.value} seats at most {most}")
        after = raw.get("after")
        if after:
            after = self.seat(str(after)).name
        elif self.seats:
            after = self.seats[-1].name
        # else: the first seat of a table everyone has left (after None)
        return {"player": name, "buy_in": buy_in, "after": after}

    def _apply_joined(self, payload: Payload) -> Outcome:
        names = [seat.name for seat in self.seats]
        at = names.index(payload["after"]) + 1 if payload["after"] is not None else 0
        self.seats.insert(at, Seat(payload["player"], payload["buy_in"]))
        return Outcome((LedgerEntry(payload["player"], "buy_in", payload["buy_in"]),))

    def _check_rebought(self, raw: Payload) -> Payload:
        self._require_between_hands("rebuys")
        seat = self.seat(str(raw.get("player")))
        return {"player": seat.name, "amount": _chips(raw.get("amount"), "rebuy")}

    def _apply_rebought(self, payload: Payload) -> Outcome:
        self.seat(payload["player"]).stack += payload["amount"]
        return Outcome((LedgerEntry(payload["player"], "rebuy", payload["amount"]),))

    def _check_cashed_out(self, raw: Payload) -> Payload:
        self._require_between_hands("cash-outs")
        seat = self.seat(str(raw.get("player")))
        self.holds.refuse_if_held(seat.name, seat.stack, "leave")
        return {"player": seat.name, "amount": seat.stack}

    def _apply_cashed_out(self, payload: Payload) -> Outcome:
        name = payload["player"]
        if self.button == name and len(self.seats) > 1:
            self.button = self._next_clockwise(name)
        self.seats.remove(self.seat(name))
        self.holds.release(name)
        return Outcome((LedgerEntry(name, "cash_out", -payload["amount"]),))

    def _check_sat_out(self, raw: Payload) -> Payload:
        self._require_between_hands("players sit out")
        seat = self.seat(str(raw.get("player")))
        if seat.sitting_out:
            raise ActionRefused(f"{seat.name} is already sitting out")
        self.holds.refuse_if_held(seat.name, seat.stack, "sit out")
        return {"player": seat.name}

    def _apply_sat_out(self, payload: Payload) -> Outcome:
        seat = self.seat(payload["player"])
        seat.sitting_out = True
        seat.fantasyland_next = 0
        seat.fantasyland_streak = 0
        self.holds.release(seat.name)
        return Outcome()

    def _check_sat_in(self, raw: Payload) -> Payload:
        self._require_between_hands("players sit in")
        seat = self.seat(str(raw.get("player")))
        if not seat.sitting_out:
            raise ActionRefused(f"{seat.name} is not sitting out")
        return {"player": seat.name}

    def _apply_sat_in(self, payload: Payload) -> Outcome:
        self.seat(payload["player"]).sitting_out = False
        return Outcome()

    # ------------------------------------------------------------------ supervisor actions
    def _check_voided(self, raw: Payload) -> Payload:
        self._require_between_hands("hands are voided")
        number = raw.get("hand")
        if isinstance(number, bool) or not isinstance(number, int) or number not in self.hand_changes:
            raise ActionRefused(f"there is no settled hand {number} to void")
        if number in self.voided:
            raise ActionRefused(f"hand {number} is already voided")
        for name, change in self.hand_changes[number].items():
            seat = next((seat for seat in self.seats if seat.name == name), None)
            if seat is None:
                raise ActionRefused(f"{name} has left the table: hand {number} cannot be voided")
            if seat.stack - change < 0:
                raise ActionRefused(
                    f"voiding hand {number} would leave {name} with {seat.stack - change} chips"
                )
        return {"hand": number, "reason": str(raw.get("reason") or "")}

    def _apply_voided(self, payload: Payload) -> Outcome:
        number = payload["hand"]
        self.voided.add(number)
        self.jackpot_pool -= self.hand_jackpots[number]
        ledger = []
        for name, change in self.hand_changes[number].items():
            self.seat(name).stack -= change
            if change:
                ledger.append(LedgerEntry(name, "void", -change, number, payload["reason"]))
        return Outcome(tuple(ledger))

    def _check_corrected(self, raw: Payload) -> Payload:
        self._require_between_hands("chip corrections")
        seat = self.seat(str(raw.get("player")))
        amount = raw.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool) or not 0 < abs(amount) <= MAX_CHIPS:
            limit = f"{MAX_CHIPS:,}"
            raise ActionRefused(f"a correction is a whole number of chips, not 0, up to {limit} each way")
        if seat.stack + amount < 0:
            raise ActionRefused(f"{seat.name} has only {seat.stack} chips")
        reason = str(raw.get("reason") or "").strip()
        if not reason:
            raise ActionRefused("a chip correction needs a reason")
        return {"player": seat.name, "amount": amount, "reason": reason}

    def _apply_corrected(self, payload: Payload) -> Outcome:
        self.seat(payload["player"]).stack += payload["amount"]
        entry = LedgerEntry(payload["player"], "correction", payload["amount"], note=payload["reason"])
        return Outcome((entry,))

    _checkers: ClassVar[dict[EventKind, Callable[[TableMachine, Payload], Payload]]] = {
        EventKind.TABLE_OPENED: _check_opened,
        EventKind.HAND_STARTED: _check_started,
        EventKind.PLACED: _check_placed,
        EventKind.REVEALED: _check_revealed,
        EventKind.UNDONE: _check_undone,
        EventKind.HAND_SETTLED: _check_settled,
        EventKind.JOINED: _check_joined,
        EventKind.REBOUGHT: _check_rebought,
        EventKind.CASHED_OUT: _check_cashed_out,
        EventKind.SAT_OUT: _check_sat_out,
        EventKind.SAT_IN: _check_sat_in,
        EventKind.HAND_VOIDED: _check_voided,
        EventKind.CHIPS_CORRECTED: _check_corrected,
        EventKind.RULES_CHANGED: _check_rules_changed,
        EventKind.SESSION_CLOSED: _check_closed,
    }
    _appliers: ClassVar[dict[EventKind, Callable[[TableMachine, Payload], Outcome]]] = {
        EventKind.TABLE_OPENED: _apply_opened,
        EventKind.HAND_STARTED: _apply_started,
        EventKind.PLACED: _apply_entry,
        EventKind.REVEALED: _apply_entry,
        EventKind.UNDONE: _apply_undone,
        EventKind.HAND_SETTLED: _apply_settled,
        EventKind.JOINED: _apply_joined,
        EventKind.REBOUGHT: _apply_rebought,
        EventKind.CASHED_OUT: _apply_cashed_out,
        EventKind.SAT_OUT: _apply_sat_out,
        EventKind.SAT_IN: _apply_sat_in,
        EventKind.HAND_VOIDED: _apply_voided,
        EventKind.CHIPS_CORRECTED: _apply_corrected,
        EventKind.RULES_CHANGED: _apply_rules_changed,
        EventKind.SESSION_CLOSED: _apply_closed,
    }


def _read_rules(data: Any) -> TableRules:
    if not isinstance(data, Mapping):
        raise ActionRefused("rules: must be an object of rules keys")
    try:
        return TableRules.from_json(data)
    except (ValueError, TypeError, KeyError, IndexError) as error:
        raise ActionRefused(f"rules: {error}") from None


def _name(value: Any) -> str:
    name = str(value or "").strip()
    if not name:
        raise ActionRefused("a player needs a name")
    if len(name) > MAX_NAME_LENGTH:
        raise ActionRefused(f"a name has at most {MAX_NAME_LENGTH} characters")
    return name


def _chips(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_CHIPS:
        raise ActionRefused(f"a {what} is a whole number of chips from 1 to {MAX_CHIPS:,}, not {value}")
    return value
