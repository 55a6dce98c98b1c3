"""Chinese poker as a table plays it (`base.TableGame`, docs/rules.md §10): the preset the rules
name, two to four players, a showdown entered for each."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ofc_desk.core.chinese.bonus_paid import BonusPaid, mark_paid
from ofc_desk.core.chinese.deal import MAX_PLAYERS, MIN_PLAYERS
from ofc_desk.core.chinese.deal_input import read_chinese_preset
from ofc_desk.core.chinese.payment import PaymentRules
from ofc_desk.core.chinese.presets import ChinesePreset
from ofc_desk.core.chinese.specials import SpecialKind
from ofc_desk.core.deal_input import DealInputError, read_choice, read_pair_units
from ofc_desk.core.jackpot import JackpotAward
from ofc_desk.core.presets import Game, RakeRules
from ofc_desk.core.results import HandResult
from ofc_desk.core.settlement import SettleFrom, SettlementPolicy
from ofc_desk.i18n import LazyText, _
from ofc_desk.service.table.carry import CarryOver
from ofc_desk.service.table.games.base import ROW_ENTRY_KEYS, GameTable, HandDeal, LiveHand, PlayedTable
from ofc_desk.service.table.games.chinese.play import ChineseHandState
from ofc_desk.service.table.games.chinese.view import chinese_game_view
from ofc_desk.service.table.seats import Seat
from ofc_desk.service.table.view_parts import GameView
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import RawPayload
from ofc_desk.service.terms.setup import TableRules


def no_showdown_being_entered() -> ActionRefused:
    """A Chinese poker showdown given while no hand of Chinese poker is being entered (between
    hands, or at a table of another game), and a settlement between hands."""
    return ActionRefused(_("no Chinese poker hand is being entered: start the next hand"))


def check_chinese_rules(rules: TableRules) -> ChinesePreset:
    """Refuse Chinese rules the core would not score; give the preset they name."""
    if rules.scoring is not None or rules.progressive or rules.last_three_face_down:
        raise ActionRefused(_("rules: scoring, progressive and the last 3 cards face down are OFC options"))
    try:
        preset = read_chinese_preset(rules.preset, rules.house_options)
        data = rules.to_json()
        read_choice(data, "settlement", SettlementPolicy, SettlementPolicy.WIN_CAP)
        read_choice(data, "settle_from", SettleFrom, SettleFrom.LEFT_OF_DEALER)
        named = sorted({name for pair in rules.pair_units for name in pair.players})
        read_pair_units(data["pair_units"], named)
    except DealInputError as error:
        raise ActionRefused(_("rules: {problem}").format(problem=error)) from None
    return preset


@dataclass(frozen=True)
class ChineseGame:
    preset: ChinesePreset

    @classmethod
    def for_rules(cls, rules: TableRules) -> ChineseGame:
        return cls(check_chinese_rules(rules))

    @property
    def game(self) -> Game:
        return Game.CHINESE

    @property
    def label(self) -> LazyText:
        return Game.CHINESE.label

    @property
    def seat_limits(self) -> tuple[int, int]:
        return MIN_PLAYERS, MAX_PLAYERS

    @property
    def rake(self) -> RakeRules:
        return self.preset.rake

    @property
    def jackpot_award(self) -> JackpotAward | None:
        return self.preset.jackpot_award

    def shown_result(self, result: HandResult) -> HandResult:
        return mark_paid(result, BonusPaid.of(self.preset.bonus_mode, self.preset.payment.payment))

    @property
    def entry(self) -> EventKind:
        return EventKind.SHOWN

    entry_kinds = frozenset({EventKind.SHOWN})  # each player's showdown

    @property
    def action_keys(self) -> tuple[str, ...]:
        return ROW_ENTRY_KEYS

    def nothing_to_settle(self) -> ActionRefused:
        return no_showdown_being_entered()

    def check_deal(self, playing: Sequence[Seat], carried: CarryOver) -> None:
        """Every seat's 13 cards fit the deck: the seat limits are the game's only limit."""

    def start(self, deal: HandDeal) -> ChineseHandState:
        return ChineseHandState(deal.number, deal.button, list(deal.order), deal.stacks, self.preset)

    def entry_kind(self, live: LiveHand | None, raw: RawPayload) -> EventKind:
        return EventKind.SHOWN

    def view(self, table: GameTable, live: LiveHand | None) -> GameView:
        hand = live if isinstance(live, ChineseHandState) else None
        return chinese_game_view(table, self.preset, hand)


def payment_rules(table: PlayedTable) -> PaymentRules | None:
    """How the table's Chinese preset pays (pairs, pool or single winner, with its numbers in
    units), for the settlement panel; None at another game's table."""
    game = table.game
    return game.preset.payment if isinstance(game, ChineseGame) else None


def plays_surrender(table: PlayedTable) -> bool:
    """Whether the table's Chinese preset plays a surrender at all: a `pool` or `single-winner`
    preset plays none, and a showdown's surrender is refused there with the reason (docs/rules.md
    §11); another game's table plays none."""
    game = table.game
    return isinstance(game, ChineseGame) and not game.preset.unplayed(surrender=True)


def specials_made(table: PlayedTable, cards: object) -> list[SpecialKind]:
    """The specials a Chinese hand's 13 cards make under the table's preset, most valuable first
    (none while a card is missing, or at another game's table): the desk offers them; the dealer
    declares one."""
    live = table.live
    return live.specials_made(cards) if isinstance(live, ChineseHandState) else []


def takes_showdown_from(table: PlayedTable, player: str) -> bool:
    """Whether the desk should take a showdown for `player` now: a Chinese hand is being entered
    and theirs is not yet."""
    live = table.live
    return isinstance(live, ChineseHandState) and not table.hand_settled and live.takes_showdown_from(player)
