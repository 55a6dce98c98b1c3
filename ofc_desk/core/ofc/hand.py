"""An OFC hand being dealt (docs/rules.md §6–§7): who has which cards where, whose turn it is (the
regular players street by street in acting order, then the Fantasyland sets), and the checks on
every entry: how many cards a player takes, places and discards, room in the rows, a card not
entered twice.

An entry is read (`read_entry`), checked (`verify_enter`) and applied (`apply`); `undo` takes the
last one back. A refused entry raises `EntryRefused` and changes nothing.

>>> from ofc_desk.core.cards import parse_card
>>> plan = StreetPlan.for_variant(Variant.REGULAR, face_down_last=False)
>>> hand = HandState(1, "Bob", ("Ann", "Bob"), {}, {"Ann": 100, "Bob": 100}, plan, Variant.REGULAR)
>>> hand.turn()
OfcTurn(player='Ann', stage=<Stage.STREET: 1>, street=1, take=5, place=5, discard=0)
>>> entry = hand.read_entry("Bob", "Qs", "middle")
>>> hand.verify_enter(entry, fantasyland=False)
Traceback (most recent call last):
...
ofc_desk.core.rows.EntryRefused: it is Ann's turn, not Bob's
>>> entry = hand.read_entry("Ann", "Qs Qh 2c 3d 4s", "middle middle back back back")
>>> hand.verify_enter(entry, fantasyland=False)
>>> hand.apply(entry)
>>> str(hand.where(parse_card("Qs"))[1]), hand.turn().player
('middle', 'Bob')
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from ofc_desk.core.cards import UNKNOWN_TOKEN, Card, CardError, entered_twice, parse_entries
from ofc_desk.core.ofc.deal import Deal, SeatHand
from ofc_desk.core.ofc.presets import RulesPreset
from ofc_desk.core.ofc.streets import StreetPlan
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.rows import (
    DISCARD,
    HAND_SIZE,
    ROW_SIZE,
    ROWS,
    Placement,
    Row,
    SetHand,
    already_in,
    parse_row_words,
)
from ofc_desk.core.rows import EntryRefused as EntryRefused  # re-exported: the hand's refusal
from ofc_desk.core.settlement import SettleFrom, SettlementPolicy
from ofc_desk.i18n import _, ngettext


class Stage(Enum):
    """What a turn enters: a street, the face-down cards of the last street, a Fantasyland set."""

    STREET = 1
    FACE_DOWN_REVEAL = 2
    FANTASYLAND_SET = 3


class OfcTurn(NamedTuple):
    """Who must act now and with how many cards: take = place + discard. (A named tuple: `verify`
    works one out for every card entered in a long session.)"""

    player: str
    stage: Stage
    street: int
    """1-based; 0 for a Fantasyland set."""
    take: int
    place: int
    discard: int


class Entry(NamedTuple):
    """One accepted street or Fantasyland set: the cards (None = unknown) and where each went. (A
    named tuple: `verify` reads one for every card entered in a long session.)"""

    player: str
    cards: tuple[Card | None, ...]
    rows: tuple[Placement, ...]


@dataclass
class PlayerHand:
    """One player's part of a hand being dealt: rows, discards, entries."""

    name: str
    fantasyland_cards: int
    rows: dict[Row, list[Card]] = field(default_factory=lambda: {row: [] for row in ROWS})
    discards: list[Card | None] = field(default_factory=list)
    entries_made: int = 0

    @property
    def cards_taken(self) -> int:
        return sum(len(cards) for cards in self.rows.values()) + len(self.discards)


