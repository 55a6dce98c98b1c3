"""`verify`'s check of one session's hash chain: each event's number, its link to the event before
it and its hash over its own content, and where the session row says the chain ends."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ofc_desk.i18n import _
from ofc_desk.service.terms.errors import VerifyFault
from ofc_desk.storage.audit import event_hash


@dataclass(frozen=True)
class ChainHead:
    """Where a session row says its chain ends."""

    session_id: int
    seq: int
    hash: str


def chain_fault(head: ChainHead, events: Sequence[Any], start: int, stop: int) -> str | None:
    """The first fault in the links of `events[start:stop]`, with where the chain ends when that
    part is its last."""
    try:
        _check_chain(head, events, start, stop)
    except VerifyFault as fault:
        return str(fault)
    return None


def altered(event_id: int) -> str:
    return _("event {event} was altered").format(event=event_id)


def _check_chain(head: ChainHead, events: Sequence[Any], start: int, stop: int) -> None:
    if start >= stop:
        return
    # The opening's previous hash is the room's link, checked by `verify._RoomLinks`.
    previous, previous_id = (
        (events[0].prev_hash, 0) if start == 0 else (events[start - 1].hash, events[start - 1].id)
    )
    for position, event in enumerate(events[start:stop], start=start + 1):
        if event.seq != position:
            said = _("session {number}: an event is missing before event {event} (sequence jumps to {seq})")
            raise VerifyFault(said.format(number=head.session_id, event=event.id, seq=event.seq))
        if event.id <= previous_id:
            # Event numbers are handed out in order; the desk and reports show them to people.
            said = _("event {event} is numbered out of order (after event {previous})")
            raise VerifyFault(said.format(event=event.id, previous=previous_id))
        if event.prev_hash != previous:
            raise VerifyFault(_("event {event} does not follow the event before it").format(event=event.id))
        if _digest(event) != event.hash:
            raise VerifyFault(altered(event.id))
        previous, previous_id = event.hash, event.id
    if stop == len(events) and (head.seq, head.hash) != (len(events), previous):
        said = _(
            "session {number}: its chain should end at event number {seq}, but the stored events end at"
            " {stored}: events were removed or the session row altered"
        )
        raise VerifyFault(said.format(number=head.session_id, seq=head.seq, stored=len(events)))


def _digest(event: Any) -> str:
    fields = (event.prev_hash, event.session_id, event.seq, event.kind, event.actor, event.at, event.payload)
    try:
        return event_hash(*fields)
    except (TypeError, ValueError):  # a value stored with another type, e.g. bytes, by hand
        return ""
