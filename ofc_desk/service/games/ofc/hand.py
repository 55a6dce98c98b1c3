"""One live hand: who has which cards where, whose turn it is, and the checks on every entry."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ofc_desk.core.cards import UNKNOWN_TOKEN, Card, CardError, entered_twice, parse_card, parse_entries
from ofc_desk.core.ofc.streets import StreetPlan
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.rows import DISCARD, HAND_SIZE, ROW_SIZE, ROWS, Placement, Row, already_in, parse_row_word
from ofc_desk.i18n import _, ngettext
from ofc_desk.service.errors import ActionRefused, nothing_to_undo
from ofc_desk.service.payloads import EntryPayload
from ofc_desk.service.snapshot import Turn, TurnKind


class Entry(NamedTuple):
    """One accepted street or Fantasyland set: the cards (None = unknown) and where each went. (A
    named tuple: `verify` reads one for every card entered in a long session.)"""

    player: str
    cards: tuple[Card | None, ...]
    rows: tuple[Placement, ...]

    def to_json(self) -> EntryPayload:
        return {
            "player": self.player,
            "cards": [None if card is None else card.text for card in self.cards],
            "rows": [str(row) for row in self.rows],
        }

    @classmethod
    def from_json(cls, data: EntryPayload) -> Entry:
        cards = tuple(None if card is None else parse_card(card) for card in data["cards"])
        return cls(str(data["player"]), cards, tuple(parse_row_word(row) for row in data["rows"]))


@dataclass
class PlayerHand:
    name: str
    fantasyland_cards: int
    rows: dict[Row, list[Card]] = field(default_factory=lambda: {row: [] for row in Row})
    discards: list[Card | None] = field(default_factory=list)
    entries_made: int = 0

    @property
    def cards_taken(self) -> int:
        return sum(len(cards) for cards in self.rows.values()) + len(self.discards)


class HandState:
    """A hand being dealt. `order` is the acting order: left of the dealer first, dealer last."""

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
        self.stacks_before = stacks_before
        self.plan = plan
        self.variant = variant
        self.entries: list[Entry] = []
        self._locations: dict[Card, tuple[str, Placement]] = {}
        """Who holds each card seen this hand, and where; put in words only for a refusal."""
        # Whose turn it is changes only when an entry is applied or undone; an entry's check and
        # the look after it both ask, and `verify` asks for every event of a long session.
        self._turn: Turn | None = None
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

    def turn(self) -> Turn | None:
        """Regular players street by street in acting order; then Fantasyland sets in order."""
        if not self._turn_known:
            self._turn, self._turn_known = self._next_turn(), True
        return self._turn

    def _next_turn(self) -> Turn | None:
        streets = len(self.plan.takes)
        # The regular player furthest behind, the first in acting order among equals.
        behind: PlayerHand | None = None
        for name in self.order:
            player = self.players[name]
            if player.fantasyland_cards or player.entries_made >= streets:
                continue
            if behind is None or player.entries_made < behind.entries_made:
                behind = player
        if behind is not None:
            player, street = behind, behind.entries_made
            take, discard = self.plan.takes[street], self.plan.discards[street]
            face_down = self.plan.face_down_last and street == streets - 1
            kind = TurnKind.FACE_DOWN_REVEAL if face_down else TurnKind.STREET
            return Turn(player.name, kind, street + 1, take, take - discard, discard)
        for name in self.order:
            player = self.players[name]
            if player.fantasyland_cards and not player.entries_made:
                cards = player.fantasyland_cards
                return Turn(name, TurnKind.FANTASYLAND_SET, 0, cards, HAND_SIZE, cards - HAND_SIZE)
        return None

    def where(self, card: Card) -> tuple[str, Placement] | None:
        """Where a card already lies this hand: whose, and in which row or the discards."""
        return self._locations.get(card)

    # ------------------------------------------------------------------ checks
    def check_entry(
        self, player: str, cards: object, rows: object, *, partial: bool, fantasyland: bool
    ) -> Entry:
        """Refuse an entry that breaks a rule; return it in canonical form."""
        if player not in self.players:
            raise ActionRefused(
                _("{player} is not dealt into hand {number}").format(player=player, number=self.number)
            )
        entry = Entry(player, _read_cards(cards), _read_rows(rows))
        if len(entry.cards) != len(entry.rows):
            raise ActionRefused(_cards_but_rows(len(entry.cards), len(entry.rows)))
        turn = self.turn()
        if turn is None:
            raise ActionRefused(
                _("hand {number} is complete: confirm the settlement").format(number=self.number)
            )
        self._check_turn(turn, player, fantasyland)
        self._check_counts(turn, entry, partial)
        self._check_cards(entry)
        self._check_room(entry)
        return entry

    def _check_turn(self, turn: Turn, player: str, fantasyland: bool) -> None:
        in_fantasyland = bool(self.players[player].fantasyland_cards)
        if turn.player != player:
            if in_fantasyland:
                said = _(
                    "{player}'s Fantasyland set is entered after every other player has finished;"
                    " it is {turn}'s turn"
                )
                raise ActionRefused(said.format(player=player, turn=turn.player))
            raise ActionRefused(
                _("it is {turn}'s turn, not {player}'s").format(turn=turn.player, player=player)
            )
        if fantasyland and not in_fantasyland:
            raise ActionRefused(_("{player} is not in Fantasyland: enter the street").format(player=player))
        if in_fantasyland and not fantasyland:
            raise ActionRefused(
                _("{player} is in Fantasyland: enter the whole set at the reveal").format(player=player)
            )

    def _check_counts(self, turn: Turn, entry: Entry, partial: bool) -> None:
        discards = entry.rows.count(DISCARD)
        placed = len(entry.rows) - discards
        fits = placed <= turn.place and discards <= turn.discard
        if turn.street == 1 and turn.kind is TurnKind.STREET and placed > turn.place:
            said = ngettext(
                "{count} card is the most on a first street",
                "{count} cards is the most on a first street",
                turn.place,
            )
            raise ActionRefused(said.format(count=turn.place))
        if not fits or (not partial and (placed, discards) != (turn.place, turn.discard)):
            raise ActionRefused(self._turn_rule(turn))
        if None in entry.cards and any(
            card is None and row != DISCARD for card, row in zip(entry.cards, entry.rows, strict=True)
        ):
            said = _("{unknown} can only be a discard: name each card placed in a row")
            raise ActionRefused(said.format(unknown=UNKNOWN_TOKEN))

    def _turn_rule(self, turn: Turn) -> str:
        if turn.kind is TurnKind.FANTASYLAND_SET:
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
        if turn.kind is TurnKind.FACE_DOWN_REVEAL:
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
        seen: set[Card] = set()
        for card in entry.cards:
            if card is None:
                continue
            if card in seen:
                raise ActionRefused(entered_twice(card))
            seen.add(card)
            location = self.where(card)
            if location is not None:
                raise ActionRefused(already_in(card, *location))

    def _check_room(self, entry: Entry) -> None:
        hand = self.players[entry.player]
        for row in ROWS:
            adding = entry.rows.count(row)
            holds = len(hand.rows[row])
            if adding and holds + adding > ROW_SIZE[row]:
                if holds == ROW_SIZE[row]:
                    said = ngettext(
                        "{player}'s {row} already holds {count} card",
                        "{player}'s {row} already holds {count} cards",
                        holds,
                    )
                    raise ActionRefused(said.format(player=entry.player, row=row.label, count=holds))
                room = ROW_SIZE[row] - holds
                said = ngettext(
                    "{player}'s {row} has room for only {count} more card",
                    "{player}'s {row} has room for only {count} more cards",
                    room,
                )
                raise ActionRefused(said.format(player=entry.player, row=row.label, count=room))

    # ------------------------------------------------------------------ changes
    def apply(self, entry: Entry) -> None:
        hand = self.players[entry.player]
        for card, row in zip(entry.cards, entry.rows, strict=True):
            if isinstance(row, Row):
                assert card is not None  # checked: unknown cards are discards only
                hand.rows[row].append(card)
            else:
                hand.discards.append(card)
            if card is not None:
                self._locations[card] = (entry.player, row)
        hand.entries_made += 1
        self.entries.append(entry)
        self._turn_known = False

    def undo(self) -> Entry:
        if not self.entries:
            raise nothing_to_undo(self.number)
        entry = self.entries.pop()
        hand = self.players[entry.player]
        for card, row in reversed(list(zip(entry.cards, entry.rows, strict=True))):
            if row == DISCARD:
                hand.discards.pop()
            else:
                removed = hand.rows[Row(row)].pop()
                assert removed == card
            if card is not None:
                del self._locations[card]
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
        raise ActionRefused(_("cards must be given as text such as 'Qh Qd ??' or as a list"))
    try:
        return tuple(parse_entries(cards))
    except CardError as error:
        raise ActionRefused(str(error)) from None


def _read_rows(rows: object) -> tuple[Placement, ...]:
    if not isinstance(rows, str | list | tuple):
        raise ActionRefused(_("rows must be given as words such as 'front middle discard'"))
    words: Iterable[object] = rows.split() if isinstance(rows, str) else rows
    try:
        return tuple([parse_row_word(str(word)) for word in words])
    except ValueError as error:
        raise ActionRefused(str(error)) from None
