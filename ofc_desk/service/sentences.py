"""Each event of the log as one sentence a floor supervisor reads ("Ann: 8s front, Kd back", "Sue
voided hand 3: misdeal"): for the desk's audit log and for reports, so both say it the same way.

The sentence is for reading; the payload stays the record (the audit log shows it on demand).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from ofc_desk.i18n import ngettext
from ofc_desk.i18n.formatting import number as said_number
from ofc_desk.service.events import EventKind
from ofc_desk.service.payloads import (
    CashedOut,
    ChipsCorrected,
    EntryPayload,
    EventPayload,
    HandedOver,
    HandSettled,
    HandStarted,
    HandVoided,
    JackpotSeeded,
    Joined,
    Rebought,
    RequestDecided,
    RequestMade,
    RulesChanged,
    RulesPayload,
    RulesPinned,
    SatIn,
    SatOut,
    SessionClosed,
    ShownPayload,
    TableOpened,
    Undone,
)
from ofc_desk.service.records import AuditRecord
from ofc_desk.service.requests import request_words

UNKNOWN_CARD = "??"


def audit_sentence(record: AuditRecord) -> str:
    """The sentence for a stored event; a payload that does not read says so (never raises)."""
    try:
        kind = EventKind(record.kind)
    except ValueError:
        return f"an event of unknown kind “{record.kind}” (see the raw payload)"
    try:
        return event_sentence(kind, cast(EventPayload, record.payload), record.actor)
    except (KeyError, TypeError, ValueError, AttributeError):
        return f"{kind.value.replace('_', ' ')}: the payload does not read (see the raw payload)"


def event_sentence(kind: EventKind, payload: EventPayload, actor: str) -> str:
    """One event in words; `actor` is the dealer who recorded it."""
    match kind:
        case EventKind.TABLE_OPENED:
            return _opened(cast(TableOpened, payload), actor)
        case EventKind.HAND_STARTED:
            return f"Hand {cast(HandStarted, payload)['number']} dealt"
        case EventKind.PLACED:
            return entry_sentence(cast(EntryPayload, payload))
        case EventKind.REVEALED:
            entry = cast(EntryPayload, payload)
            return f"{entry['player']} revealed: {_by_row(entry)}"
        case EventKind.SHOWN:
            return _shown(cast(ShownPayload, payload))
        case EventKind.UNDONE:
            undone = cast(Undone, payload)["undone"]
            shown = "surrender" in undone  # a Chinese poker showdown taken back
            taken = _shown(cast(ShownPayload, undone)) if shown else entry_sentence(undone)
            return f"Taken back: {taken}"
        case EventKind.HAND_SETTLED:
            return f"Hand {cast(HandSettled, payload)['number']} settled"
        case EventKind.JOINED:
            return _joined(cast(Joined, payload))
        case EventKind.REBOUGHT:
            rebuy = cast(Rebought, payload)
            return f"{rebuy['player']} rebought {rebuy['amount']:,} chips"
        case EventKind.CASHED_OUT:
            cash_out = cast(CashedOut, payload)
            return f"{cash_out['player']} cashed out {cash_out['amount']:,} chips"
        case EventKind.SAT_OUT:
            return f"{cast(SatOut, payload)['player']} sat out"
        case EventKind.SAT_IN:
            return f"{cast(SatIn, payload)['player']} sat back in"
        case EventKind.HAND_VOIDED:
            void = cast(HandVoided, payload)
            reason = void["reason"] or "no reason given"
            return f"{void['supervisor']} voided hand {void['hand']}: {reason}{_on_request(void)}"
        case EventKind.CHIPS_CORRECTED:
            return _corrected(cast(ChipsCorrected, payload))
        case EventKind.RULES_CHANGED:
            change = cast(RulesChanged, payload)
            rules = _rules_words(change["rules"])
            return f"{change['supervisor']} changed the rules: {rules}{_on_request(change)}"
        case EventKind.SESSION_CLOSED:
            return f"{cast(SessionClosed, payload)['supervisor']} closed the table"
        case EventKind.RULES_PINNED:
            digests = cast(RulesPinned, payload)["sha256"]
            pinned = ", ".join(f"{name} (SHA-256 {digest[:12]}…)" for name, digest in sorted(digests.items()))
            return f"{actor} pinned the preset numbers this table was played by: {pinned}"
        case EventKind.REQUEST_MADE:
            made = cast(RequestMade, payload)
            asked = f"{request_words(made)} — {made['reason']}"
            return f"{actor} asked the floor (request #{made['request']}): {asked}"
        case EventKind.REQUEST_DECIDED:
            decided = cast(RequestDecided, payload)
            said = "approved" if decided["approved"] else "declined"
            note = f": {decided['note']}" if decided["note"] else ""
            return f"{decided['supervisor']} {said} request #{decided['request']}{note}"
        case EventKind.HANDED_OVER:
            return f"{actor} handed the table over to {cast(HandedOver, payload)['dealer']}"
        case EventKind.JACKPOT_SEEDED:
            seed = cast(JackpotSeeded, payload)
            return ngettext(
                "{supervisor} seeded the room's jackpot with {chips} chip",
                "{supervisor} seeded the room's jackpot with {chips} chips",
                seed["chips"],
            ).format(supervisor=seed["supervisor"], chips=said_number(seed["chips"]))


def entry_sentence(entry: Mapping[str, object]) -> str:
    """ "Ann: 8s front, Kd back, ?? discard" for a street's cards and rows."""
    placed = _placements(cast(EntryPayload, entry))
    return f"{entry.get('player', '?')}: {placed}" if placed else "the last entry"


