"""The pure state machine of a table: folds events into the live state and checks every action.

No database here. `check(kind, raw)` refuses an action with the dealer's sentence or returns its
canonical payload; `apply(kind, payload)` re-checks it and changes the state, returning the derived
rows (`Outcome`) that storage keeps beside the event. Folding a session's events through `apply`
rebuilds the table exactly, which is how a desk resumes and how `verify` re-checks history.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any, ClassVar

from ofc_desk.core.jackpot import JackpotAward
from ofc_desk.core.rake import RakeResult
from ofc_desk.core.seating import next_button
from ofc_desk.i18n import LazyText, _
from ofc_desk.service.room import room_pool
from ofc_desk.service.room.requests import FloorRequest
from ofc_desk.service.table import actions, dealers, rule_pins, seats, supervision
from ofc_desk.service.table.actions import SUPERVISED
from ofc_desk.service.table.actions.hand import dealer_of, in_play, live_hand
from ofc_desk.service.table.actions.spec import CheckedAction, Spec
from ofc_desk.service.table.carry import NOTHING_CARRIED, CarryOver
from ofc_desk.service.table.corrections import HandTrace
from ofc_desk.service.table.games.base import (
    CheckedEntry,
    HandDeal,
    HandScorer,
    LiveHand,
    SettledResult,
    TableGame,
)
from ofc_desk.service.table.games.choose import game_for
from ofc_desk.service.table.hand_traces import HandTraces
from ofc_desk.service.table.rule_pins import PinnedPresets
from ofc_desk.service.table.seats import Seat
from ofc_desk.service.table.view import build_snapshot
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.outcome import NO_ROWS, Outcome
from ofc_desk.service.terms.payloads import (
    EventPayload,
    RawPayload,
)
from ofc_desk.service.terms.setup import TableRules
from ofc_desk.service.terms.snapshot import Phase, TableSnapshot


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
        self.hand_traces: MutableMapping[int, HandTrace] = HandTraces()
        """What each settled hand needs to be dealt again from corrected entries (`corrections`)."""
        self.hand_entries: list[EventPayload] = []
        """The live hand's entries in order, undone ones taken out."""
        self.requests: dict[int, FloorRequest] = {}
        self.phase_waived = False
        """While a request to the floor is checked: what it asks for is done between hands."""
        self.carried: CarryOver = NOTHING_CARRIED
        """What the game carried over from the last settled hand to the next (`carry`); the machine
        hands it to the next hand's deal and never reads it."""
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
        playing = [seat.name for seat in in_play(self)]
        return dealer_of(self, playing) if playing else None

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
        return self.checked(kind, raw).payload

    def checked(self, kind: EventKind, raw: RawPayload) -> CheckedAction:
        """An acceptable action, checked by its kind's spec: its canonical payload and the apply
        `apply_checked` folds it in with; or `ActionRefused` saying why not."""
        if kind in SUPERVISED and not supervision.approver(raw).strip():
            self._refuse_unless_open(kind)
            raise ActionRefused(_("a floor supervisor must approve this"))
        # `_checked`, spelt out: `verify` checks every event of a long session here, and at an open
        # table `_refuse_unless_open` refuses nothing.
        if not self.opened or self.closed:
            self._refuse_unless_open(kind)
        return self._specs[kind].checked(self, raw)

    def check_before_approval(self, kind: EventKind, raw: RawPayload) -> EventPayload:
        """Like `check`, but a supervised action that names no supervisor yet is checked as if one
        approved it: whether the desk should offer it before asking for a PIN."""
        return self._checked(kind, raw).payload

    def _checked(self, kind: EventKind, raw: RawPayload) -> CheckedAction:
        self._refuse_unless_open(kind)
        return self._specs[kind].checked(self, raw)

    def apply(self, kind: EventKind, payload: RawPayload, actor: str = "") -> Outcome:
        """Re-check a stored or new event and fold it into the state; `actor`, when given, is who
        recorded it: a dealer's event says who is dealing."""
        return self.apply_checked(self.checked(kind, payload), actor)

    def apply_checked(self, checked: CheckedAction, actor: str = "") -> Outcome:
        """Fold in an action `checked` has just accepted at this machine (no second check)."""
        if checked.at is not self:
            raise ValueError(f"{checked.kind.value} was checked at another table")
        if actor and checked.kind not in dealers.NOT_THE_DEALERS:
            self.dealer_on_duty = actor
        return checked.fold()

    def check_typing(self, kind: EventKind, player: str, cards: object, rows: object) -> None:
        """Refuse an entry of `kind` being typed as soon as what is typed so far breaks a rule."""
        live_hand(self, kind).check_typing(kind, player, cards, rows)

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
    def check_entry(self, kind: EventKind, raw: RawPayload) -> CheckedEntry:
        return live_hand(self, kind).check_event(kind, raw)

    def apply_entry(self, kind: EventKind, entry: CheckedEntry) -> Outcome:
        live = live_hand(self, kind)
        entry.apply()
        self.hand_entries.append(entry.payload)
        if live.complete:
            self.result = live.score(self.rules, self.seats, self.scorer)
        return NO_ROWS

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
            state = self.live.phase_words if self.live is not None and phase is Phase.LIVE else phase.label
            raise ActionRefused(said.format(what=what, number=self.hands_started, state=state))

    _specs: ClassVar[Mapping[EventKind, Spec[TableMachine]]] = actions.SPEC_OF
