"""OFC as a table plays it (`base.TableGame`): the preset and variant the rules name, the streets
they deal, and the deck's limit on a hand with Fantasyland players."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ofc_desk.core.cards import DECK_SIZE
from ofc_desk.core.jackpot import JackpotAward
from ofc_desk.core.ofc.presets import RulesPreset
from ofc_desk.core.ofc.streets import StreetPlan, cards_needed
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.presets import Game, RakeRules
from ofc_desk.core.results import HandResult
from ofc_desk.i18n import LazyText, _
from ofc_desk.service.table.carry import CarryOver
from ofc_desk.service.table.games.base import ROW_ENTRY_KEYS, GameTable, HandDeal, LiveHand
from ofc_desk.service.table.games.ofc.carry import OfcCarry
from ofc_desk.service.table.games.ofc.live import FANTASYLAND_SET, OfcHand
from ofc_desk.service.table.games.ofc.scoring import check_rules
from ofc_desk.service.table.games.ofc.view import ofc_game_view
from ofc_desk.service.table.seats import Seat
from ofc_desk.service.table.view_parts import GameView
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import RawPayload
from ofc_desk.service.terms.setup import TableRules


@dataclass(frozen=True)
class OfcGame:
    """An OFC table's game: its preset, variant and street plan."""

    preset: RulesPreset
    variant: Variant
    plan: StreetPlan

    @classmethod
    def for_rules(cls, rules: TableRules) -> OfcGame:
        """The game the rules name, refused when the core would not score it."""
        preset, variant = check_rules(rules)
        return cls(preset, variant, StreetPlan.for_variant(variant, rules.last_three_face_down))

    @property
    def game(self) -> Game:
        return Game.OFC

    @property
    def label(self) -> LazyText:
        return self.variant.label

    @property
    def seat_limits(self) -> tuple[int, int]:
        return self.variant.structure.min_players, self.variant.structure.max_players

    @property
    def rake(self) -> RakeRules:
        return self.preset.rake

    @property
    def jackpot_award(self) -> JackpotAward | None:
        return self.preset.jackpot_award

    def shown_result(self, result: HandResult) -> HandResult:
        return result  # a royalty is always paid where it stands

    @property
    def entry(self) -> EventKind:
        return EventKind.PLACED

    entry_kinds = frozenset(FANTASYLAND_SET)  # a street, a Fantasyland set revealed

    @property
    def action_keys(self) -> tuple[str, ...]:
        return ROW_ENTRY_KEYS

    def nothing_to_settle(self) -> ActionRefused:
        return ActionRefused(_("there is no hand to settle"))

    def check_deal(self, playing: Sequence[Seat], carried: CarryOver) -> None:
        owed = OfcCarry.of(carried).fantasyland_next
        needed = cards_needed(self.plan, [owed.get(seat.name, 0) for seat in playing])
        if needed > DECK_SIZE:
            raise ActionRefused(_("the deck cannot deal {count} cards to these players").format(count=needed))

    def start(self, deal: HandDeal) -> OfcHand:
        """The hand dealt, those owed a Fantasyland hand playing it with their cards."""
        carried = OfcCarry.of(deal.carried)
        fantasyland = {name: cards for name in deal.order if (cards := carried.fantasyland_next.get(name, 0))}
        return OfcHand(
            deal.number, deal.button, deal.order, fantasyland, deal.stacks, self.plan, self.variant,
            self.preset, carried, pays_award=self.jackpot_award is not None,
        )  # fmt: skip

    def entry_kind(self, live: LiveHand | None, raw: RawPayload) -> EventKind:
        """A street, or the whole set of a player in Fantasyland."""
        player = live.players.get(str(raw.get("player"))) if isinstance(live, OfcHand) else None
        return EventKind.REVEALED if player is not None and player.fantasyland_cards else EventKind.PLACED

    def view(self, table: GameTable, live: LiveHand | None) -> GameView:
        hand = live if isinstance(live, OfcHand) else None
        return ofc_game_view(table, self.preset, self.variant, hand)
