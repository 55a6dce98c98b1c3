"""The opening and the play of a hand, one spec each: the table opened, a hand dealt, a street
placed or a Fantasyland set revealed, a Chinese poker showdown, an entry taken back, the hand
settled. Their rules are the machine's own (`TableMachine` and the live hands it holds), which
the specs call through `PlayingTable`, so they do not import the machine."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, cast

from ofc_desk.core.cards import UNKNOWN_TOKEN
from ofc_desk.core.rows import placement_label
from ofc_desk.i18n import _, formatting
from ofc_desk.service.table.actions.spec import ActionSpec, CheckedAction, Signer, Spec
from ofc_desk.service.table.actions.words import rules_words
from ofc_desk.service.table.games.base import by_row
from ofc_desk.service.table.games.choose import OWN_ENTRY_WORDS, own_entry_words
from ofc_desk.service.terms.events import ChipKind, EventKind
from ofc_desk.service.terms.outcome import Outcome
from ofc_desk.service.terms.payloads import (
    EntryPayload,
    EventPayload,
    HandSettled,
    HandStarted,
    RawPayload,
    ShownPayload,
    TableOpened,
    Undone,
)


class PlayingTable(Protocol):
    """The machine's own checks and applies of the opening and the play of a hand."""

    def check_opened(self, raw: RawPayload) -> TableOpened: ...
    def apply_opened(self, payload: TableOpened) -> Outcome: ...
    def check_started(self, raw: RawPayload) -> HandStarted: ...
    def apply_started(self, payload: HandStarted) -> Outcome: ...
    def check_entry(self, kind: EventKind, raw: RawPayload) -> EventPayload:
        """An entry of the live hand (a street, a set, a showdown): its game's check of `kind`."""
        ...

    def apply_entry(self, kind: EventKind, payload: EventPayload) -> Outcome: ...
    def check_undone(self, raw: RawPayload) -> Undone: ...
    def apply_undone(self, payload: Undone) -> Outcome: ...
    def check_settled(self, raw: RawPayload) -> HandSettled: ...
    def apply_settled(self, payload: HandSettled) -> Outcome: ...


def _check_opened(table: PlayingTable, raw: RawPayload) -> TableOpened:
    return table.check_opened(raw)


def _apply_opened(table: PlayingTable, payload: TableOpened) -> Outcome:
    return table.apply_opened(payload)


def _check_started(table: PlayingTable, raw: RawPayload) -> HandStarted:
    return table.check_started(raw)


def _apply_started(table: PlayingTable, payload: HandStarted) -> Outcome:
    return table.apply_started(payload)


def _check_undone(table: PlayingTable, raw: RawPayload) -> Undone:
    return table.check_undone(raw)


def _apply_undone(table: PlayingTable, payload: Undone) -> Outcome:
    return table.apply_undone(payload)


def _check_settled(table: PlayingTable, raw: RawPayload) -> HandSettled:
    return table.check_settled(raw)


def _apply_settled(table: PlayingTable, payload: HandSettled) -> Outcome:
    return table.apply_settled(payload)


EntryT = TypeVar("EntryT", EntryPayload, ShownPayload)


@dataclass(frozen=True)
class EntrySpec(Generic[EntryT]):
    """An entry of a hand (a street, a Fantasyland set, a showdown): checked and applied by the
    live hand of the table's game, keyed by its kind (`LiveHand.check_event`), whose payload the
    sentence reads (`EntryT`: a street's or a set's, or a showdown's)."""

    kind: EventKind
    sentence: Callable[[EntryT, str], str]
    signer: Signer = Signer.NOBODY
    op: str | None = None
    """A script enters it among a hand's actions, not as a `between` operation."""
    op_fields: tuple[str, ...] = ()
    chips: ChipKind | None = None

    def checked(self, table: PlayingTable, raw: RawPayload) -> CheckedAction:
        payload = table.check_entry(self.kind, raw)
        return CheckedAction(self.kind, payload, table, lambda: table.apply_entry(self.kind, payload))


def started_sentence(started: HandStarted, actor: str) -> str:
    return _("Hand {number} dealt").format(number=started["number"])


def placed_sentence(entry: EntryPayload, actor: str) -> str:
    return entry_sentence(entry)


def revealed_sentence(entry: EntryPayload, actor: str) -> str:
    return _("{player} revealed: {cards}").format(player=entry["player"], cards=by_row(entry))


def shown_sentence(shown: ShownPayload, actor: str) -> str:
    return OWN_ENTRY_WORDS[EventKind.SHOWN](shown)


def undone_sentence(payload: Undone, actor: str) -> str:
    undone = payload["undone"]
    taken = own_entry_words(undone) or entry_sentence(undone)  # a game's own entry, or a street
    return _("Taken back: {entry}").format(entry=taken)


def settled_sentence(settled: HandSettled, actor: str) -> str:
    return _("Hand {number} settled").format(number=settled["number"])


def entry_sentence(entry: Mapping[str, object]) -> str:
    """ "Ann: 8s front, Kd back, ?? discard" for a street's cards and rows."""
    placed = _placements(cast(EntryPayload, entry))
    return f"{entry.get('player', '?')}: {placed}" if placed else _("the last entry")


def _placements(entry: EntryPayload) -> str:
    cards = [card or UNKNOWN_TOKEN for card in entry.get("cards") or ()]
    rows = [placement_label(str(row)) for row in entry.get("rows") or ()]
    return ", ".join(f"{card} {row}" for card, row in zip(cards, rows, strict=False))


def opened_sentence(opened: TableOpened, actor: str) -> str:
    seats = ", ".join(f"{seat['name']} {formatting.number(seat['buy_in'])}" for seat in opened["seats"])
    rules = rules_words(opened["rules"])
    if actor:
        said = _("Table {table} opened by {actor}: {seats}; button {button}; {rules}")
    else:
        said = _("Table {table} opened: {seats}; button {button}; {rules}")
    return said.format(table=opened["table"], actor=actor, seats=seats, button=opened["button"], rules=rules)


TABLE_OPENED = ActionSpec(
    EventKind.TABLE_OPENED,
    _check_opened,
    _apply_opened,
    opened_sentence,
    Signer.DEALER,
    chips=ChipKind.OPENING,
)
HAND_STARTED = ActionSpec(
    EventKind.HAND_STARTED, _check_started, _apply_started, started_sentence, Signer.NOBODY
)
PLACED = EntrySpec(EventKind.PLACED, placed_sentence)
REVEALED = EntrySpec(EventKind.REVEALED, revealed_sentence)
SHOWN = EntrySpec(EventKind.SHOWN, shown_sentence)
UNDONE = ActionSpec(EventKind.UNDONE, _check_undone, _apply_undone, undone_sentence, Signer.NOBODY)
"""Taken back by `{"op": "undo"}` among a hand's actions or its `between` operations
(`replay_vocabulary.UNDO_OP`), not by an operation of its own name."""
HAND_SETTLED = ActionSpec(
    EventKind.HAND_SETTLED, _check_settled, _apply_settled, settled_sentence, Signer.DEALER
)

HAND_SPECS: tuple[Spec[PlayingTable], ...] = (
    TABLE_OPENED,
    HAND_STARTED,
    PLACED,
    REVEALED,
    SHOWN,
    UNDONE,
    HAND_SETTLED,
)
