"""Each event of the log as one sentence a floor supervisor reads ("Ann: 8s front, Kd back", "Sue
voided hand 3: misdeal"): for the desk's audit log and for reports, so both say it the same way.

The sentence is for reading; the payload stays the record (the audit log shows it on demand).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from ofc_desk.core.cards import UNKNOWN_TOKEN
from ofc_desk.core.chinese.deal import CHINESE, CHINESE_LABEL
from ofc_desk.core.ofc.variants import Variant
from ofc_desk.core.rows import placement_label
from ofc_desk.core.settlement import SettlementPolicy
from ofc_desk.i18n import LazyText, _, formatting
from ofc_desk.service.actions import SPEC_OF
from ofc_desk.service.events import EventKind
from ofc_desk.service.payloads import (
    ChipsCorrected,
    EntryPayload,
    EventPayload,
    HandSettled,
    HandStarted,
    HandVoided,
    RequestDecided,
    RequestMade,
    RulesChanged,
    RulesPayload,
    SessionClosed,
    ShownPayload,
    TableOpened,
    Undone,
)
from ofc_desk.service.records import AuditRecord
from ofc_desk.service.requests import request_words


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
        case EventKind.HAND_VOIDED:
            void = cast(HandVoided, payload)
            reason = void["reason"] or _("no reason given")
            said = _("{supervisor} voided hand {number}: {reason}{request}")
            return said.format(
                supervisor=void["supervisor"], number=void["hand"], reason=reason, request=_on_request(void)
            )
        case EventKind.CHIPS_CORRECTED:
            return _corrected(cast(ChipsCorrected, payload))
        case EventKind.RULES_CHANGED:
            change = cast(RulesChanged, payload)
            said = _("{supervisor} changed the rules: {rules}{request}")
            rules = _rules_words(change["rules"])
            return said.format(supervisor=change["supervisor"], rules=rules, request=_on_request(change))
        case EventKind.SESSION_CLOSED:
            return _("{supervisor} closed the table").format(
                supervisor=cast(SessionClosed, payload)["supervisor"]
            )
        case EventKind.REQUEST_MADE:
            made = cast(RequestMade, payload)
            said = _("{actor} asked the floor (request #{number}): {request} — {reason}")
            return said.format(
                actor=actor, number=made["request"], request=request_words(made), reason=made["reason"]
            )
        case EventKind.REQUEST_DECIDED:
            return _decided(cast(RequestDecided, payload))
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
    rules = _rules_words(opened["rules"])
    if actor:
        said = _("Table {table} opened by {actor}: {seats}; button {button}; {rules}")
    else:
        said = _("Table {table} opened: {seats}; button {button}; {rules}")
    return said.format(table=opened["table"], actor=actor, seats=seats, button=opened["button"], rules=rules)


def _corrected(correction: ChipsCorrected) -> str:
    reason = correction["reason"] or _("no reason given")
    said = _("{supervisor} corrected {player}'s chips by {amount}: {reason}{request}")
    return said.format(
        supervisor=correction["supervisor"],
        player=correction["player"],
        amount=formatting.signed_number(correction["amount"]),
        reason=reason,
        request=_on_request(correction),
    )


def _decided(decided: RequestDecided) -> str:
    fields = {"supervisor": decided["supervisor"], "number": decided["request"], "note": decided["note"]}
    if decided["approved"]:
        said = (
            _("{supervisor} approved request #{number}: {note}")
            if decided["note"]
            else _("{supervisor} approved request #{number}")
        )
    else:
        said = (
            _("{supervisor} declined request #{number}: {note}")
            if decided["note"]
            else _("{supervisor} declined request #{number}")
        )
    return said.format(**fields)


def _on_request(payload: HandVoided | ChipsCorrected | RulesChanged) -> str:
    """An action carried out on the floor's approval names its request."""
    number = payload.get("request")
    return "" if number is None else _(" (request #{number})").format(number=number)


def _rules_words(rules: RulesPayload) -> str:
    preset = rules["rules"] if isinstance(rules["rules"], str) else _("custom rules")
    said = _("{variant}, {preset}, unit {unit}, {settlement}")
    return said.format(
        variant=_stored_word(rules["variant"]),
        preset=preset,
        unit=formatting.number(rules["unit"]),
        settlement=_stored_word(rules["settlement"]),
    )


def _stored_word(stored: str) -> LazyText | str:
    """A stored variant or settlement policy in the reader's words; an unknown one as stored."""
    return _RULES_WORDS.get(stored, stored)


_RULES_WORDS: dict[str, LazyText] = {
    **{variant.value: variant.label for variant in Variant},
    CHINESE: CHINESE_LABEL,
    **{policy.value: policy.label for policy in SettlementPolicy},
}
