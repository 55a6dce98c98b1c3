"""Each event of the log as one sentence a floor supervisor reads ("Ann: 8s front, Kd back", "Sue
voided hand 3: misdeal"): for the desk's audit log and for reports, so both say it the same way.

The sentence is for reading; the payload stays the record (the audit log shows it on demand).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from ofc_desk.i18n import _
from ofc_desk.service.store.records import AuditRecord
from ofc_desk.service.table.actions import SPEC_OF
from ofc_desk.service.table.actions.hand import entry_sentence as entry_sentence
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import EventPayload


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
    """One event in words (its spec's sentence); `actor` is the dealer who recorded it."""
    sentence: Callable[[Any, str], str] = SPEC_OF[kind].sentence
    return sentence(payload, actor)
