"""An OFC hand as the machine plays it (`base.LiveHand`): streets and Fantasyland sets entered in
turn, scored by the core once the last is in; settling carries Fantasyland on and holds or moves
the button (docs/rules.md §6).

The rules are the core's (`ofc_desk.core.ofc.hand`); this module reads an action into the core's
entry, checked and applied as read, stores it as the `placed` or `revealed` event's payload, and
turns the core's refusals into `ActionRefused`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import cast

from ofc_desk.core.ofc.deal import Deal, DealResult, jackpot_pairs, score_deal
from ofc_desk.core.ofc.hand import Entry, EntryRefused, HandState, Stage
from ofc_desk.core.ofc.presets import RulesPreset
from ofc_desk.core.ofc.streets import StreetPlan
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import Game
from ofc_desk.i18n import LazyText, lazy_gettext
from ofc_desk.service.table.games.base import (
    CheckedEntry,
    GameTable,
    HandScorer,
    JackpotDeal,
    SettledResult,
    no_hand_being_dealt,
)
from ofc_desk.service.table.games.ofc.carry import OfcCarry
from ofc_desk.service.table.games.ofc.scoring import ScoredHand
from ofc_desk.service.table.games.ofc.view_parts import OfcTurn
from ofc_desk.service.table.seats import Seat
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import EntryPayload, RawPayload, Undone
from ofc_desk.service.terms.setup import TableRules
from ofc_desk.service.terms.snapshot import Phase, Turn

FANTASYLAND_SET = {EventKind.PLACED: False, EventKind.REVEALED: True}
"""The entries OFC plays: a street, or a Fantasyland set revealed."""

TURN_KINDS = {
    Stage.STREET: OfcTurn.STREET,
    Stage.FACE_DOWN_REVEAL: OfcTurn.FACE_DOWN_REVEAL,
    Stage.FANTASYLAND_SET: OfcTurn.FANTASYLAND_SET,
}
"""Each of the core's turns as the snapshot names it."""

WAITING_FOR_SETS = lazy_gettext("waiting for Fantasyland sets")
"""A live hand's phase while a Fantasyland set is due (`phase_words`): every regular hand is set."""


class OfcHand(HandState):
    """The core's `HandState` as the machine holds it: its events, its score and its settling."""

    def __init__(
        self,
        number: int,
        button: str,
        order: Sequence[str],
        fantasyland: dict[str, int],
        stacks_before: dict[str, int],
        plan: StreetPlan,
        variant: Variant,
        preset: RulesPreset,
        carried: OfcCarry,
        *,
        pays_award: bool = False,
    ) -> None:
        super().__init__(number, button, order, fantasyland, stacks_before, plan, variant)
        self.preset = preset
        """The table's preset, checked with its rules (`OfcGame`): the hand is scored by it."""
        self.carried = carried
        """What the hand before carried over: the Fantasyland streaks its score reads."""
        self.pays_award = pays_award
        """An award is paid from the scored pairs, which a stored result (verify's scorer) lacks."""

    @property
    def owed(self) -> dict[str, int]:
        """The Fantasyland hands it deals, by player: their cards."""
        return self.fantasyland

    @property
    def phase(self) -> Phase:
        return Phase.AWAITING_SETTLEMENT if self.turn() is None else Phase.LIVE

    @property
    def phase_words(self) -> LazyText:
        turn = self.turn()
        if turn is not None and self.players[turn.player].fantasyland_cards:
            return WAITING_FOR_SETS
        return self.phase.label

    def to_act(self) -> Turn | None:
        """Whose turn it is, as the snapshot shows it."""
        turn = self.turn()
        if turn is None:
            return None
        kind = TURN_KINDS[turn.stage]
        return Turn(turn.player, kind, turn.take, turn.place, turn.discard)

    def waiting(self) -> str:
        turn = self.to_act()
        return "" if turn is None else turn.describe

    def check_event(self, kind: EventKind, raw: RawPayload) -> CheckedEntry:
        """A street or a set checked; its apply takes the entry the check read (every street is
        checked, then applied: `verify` does it for every street of a session)."""
        fantasyland = FANTASYLAND_SET.get(kind)
        if fantasyland is None:
            raise no_hand_being_dealt()
        entry = self.check_typed(str(raw.get("player")), raw.get("cards"), raw.get("rows"), fantasyland)
        # Made in C, not by the named tuple's `__new__` (a Python call): one for every street.
        return tuple.__new__(CheckedEntry, (entry_payload(entry), partial(self.apply, entry)))

    def check_typed(
        self, player: str, cards: object, rows: object, fantasyland: bool, *, partial: bool = False
    ) -> Entry:
        try:
            entry = self.read_entry(player, cards, rows)
            self.verify_enter(entry, fantasyland=fantasyland, partial=partial)
        except EntryRefused as error:
            raise ActionRefused(str(error)) from None
        return entry

    def check_typing(self, kind: EventKind, player: str, cards: object, rows: object) -> None:
        fantasyland = FANTASYLAND_SET.get(kind)
        if fantasyland is None:
            raise no_hand_being_dealt()
        self.check_typed(player, cards, rows, fantasyland, partial=True)

    def last_entry(self) -> Undone:
        try:
            return {"undone": entry_payload(self.entry_to_undo())}
        except EntryRefused as error:
            raise ActionRefused(str(error)) from None

    def take_back(self) -> None:
        try:
            self.undo()
        except EntryRefused as error:
            raise ActionRefused(str(error)) from None

    def score(
        self, rules: TableRules, seats: Sequence[Seat], scorer: HandScorer[Deal] | None
    ) -> SettledResult:
        """Scored by the core, or by `verify`'s `scorer` unless the hand pays an award."""
        deal = self.deal(
            self.dealt_in(seats),
            self.preset,
            streaks={name: self.carried.streak(name) + 1 for name in self.fantasyland},
            scoring=rules.scoring,
            progressive=rules.progressive,
            **rules.settling_terms(),
        )
        if scorer is None or self.pays_award:
            return score_deal(deal)
        return scorer(Game.OFC, self.number, deal)

    def dealt_in(self, seats: Sequence[Seat]) -> list[str]:
        return [seat.name for seat in seats if seat.name in self.players]

    def after_settling(self, table: GameTable, result: SettledResult) -> None:
        """Who plays the next hand in Fantasyland; hold the button or move it (docs/rules.md §6)."""
        players = cast(ScoredHand, result).players
        going = {player.name: player.fantasyland_next for player in players if player.fantasyland_next}
        played_in = {player.name: bool(self.players[player.name].fantasyland_cards) for player in players}
        table.carried = OfcCarry.of(table.carried).after_hand(played_in, going)
        table.button_held = bool(going)
        if not going:
            table.button = table.next_clockwise(self.button)

    def jackpot_deal(self, result: SettledResult, seats: Sequence[Seat]) -> JackpotDeal:
        assert isinstance(result, DealResult)  # scored by the core when the table has an award
        return JackpotDeal(jackpot_pairs(result), result, self.dealt_in(seats))


def entry_payload(entry: Entry) -> EntryPayload:
    """An entry as the `placed` and `revealed` events store it."""
    return {
        "player": entry.player,
        "cards": [None if card is None else card.text for card in entry.cards],
        "rows": list(map(str, entry.rows)),
    }
