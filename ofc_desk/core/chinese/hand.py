"""A Chinese poker hand at showdown (docs/rules.md §10): the dealer enters each player's hand, in
any order, as set rows, a surrender or a declared special; once every player has one, the hand is
a deal to score and settle.

Every entry has its `verify_enter` / `can_enter` / `enter` triple: a refused entry changes nothing.

>>> from ofc_desk.core.chinese.presets import load_chinese_preset
>>> typical = load_chinese_preset("chinese-typical")
>>> hand = ChineseHand(typical, ("Ann", "Bob"))
>>> hand = hand.enter("Bob", Entry.surrender())
>>> hand.can_enter("Bob", Entry.surrender()), hand.next_to_enter()
(False, 'Ann')
>>> rows = placed_rows("6s 6h 6d 4s 4h 4d 9s 9h Ks Kh Kd 8s 8h", "f f f m m m m m b b b b b")
>>> hand.enter("Ann", Entry.set_rows(rows)).complete
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ofc_desk.core.cards import Card, CardError, entered_twice, find_duplicate, parse_cards, split_tokens
from ofc_desk.core.chinese.deal import ChineseDeal, ChineseSeat
from ofc_desk.core.chinese.presets import ChinesePreset, SpecialRule
from ofc_desk.core.chinese.showdown import Entry
from ofc_desk.core.chinese.specials import HAND_CARDS, LooseBy, SpecialKind, loose_by
from ofc_desk.core.rows import DISCARD, ROW_SIZE, ROWS, Row, SetHand, already_in, parse_row_word
from ofc_desk.core.rows import EntryRefused as EntryRefused  # re-exported: the hand's refusal
from ofc_desk.core.settlement import SettleFrom, SettlementPolicy
from ofc_desk.i18n import _, lazy_gettext, ngettext

NOTHING_DISCARDED = lazy_gettext("a Chinese hand discards nothing: every card goes to front, middle or back")


def surrendered_with_cards(player: str) -> str:
    """The refusal of a surrender that also gives cards, rows or a declaration: a hand's action
    (`entry_from_action`) and a deal read whole (`deal_input`) say it alike."""
    return _("{player} surrendered: give no cards and no declaration").format(player=player)


def row_takes(row: Row, count: int) -> str:
    """ "the front takes 3 cards, not 4"."""
    said = ngettext(
        "the {row} takes {size} card, not {count}", "the {row} takes {size} cards, not {count}", row.size
    )
    return said.format(row=row.label, size=row.size, count=count)


def declared_special(preset: ChinesePreset, kind: Any, cards: Sequence[Card], player: str) -> SpecialRule:
    """The preset's special a player declares, refused when the preset does not pay it or the cards
    do not make it ("Bob's cards are not six pairs")."""
    refusal = preset.unplayed(declaration=True)
    if refusal:
        raise EntryRefused(refusal)
    try:
        special_kind = SpecialKind(kind)
    except ValueError:
        kinds = ", ".join(kind.value for kind in SpecialKind)
        raise EntryRefused(
            _("{kind} is not a special hand ({kinds})").format(kind=repr(kind), kinds=kinds)
        ) from None
    special = preset.special(special_kind)
    if special is None:
        listed = ", ".join(special.kind.value for special in preset.specials) or _("none")
        said = _("{preset} does not pay {special} (it lists: {listed})")
        raise EntryRefused(said.format(preset=preset.name, special=special_kind.label, listed=listed))
    if len(cards) != HAND_CARDS:
        said = _("a declaration needs the {needed} cards, not {count}")
        raise EntryRefused(said.format(needed=HAND_CARDS, count=len(cards)))
    if special.made_only_loosely(cards):
        raise EntryRefused(strictly_refused(player, special_kind, cards))
    if not special.made_by(cards):
        raise EntryRefused(
            _("{player}'s cards are not {special}").format(player=player, special=special_kind.label)
        )
    return special


def strictly_refused(player: str, kind: SpecialKind, cards: Sequence[Card]) -> str:
    """ "Ann's cards are six pairs only with trips: this table plays six pairs strictly" (§13)."""
    loose = loose_by(kind, cards)
    if loose is LooseBy.TRIPS:
        said = _("{player}'s cards are {special} only with trips: this table plays {special} strictly")
    elif loose is LooseBy.FOUR_OF_A_KIND:
        said = _(
            "{player}'s cards are {special} only with four of a kind: this table plays {special} strictly"
        )
    else:
        said = _(
            "{player}'s cards are {special} only with two rows of one suit: this table plays {special} "
            "strictly"
        )
    return said.format(player=player, special=kind.label)


def placed_rows(cards: Any, rows: Any) -> SetHand:
    """13 cards and a row word for each (`front`/`f`/`1`, `middle`, `back`), as the OFC entries
    spell them, into the three rows."""
    try:
        read = parse_cards(cards)
        words = [parse_row_word(str(word)) for word in split_tokens(rows)]
    except (CardError, ValueError) as error:
        raise EntryRefused(str(error)) from None
    if len(read) != HAND_CARDS or len(words) != HAND_CARDS:
        said = _("give {needed} cards and a row for each, not {cards} cards and {rows} rows")
        raise EntryRefused(said.format(needed=HAND_CARDS, cards=len(read), rows=len(words)))
    if DISCARD in words:
        raise EntryRefused(str(NOTHING_DISCARDED))
    by_row = {row: tuple(card for card, word in zip(read, words, strict=True) if word == row) for row in ROWS}
    for row in ROWS:
        if len(by_row[row]) != ROW_SIZE[row]:
            raise EntryRefused(row_takes(row, len(by_row[row])))
    return SetHand(by_row[Row.FRONT], by_row[Row.MIDDLE], by_row[Row.BACK])


def entry_from_action(preset: ChinesePreset, player: str, action: Mapping[str, Any]) -> Entry:
    """One player's showdown as a session script gives it: `{"cards", "rows"}`,
    `{"surrender": true}` or `{"declare", "cards"}`."""
    if action.get("surrender") is True:
        if "cards" in action or "declare" in action or "rows" in action:
            raise EntryRefused(surrendered_with_cards(player))
        return Entry.surrender()
    if "declare" in action:
        if "rows" in action:
            rows = placed_rows(action.get("cards", ""), action["rows"])
            return Entry.declare(
                declared_special(preset, action["declare"], rows.cards, player), rows.cards, rows
            )
        try:
            cards = parse_cards(action.get("cards", ""))
        except CardError as error:
            raise EntryRefused(str(error)) from None
        twice = find_duplicate(cards)
        if twice is not None:
            raise EntryRefused(entered_twice(twice))
        return Entry.declare(declared_special(preset, action["declare"], cards, player), cards)
    if "rows" not in action:
        raise EntryRefused(_("give the cards with their rows, a surrender or a declaration"))
    return Entry.set_rows(placed_rows(action.get("cards", ""), action["rows"]))


@dataclass(frozen=True)
class ChineseHand:
    """The showdown of one hand; `players` are the seats dealt in, clockwise from the dealer's left."""

    preset: ChinesePreset
    players: tuple[str, ...]
    entries: Mapping[str, Entry] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def complete(self) -> bool:
        return len(self.entries) == len(self.players)

    def next_to_enter(self) -> str | None:
        """The first player, clockwise from the dealer's left, whose hand is not entered yet."""
        return next((player for player in self.players if player not in self.entries), None)

    def already_in(self, card: Card) -> str | None:
        """The refusal for a card that already lies in this hand: "Qs is already in Ann's middle",
        "… in Bob's cards" (a declared hand); None when it lies nowhere yet."""
        for player, entry in self.entries.items():
            if entry.rows is not None:
                for row in ROWS:
                    if card in entry.rows.row(row):
                        return already_in(card, player, row)
            elif card in entry.cards:
                return already_in(card, player, None)
        return None

    def verify_enter(self, player: str, entry: Entry) -> None:
        self._verify_waiting(player)
        refusal = self.preset.unplayed(surrender=entry.surrendered, declaration=entry.declared is not None)
        if refusal:
            raise EntryRefused(refusal)
        self._verify_free(entry.cards)

    def verify_typing(self, player: str, placed: Sequence[tuple[Card | None, str]]) -> None:
        """Refuse a showdown being typed card by card as soon as a card cannot be part of it:
        `placed` holds each card (None: unknown) and its row word, in the order typed.

        >>> from ofc_desk.core.chinese.presets import load_chinese_preset
        >>> from ofc_desk.core.cards import parse_cards
        >>> hand = ChineseHand(load_chinese_preset("chinese-typical"), ("Ann", "Bob"))
        >>> hand.verify_typing("Ann", list(zip(parse_cards("2s 3s 4s 5s"), "ffff")))
        Traceback (most recent call last):
        ...
        ofc_desk.core.rows.EntryRefused: the front takes 3 cards, not 4
        """
        self._verify_waiting(player)
        filled: dict[Row, int] = dict.fromkeys(ROWS, 0)
        for card, word in placed:
            if card is None:
                raise EntryRefused(_("every card of a Chinese hand is entered face up: no unknown cards"))
            try:
                row = parse_row_word(word)
            except ValueError as error:
                raise EntryRefused(str(error)) from None
            if not isinstance(row, Row):
                raise EntryRefused(str(NOTHING_DISCARDED))
            filled[row] += 1
            if filled[row] > ROW_SIZE[row]:
                raise EntryRefused(row_takes(row, filled[row]))
        self._verify_free(tuple(card for card, _ in placed if card is not None))

    def _verify_waiting(self, player: str) -> None:
        if player not in self.players:
            raise EntryRefused(_("{player} is not dealt into this hand").format(player=player))
        if player in self.entries:
            raise EntryRefused(_("{player}'s hand is already entered: undo it first").format(player=player))

    def _verify_free(self, cards: Sequence[Card]) -> None:
        twice = find_duplicate(cards)
        if twice is not None:
            raise EntryRefused(entered_twice(twice))
        for card in cards:
            refusal = self.already_in(card)
            if refusal is not None:
                raise EntryRefused(refusal)

    def can_enter(self, player: str, entry: Entry) -> bool:
        try:
            self.verify_enter(player, entry)
        except EntryRefused:
            return False
        return True

    def enter(self, player: str, entry: Entry) -> ChineseHand:
        self.verify_enter(player, entry)
        return ChineseHand(self.preset, self.players, MappingProxyType({**self.entries, player: entry}))

    def withdraw(self, player: str) -> ChineseHand:
        """The hand without that player's entry: the undo of `enter`."""
        if player not in self.entries:
            raise EntryRefused(_("{player}'s hand is not entered").format(player=player))
        rest = {name: entry for name, entry in self.entries.items() if name != player}
        return ChineseHand(self.preset, self.players, MappingProxyType(rest))

    def deal(
        self,
        dealer: str,
        stacks: Mapping[str, int],
        *,
        unit: int = 1,
        pair_units: Mapping[frozenset[str], int] | None = None,
        settlement: SettlementPolicy = SettlementPolicy.WIN_CAP,
        settle_from: SettleFrom = SettleFrom.LEFT_OF_DEALER,
    ) -> ChineseDeal:
        """The finished hand as a deal to score and settle, once every player's hand is entered:
        the pair units of two of its players (a table's may name one not dealt in, which a deal
        read from its JSON form refuses)."""
        waiting = self.next_to_enter()
        if waiting is not None:
            raise EntryRefused(_("{player}'s hand is not entered yet").format(player=waiting))
        seats = tuple(ChineseSeat(player, stacks[player], self.entries[player]) for player in self.players)
        dealt_in = frozenset(self.players)
        return ChineseDeal(
            self.preset,
            dealer,
            seats,
            unit,
            {pair: units for pair, units in (pair_units or {}).items() if pair <= dealt_in},
            settlement=settlement,
            settle_from=settle_from,
        )
