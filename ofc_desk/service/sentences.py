"""Each event of the log as one sentence a floor supervisor reads ("Ann: 8s front, Kd back", "Sue
voided hand 3: misdeal"): for the desk's audit log and for reports, so both say it the same way.

The sentence is for reading; the payload stays the record (the audit log shows it on demand).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from ofc_desk.core.cards import UNKNOWN_TOKEN
from ofc_desk.core.rows import placement_label
from ofc_desk.i18n import _, formatting
from ofc_desk.service.actions import SPEC_OF
from ofc_desk.service.actions.words import rules_words
from ofc_desk.service.events import EventKind
from ofc_desk.service.payloads import (
    EntryPayload,
    EventPayload,
    HandSettled,
    HandStarted,
    ShownPayload,
    TableOpened,
    Undone,
)
from ofc_desk.service.records import AuditRecord


def audit_sentence(record: AuditRecord) -> str:
    """The sentence for a stored event; a payload that does not read says so (never raises)."""
    try:
        kind = EventKind(record.kind)
    except ValueError:
        return _("an event of unknown kind “{kind}” (see the raw payload)").format(kind=record.kind)
    try:
        return event_sentence(kind, cast(EventPayload, record.payload), record.actor)
    except (KeyError, TypeError, ValueError, AttributeError):
        said = _("{kind}: the payload does not read (see the raw payload)")
        return said.format(kind=kind.value.replace("_", " "))


def event_sentence(kind: EventKind, payload: EventPayload, actor: str) -> str:
    """One event in words; `actor` is the dealer who recorded it."""
    match kind:
        case EventKind.TABLE_OPENED:
            return _opened(cast(TableOpened, payload), actor)
        case EventKind.HAND_STARTED:
            return _("Hand {number} dealt").format(number=cast(HandStarted, payload)["number"])
        case EventKind.PLACED:
            return entry_sentence(cast(EntryPayload, payload))
        case EventKind.REVEALED:
            entry = cast(EntryPayload, payload)
            return _("{player} revealed: {cards}").format(player=entry["player"], cards=_by_row(entry))
        case EventKind.SHOWN:
            return _shown(cast(ShownPayload, payload))
        case EventKind.UNDONE:
            undone = cast(Undone, payload)["undone"]
            shown = "surrender" in undone  # a Chinese poker showdown taken back
            taken = _shown(cast(ShownPayload, undone)) if shown else entry_sentence(undone)
            return _("Taken back: {entry}").format(entry=taken)
        case EventKind.HAND_SETTLED:
            return _("Hand {number} settled").format(number=cast(HandSettled, payload)["number"])
        case _:
            return SPEC_OF[kind].sentence(payload, actor)


def entry_sentence(entry: Mapping[str, object]) -> str:
    """ "Ann: 8s front, Kd back, ?? discard" for a street's cards and rows."""
    placed = _placements(cast(EntryPayload, entry))
    return f"{entry.get('player', '?')}: {placed}" if placed else _("the last entry")


def _placements(entry: EntryPayload) -> str:
    cards = [card or UNKNOWN_TOKEN for card in entry.get("cards") or ()]
    rows = [placement_label(str(row)) for row in entry.get("rows") or ()]
    return ", ".join(f"{card} {row}" for card, row in zip(cards, rows, strict=False))


def _shown(shown: ShownPayload) -> str:
    """A Chinese poker showdown: "Ann showed: front … · middle … · back …", a surrender or a
    declared special hand."""
    if shown["surrender"]:
        return _("{player} surrendered").format(player=shown["player"])
    if shown["declare"]:
        said = _("{player} declared {special}: {cards}")
        return said.format(player=shown["player"], special=shown["declare"], cards=" ".join(shown["cards"]))
    return _("{player} showed: {cards}").format(player=shown["player"], cards=_by_row(shown))


def _by_row(entry: EntryPayload | ShownPayload) -> str:
    """A whole hand at once, row by row: "front Ah Ad 3c · middle … · back … · discard 9c"."""
    rows: dict[str, list[str]] = {}
    for card, row in zip(entry["cards"], entry["rows"] or (), strict=False):
        rows.setdefault(str(placement_label(str(row))), []).append(card or UNKNOWN_TOKEN)
    return " · ".join(f"{row} {' '.join(cards)}" for row, cards in rows.items())


def _opened(opened: TableOpened, actor: str) -> str:
    seats = ", ".join(f"{seat['name']} {formatting.number(seat['buy_in'])}" for seat in opened["seats"])
    rules = rules_words(opened["rules"])
    if actor:
        said = _("Table {table} opened by {actor}: {seats}; button {button}; {rules}")
    else:
        said = _("Table {table} opened: {seats}; button {button}; {rules}")
    return said.format(table=opened["table"], actor=actor, seats=seats, button=opened["button"], rules=rules)
