"""What the desk shows while a supervisor corrects a settled hand (docs/rules.md §12): the hands
that may be corrected, one hand's entries and players, and the correction the entries typed so
far would make: each player's chips as recorded and as corrected side by side, the difference, what
is paid now and what is not covered. Every figure is the `hand_corrected` check's own
(`actions.hand_corrections`), run without recording anything."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, cast

from ofc_desk.service.table.actions.hand_corrections import (
    CorrectingTable,
    carried_words,
    not_covered_words,
)
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import CorrectedCarry, EntryPayload, HandCorrected, ShownPayload


@dataclass(frozen=True)
class HandToCorrect:
    """A settled hand as entered (or as last corrected): its number, its players by seat number,
    its entries in order."""

    number: int
    players: dict[int, str]
    entries: tuple[EntryPayload | ShownPayload, ...]


@dataclass(frozen=True)
class CorrectionLine:
    """One player's line of the preview; `stack_after` is None for a player who has left."""

    player: str
    recorded: int
    corrected: int
    difference: int
    paid: int
    not_covered: int
    stack_after: int | None


@dataclass(frozen=True)
class CorrectionPreview:
    """A hand's correction as it would be recorded, shown before it is."""

    lines: tuple[CorrectionLine, ...]
    words: str
    """What is not covered and what the next hand would have owed, in the audit log's words (the
    latter in its game's, `hand_corrections.carried_words`)."""
    payload: HandCorrected


def correctable_hands(table: CorrectingTable) -> list[int]:
    """The settled hands not voided, the latest first (the one most often disputed)."""
    return sorted((n for n in table.hand_traces if n not in table.voided), reverse=True)


def hand_to_correct(table: CorrectingTable, number: int) -> HandToCorrect:
    trace = table.hand_traces[number]
    players = {seat.number: seat.name for seat in trace.seats if seat.name in trace.deal.order}
    entries = tuple(cast(EntryPayload | ShownPayload, entry) for entry in trace.entries)
    return HandToCorrect(number, players, entries)


def preview(
    table: CorrectingTable, number: int, entries: Sequence[Any], reason: str = ""
) -> CorrectionPreview:
    """The correction these entries would make now (raises `ActionRefused` as the check does).
    While a hand is dealt it is worked out as if between hands: what the floor would be asked."""
    raw = {"hand": number, "entries": list(entries), "reason": reason, "supervisor": ""}
    with _between_hands(table):
        payload = cast(HandCorrected, table.check_before_approval(EventKind.HAND_CORRECTED, raw))
    trace = table.hand_traces[number]
    lines = tuple(
        CorrectionLine(
            player=name,
            recorded=trace.net.get(name, 0),
            corrected=trace.net.get(name, 0) + payload["difference"].get(name, 0),
            difference=payload["difference"].get(name, 0),
            paid=payload["paid"].get(name, 0),
            not_covered=payload["not_covered"].get(name, 0),
            stack_after=payload["stacks_after"].get(name),
        )
        for name in trace.deal.order
    )
    words = (not_covered_words(payload["not_covered"]) + carried_words(CorrectedCarry.of(payload))).lstrip(
        "; "
    )
    return CorrectionPreview(lines, words, payload)


@contextmanager
def _between_hands(table: CorrectingTable) -> Iterator[None]:
    waived = table.phase_waived
    table.phase_waived = True
    try:
        yield
    finally:
        table.phase_waived = waived
