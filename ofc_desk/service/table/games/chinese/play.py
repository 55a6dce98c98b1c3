"""A live Chinese poker hand at a table (docs/rules.md §10): the dealer enters each player's
showdown, in any order; once every player has one, the core scores and settles the hand.

The rules are the core's (`ofc_desk.core.chinese`); this module only keeps the hand's entries in
the order they were recorded (for undo) and turns them into the `shown` event's payload and back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Final, cast

from ofc_desk.core.cards import CardError, parse_cards, parse_entries, split_tokens
from ofc_desk.core.chinese.deal import ChineseDeal, ChineseDealResult, jackpot_pairs, score_chinese_deal
from ofc_desk.core.chinese.hand import ChineseHand, EntryRefused, entry_from_action
from ofc_desk.core.chinese.presets import ChinesePreset
from ofc_desk.core.chinese.showdown import Entry
from ofc_desk.core.chinese.specials import HAND_CARDS, SpecialKind
from ofc_desk.core.presets import Game
from ofc_desk.core.rows import ROWS
from ofc_desk.i18n import LazyText, _
from ofc_desk.service.table.games.base import (
    CheckedEntry,
    GameTable,
    HandScorer,
    JackpotDeal,
    SettledResult,
    no_hand_being_dealt,
)
from ofc_desk.service.table.seats import Seat
from ofc_desk.service.terms.errors import ActionRefused, nothing_to_undo
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import RawPayload, ShownPayload, Undone
from ofc_desk.service.terms.setup import TableRules
from ofc_desk.service.terms.snapshot import Phase

SHOWDOWN_KEYS: Final = ("surrender", "declare")
"""What a Chinese poker showdown says besides `player` (and `cards`, for a declaration)."""


class ChineseHandState:
    """One Chinese hand being entered (`base.LiveHand`): who deals, who plays (clockwise from the
    dealer's left), their stacks at the start, and the showdowns recorded so far."""

    def __init__(
        self, number: int, button: str, order: list[str], stacks: dict[str, int], preset: ChinesePreset
    ):
        self.number = number
        self.button = button
        self.stacks_before = stacks
        self.showdown = ChineseHand(preset, tuple(order))
        self.entries: list[ShownPayload] = []

    @property
    def complete(self) -> bool:
        return self.showdown.complete

    @property
    def phase(self) -> Phase:
        return Phase.AWAITING_SETTLEMENT if self.complete else Phase.LIVE

    @property
    def phase_words(self) -> LazyText:
        return self.phase.label

    @property
    def owed(self) -> dict[str, int]:
        return {}  # Chinese poker carries nothing from one hand to the next

    def waiting(self) -> str:
        """The status line while hands are missing: "waiting for Bob's and Cy's hands"."""
        missing = [player for player in self.showdown.players if player not in self.showdown.entries]
        if len(missing) == 1:
            return _("waiting for {player}'s hand").format(player=missing[0])
        whose = _(" and ").join(_("{player}'s").format(player=player) for player in missing)
        return _("waiting for {players} hands").format(players=whose)

    def check(self, raw: RawPayload) -> ShownPayload:
        """The canonical payload of one player's showdown, or the rule it breaks."""
        player = str(raw.get("player") or "")
        # A stored payload spells what it lacks as null (or a surrender's cards as none); an action
        # leaves it out.
        given = {key: value for key, value in raw.items() if value not in (None, [], "")}
        try:
            entry = entry_from_action(self.showdown.preset, player, given)
            self.showdown.verify_enter(player, entry)
        except EntryRefused as error:
            raise ActionRefused(str(error)) from None
        return shown_payload(player, entry)

    def check_typed(self, player: str, cards: str | Sequence[object], rows: str | Sequence[object]) -> None:
        """Refuse a showdown being typed as soon as a card cannot be part of it."""
        try:
            placed = list(zip(parse_entries(cards), split_tokens(rows), strict=True))
            self.showdown.verify_typing(player, placed)
        except (CardError, ValueError) as error:  # EntryRefused is a ValueError
            raise ActionRefused(str(error)) from None

    def specials_made(self, cards: object) -> list[SpecialKind]:
        """The specials the preset pays that these 13 cards make, most valuable first: what the
        desk offers the dealer to declare (it never declares by itself)."""
        try:
            read = parse_cards(cast(str | Sequence[object], cards))
        except CardError:
            return []
        if len(read) != HAND_CARDS:
            return []
        return [special.kind for special in self.showdown.preset.specials_made(read)]

    def apply(self, payload: ShownPayload) -> None:
        entry = entry_from_action(self.showdown.preset, payload["player"], _action(payload))
        self.showdown = self.showdown.enter(payload["player"], entry)
        self.entries.append(payload)

    def undo(self) -> ShownPayload:
        if not self.entries:
            raise nothing_to_undo(self.number)
        payload = self.entries.pop()
        self.showdown = self.showdown.withdraw(payload["player"])
        return payload

    def score(
        self, rules: TableRules, seats: Sequence[Seat], scorer: HandScorer[ChineseDeal] | None
    ) -> SettledResult:
        """Score and settle the complete hand exactly as `ofc-desk score` would: by the core, or by
        `verify`'s `scorer` unless the hand pays a jackpot award (paid from the scored pairs, which
        a stored result lacks)."""
        deal = self.showdown.deal(self.button, self.stacks_before, **rules.settling_terms())
        if scorer is None or self.showdown.preset.jackpot_award is not None:
            return score_chinese_deal(deal)
        return scorer(Game.CHINESE, self.number, deal)

    # ------------------------------------------------------------------ as the machine's live hand
    def check_event(self, kind: EventKind, raw: RawPayload) -> CheckedEntry:
        if kind is not EventKind.SHOWN:
            raise no_hand_being_dealt()
        payload = self.check(raw)
        return CheckedEntry(payload, partial(self.apply, payload))

    def check_typing(self, kind: EventKind, player: str, cards: object, rows: object) -> None:
        if kind is not EventKind.SHOWN:
            raise no_hand_being_dealt()
        self.check_typed(player, cast(str | Sequence[object], cards), cast(str | Sequence[object], rows))

    def last_entry(self) -> Undone:
        if not self.entries:
            raise nothing_to_undo(self.number)
        return {"undone": self.entries[-1]}

    def take_back(self) -> None:
        self.undo()

    def dealt_in(self, seats: Sequence[Seat]) -> list[str]:
        return list(self.stacks_before)

    def after_settling(self, table: GameTable, result: SettledResult) -> None:
        """The button moves after every hand."""
        table.button_held = False
        table.button = table.next_clockwise(self.button)

    def jackpot_deal(self, result: SettledResult, seats: Sequence[Seat]) -> JackpotDeal:
        assert isinstance(result, ChineseDealResult)  # scored by the core when the table has an award
        return JackpotDeal(jackpot_pairs(result), result, [player.name for player in result.players])

    def takes_showdown_from(self, player: str) -> bool:
        return player in self.showdown.players and player not in self.showdown.entries


def shown_payload(player: str, entry: Entry) -> ShownPayload:
    """A showdown as the log stores it: set rows as 13 cards front to back with their rows."""
    rows = entry.rows
    return {
        "player": player,
        "cards": [card.text for card in (rows.cards if rows is not None else entry.cards)],
        "rows": None if rows is None else [row.value for row in ROWS for _ in rows.row(row)],
        "surrender": entry.surrendered,
        "declare": None if entry.declared is None else entry.declared.kind.value,
    }


def _action(payload: ShownPayload) -> Mapping[str, object]:
    """The stored payload as the action that made it, for the core to read again."""
    action: dict[str, object] = {"player": payload["player"]}
    if payload["surrender"]:
        return {**action, "surrender": True}
    action["cards"] = payload["cards"]
    if payload["rows"] is not None:
        action["rows"] = payload["rows"]
    if payload["declare"] is not None:
        action["declare"] = payload["declare"]
    return action