class HandState:
    """An OFC hand being dealt. `order` is the acting order: left of the dealer first, dealer last."""

    def __init__(
        self,
        number: int,
        button: str,
        order: Sequence[str],
        fantasyland: dict[str, int],
        stacks_before: dict[str, int],
        plan: StreetPlan,
        variant: Variant,
    ) -> None:
        self.number = number
        self.button = button
        self.order = tuple(order)
        self.players = {name: PlayerHand(name, fantasyland.get(name, 0)) for name in order}
        # Who plays streets and who sets a Fantasyland hand, each in acting order: fixed for the
        # hand, and read at every entry to find whose turn follows.
        self._regular = tuple(hand for hand in self.players.values() if not hand.fantasyland_cards)
        self._in_fantasyland = tuple(hand for hand in self.players.values() if hand.fantasyland_cards)
        self.stacks_before = stacks_before
        self.plan = plan
        self.variant = variant
        self.entries: list[Entry] = []
        self._locations: dict[int, tuple[str, Placement]] = {}
        """Who holds each card seen this hand, and where, by the card's `code` (an integer hashes in
        C, a card in Python: `verify` looks up every card of a long session); put in words only for
        a refusal."""
        # Whose turn it is changes only when an entry is applied or undone; an entry's check and
        # the look after it both ask, and `verify` asks for every event of a long session.
        self._turn: OfcTurn | None = None
        self._turn_known = False

    @property
    def fantasyland(self) -> dict[str, int]:
        return {p.name: p.fantasyland_cards for p in self.players.values() if p.fantasyland_cards}

    @property
    def cards_to_deal(self) -> int:
        return sum(p.fantasyland_cards or self.plan.cards_per_player for p in self.players.values())

    @property
    def cards_seen(self) -> int:
        return sum(player.cards_taken for player in self.players.values())

    @property
    def cards_dealt(self) -> int:
        """Cards out of the deck: those taken so far, and every Fantasyland hand dealt face down."""
        return sum(player.fantasyland_cards or player.cards_taken for player in self.players.values())

    @property
    def complete(self) -> bool:
        return self.turn() is None

    def turn(self) -> OfcTurn | None:
        """Regular players street by street in acting order; then Fantasyland sets in order."""
        if not self._turn_known:
            self._turn, self._turn_known = self._next_turn(), True
        return self._turn

    def _next_turn(self) -> OfcTurn | None:
        plan = self.plan
        streets = len(plan.takes)
        # The regular player furthest behind, the first in acting order among equals.
        behind: PlayerHand | None = None
        street = streets
        for player in self._regular:
            if player.entries_made < street:
                behind, street = player, player.entries_made
        if behind is not None:
            take, discard = plan.takes[street], plan.discards[street]
            face_down = plan.face_down_last and street == streets - 1
            stage = Stage.FACE_DOWN_REVEAL if face_down else Stage.STREET
            # Made in C: a named tuple's own `__new__` is a Python call (`verify` works out a turn
            # for every street of a long session).
            return tuple.__new__(OfcTurn, (behind.name, stage, street + 1, take, take - discard, discard))
        for player in self._in_fantasyland:
            if not player.entries_made:
                cards = player.fantasyland_cards
                return OfcTurn(player.name, Stage.FANTASYLAND_SET, 0, cards, HAND_SIZE, cards - HAND_SIZE)
        return None

    def deal(
        self,
        seating: Sequence[str],
        preset: RulesPreset,
        *,
        streaks: Mapping[str, int],
        scoring: str | None = None,
        progressive: bool = False,
        unit: int = 1,
        pair_units: Mapping[frozenset[str], int] | None = None,
        settlement: SettlementPolicy = SettlementPolicy.WIN_CAP,
        settle_from: SettleFrom = SettleFrom.LEFT_OF_DEALER,
    ) -> Deal:
        """The finished hand as a deal to score and settle: its players as `seating` lists them
        (clockwise), the pair units of two of them, and `streaks`, the Fantasyland hands each
        player in Fantasyland has played in a row, this one included."""
        turn = self.turn()
        if turn is not None:
            raise EntryRefused(_("{player}'s hand is not entered yet").format(player=turn.player))
        seated = frozenset(seating)
        return Deal(
            preset=preset,
            dealer=self.button,
            players=tuple(self._seat_hand(name) for name in seating),
            scoring=scoring,
            variant=self.variant,
            progressive=progressive,
            unit=unit,
            pair_units={pair: units for pair, units in (pair_units or {}).items() if pair <= seated},
            settlement=settlement,
            settle_from=settle_from,
            in_fantasyland=frozenset(name for name in seating if self.players[name].fantasyland_cards),
            fantasyland_streaks=dict(streaks),
        )

    def _seat_hand(self, name: str) -> SeatHand:
        rows = self.players[name].rows
        return SeatHand(name, self.stacks_before[name], SetHand(*(tuple(rows[row]) for row in ROWS)))

    def where(self, card: Card) -> tuple[str, Placement] | None:
        """Where a card already lies this hand: whose, and in which row or the discards."""
        return self._locations.get(card.code)

    # ------------------------------------------------------------------ checks
    def read_entry(self, player: str, cards: object, rows: object) -> Entry:
        """A player's cards (text such as "Qh Qd ??" or a list) and a row word for each, in canonical
        form; refused when the player is not dealt in or they cannot be read."""
        if player not in self.players:
            raise EntryRefused(
                _("{player} is not dealt into hand {number}").format(player=player, number=self.number)
            )
        # Made in C, as a turn is (`_next_turn`): one for every street `verify` reads.
        entry = tuple.__new__(Entry, (player, _read_cards(cards), _read_rows(rows)))
        if len(entry.cards) != len(entry.rows):
            raise EntryRefused(_cards_but_rows(len(entry.cards), len(entry.rows)))
        return entry

    def verify_enter(self, entry: Entry, *, fantasyland: bool, partial: bool = False) -> None:
        """Refuse an entry that breaks a rule: out of turn, a street for a Fantasyland set (or the
        other way round), the wrong counts (`partial`: a street still being typed may have fewer
        cards), a card already seen, a row with no room."""
        turn = self.turn()
        if turn is None:
            raise EntryRefused(
                _("hand {number} is complete: confirm the settlement").format(number=self.number)
            )
        self._check_turn(turn, entry.player, fantasyland)
        self._check_counts(turn, entry, partial)
        self._check_cards(entry)
        self._check_room(entry)

    def _check_turn(self, turn: OfcTurn, player: str, fantasyland: bool) -> None:
        in_fantasyland = bool(self.players[player].fantasyland_cards)
        if turn.player != player:
            if in_fantasyland:
                said = _(
                    "{player}'s Fantasyland set is entered after every other player has finished;"
                    " it is {turn}'s turn"
                )
                raise EntryRefused(said.format(player=player, turn=turn.player))
            raise EntryRefused(
                _("it is {turn}'s turn, not {player}'s").format(turn=turn.player, player=player)
            )
        if fantasyland and not in_fantasyland:
            raise EntryRefused(_("{player} is not in Fantasyland: enter the street").format(player=player))
        if in_fantasyland and not fantasyland:
            raise EntryRefused(
                _("{player} is in Fantasyland: enter the whole set at the reveal").format(player=player)
            )

    def _check_counts(self, turn: OfcTurn, entry: Entry, partial: bool) -> None:
        discards = entry.rows.count(DISCARD)
        placed = len(entry.rows) - discards
        fits = placed <= turn.place and discards <= turn.discard
        if turn.street == 1 and turn.stage is Stage.STREET and placed > turn.place:
            said = ngettext(
                "{count} card is the most on a first street",
                "{count} cards is the most on a first street",
                turn.place,
            )
            raise EntryRefused(said.format(count=turn.place))
        if not fits or (not partial and (placed, discards) != (turn.place, turn.discard)):
            raise EntryRefused(self._turn_rule(turn))
        # `is None`, card by card: `None in cards` would call a card's `__eq__` for each card.
        for card, row in zip(entry.cards, entry.rows, strict=True):
            if card is None and row != DISCARD:
                said = _("{unknown} can only be a discard: name each card placed in a row")
                raise EntryRefused(said.format(unknown=UNKNOWN_TOKEN))

    def _turn_rule(self, turn: OfcTurn) -> str:
        if turn.stage is Stage.FANTASYLAND_SET:
            if turn.discard:
                said = ngettext(
                    "Fantasyland: place {place} cards and discard {discard}",
                    "Fantasyland: place {place} cards and discard {discard}",
                    turn.place,
                )
                return said.format(place=turn.place, discard=turn.discard)
            said = ngettext(
                "Fantasyland: place all {place} cards", "Fantasyland: place all {place} cards", turn.place
            )
            return said.format(place=turn.place)
        if turn.stage is Stage.FACE_DOWN_REVEAL:
            said = ngettext("place the {take} face-down card", "place the {take} face-down cards", turn.take)
            return said.format(take=turn.take)
        if turn.street == 1:
            said = ngettext(
                "first street: place all {take} cards, no discard",
                "first street: place all {take} cards, no discard",
                turn.take,
            )
            return said.format(take=turn.take)
        if turn.discard:
            said = ngettext(
                "{variant}: place {place} card and discard {discard}",
                "{variant}: place {place} cards and discard {discard}",
                turn.place,
            )
            return said.format(variant=self.variant.label, place=turn.place, discard=turn.discard)
        said = ngettext(
            "{variant}: place {place} card, no discard",
            "{variant}: place {place} cards, no discard",
            turn.place,
        )
        return said.format(variant=self.variant.label, place=turn.place)

    def _check_cards(self, entry: Entry) -> None:
        seen: set[int] = set()
        locations = self._locations
        for card in entry.cards:
            if card is None:
                continue
            code = card.code
            if code in seen:
                raise EntryRefused(entered_twice(card))
            seen.add(code)
            location = locations.get(code)
            if location is not None:
                raise EntryRefused(already_in(card, *location))

    def _check_room(self, entry: Entry) -> None:
        rows, held = entry.rows, self.players[entry.player].rows
        for row in ROWS:
            adding = rows.count(row)
            if not adding:
                continue  # a street adds to one or two of the three rows
            holds = len(held[row])
            if holds + adding > ROW_SIZE[row]:
                if holds == ROW_SIZE[row]:
                    said = ngettext(
                        "{player}'s {row} already holds {count} card",
                        "{player}'s {row} already holds {count} cards",
                        holds,
                    )
                    raise EntryRefused(said.format(player=entry.player, row=row.label, count=holds))
                room = ROW_SIZE[row] - holds
                said = ngettext(
                    "{player}'s {row} has room for only {count} more card",
                    "{player}'s {row} has room for only {count} more cards",
                    room,
                )
                raise EntryRefused(said.format(player=entry.player, row=row.label, count=room))

    # ------------------------------------------------------------------ changes
    def apply(self, entry: Entry) -> None:
        """Put an entry `verify_enter` accepted into the hand (not checked again: `verify` applies
        every street of a long session)."""
        player = entry.player
        hand = self.players[player]
        rows, locations = hand.rows, self._locations
        for card, row in zip(entry.cards, entry.rows, strict=True):
            if isinstance(row, Row):
                assert card is not None  # checked: unknown cards are discards only
                rows[row].append(card)
            else:
                hand.discards.append(card)
            if card is not None:
                locations[card.code] = (player, row)
        hand.entries_made += 1
        self.entries.append(entry)
        self._turn_known = False

    def entry_to_undo(self) -> Entry:
        """The entry `undo` would take back: the last one applied; refused when there is none."""
        if not self.entries:
            raise EntryRefused(_("nothing to undo in hand {number}").format(number=self.number))
        return self.entries[-1]

    def undo(self) -> Entry:
        """Take the last entry back, as if it had never been applied."""
        entry = self.entry_to_undo()
        self.entries.pop()
        hand = self.players[entry.player]
        for card, row in reversed(list(zip(entry.cards, entry.rows, strict=True))):
            if row == DISCARD:
                hand.discards.pop()
            else:
                removed = hand.rows[Row(row)].pop()
                assert removed == card
            if card is not None:
                del self._locations[card.code]
        hand.entries_made -= 1
        self._turn_known = False
        return entry


def _cards_but_rows(cards: int, rows: int) -> str:
    """ "2 cards but 3 rows: give one row for each card" (the rows' count is said as a number alone:
    "1 rows" is the sentence the desk has always shown)."""
    said = ngettext(
        "{cards} card but {rows} rows: give one row for each card",
        "{cards} cards but {rows} rows: give one row for each card",
        cards,
    )
    return said.format(cards=cards, rows=rows)


def _read_cards(cards: object) -> tuple[Card | None, ...]:
    """Cards through the core's one funnel (`??` or null is an unknown discard)."""
    if not isinstance(cards, str | list | tuple):
        raise EntryRefused(_("cards must be given as text such as 'Qh Qd ??' or as a list"))
    try:
        return tuple(parse_entries(cards))
    except CardError as error:
        raise EntryRefused(str(error)) from None


def _read_rows(rows: object) -> tuple[Placement, ...]:
    if not isinstance(rows, str | list | tuple):
        raise EntryRefused(_("rows must be given as words such as 'front middle discard'"))
    words: Sequence[object] = rows.split() if isinstance(rows, str) else rows
    try:
        return parse_row_words(words)
    except ValueError as error:
        raise EntryRefused(str(error)) from None