def _placements(entry: EntryPayload) -> str:
    cards = [card or UNKNOWN_CARD for card in entry.get("cards") or ()]
    rows = [str(row) for row in entry.get("rows") or ()]
    return ", ".join(f"{card} {row}" for card, row in zip(cards, rows, strict=False))


def _shown(shown: ShownPayload) -> str:
    """A Chinese poker showdown: "Ann showed: front … · middle … · back …", a surrender or a
    declared special hand."""
    if shown["surrender"]:
        return f"{shown['player']} surrendered"
    if shown["declare"]:
        return f"{shown['player']} declared {shown['declare']}: {' '.join(shown['cards'])}"
    return f"{shown['player']} showed: {_by_row(shown)}"


def _by_row(entry: EntryPayload | ShownPayload) -> str:
    """A whole hand at once, row by row: "front Ah Ad 3c · middle … · back … · discard 9c"."""
    rows: dict[str, list[str]] = {}
    for card, row in zip(entry["cards"], entry["rows"] or (), strict=False):
        rows.setdefault(str(row), []).append(card or UNKNOWN_CARD)
    return " · ".join(f"{row} {' '.join(cards)}" for row, cards in rows.items())


def _opened(opened: TableOpened, actor: str) -> str:
    seats = ", ".join(f"{seat['name']} {seat['buy_in']:,}" for seat in opened["seats"])
    by = f" by {actor}" if actor else ""
    return (
        f"Table {opened['table']} opened{by}: {seats}; button {opened['button']}; "
        f"{_rules_words(opened['rules'])}"
    )


def _joined(joined: Joined) -> str:
    after = f", seated after {joined['after']}" if joined["after"] else ""
    seat = f" at seat {joined['seat']}" if "seat" in joined else ""
    return f"{joined['player']} joined with {joined['buy_in']:,} chips{seat}{after}"


def _corrected(correction: ChipsCorrected) -> str:
    reason = correction["reason"] or "no reason given"
    return (
        f"{correction['supervisor']} corrected {correction['player']}'s chips by "
        f"{correction['amount']:+,}: {reason}{_on_request(correction)}"
    )


def _on_request(payload: HandVoided | ChipsCorrected | RulesChanged) -> str:
    """An action carried out on the floor's approval names its request."""
    number = payload.get("request")
    return "" if number is None else f" (request #{number})"


def _rules_words(rules: RulesPayload) -> str:
    preset = rules["rules"] if isinstance(rules["rules"], str) else "custom rules"
    return f"{rules['variant']}, {preset}, unit {rules['unit']:,}, {rules['settlement']}"
