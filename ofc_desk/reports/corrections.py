"""The corrected hands of a session (docs/rules.md §12) as the reports show them: each
`hand_corrected` event read into a `record.HandCorrection`, the hand as recorded (or as last
corrected) beside the hand as corrected, from the verified events only."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import cast

from ofc_desk.core.results import HandResult, ResultSeat
from ofc_desk.core.stored_results import read_hand_result
from ofc_desk.reports.record import HandCorrection, HandRecord, SeatResult
from ofc_desk.service.store.records import AuditRecord
from ofc_desk.service.store.sentences import event_sentence
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import HandCorrected

SeatReader = Callable[[int, ResultSeat], SeatResult]
"""How the loader reads a corrected result's seat, by the hand's number: as the hand's own seats,
with what the game stored of the hand beside its result (`ReportGame.seat_part`)."""
Shown = Callable[[int, HandResult], HandResult]
"""How the loader has a hand's stored result shown, by the hand's number: as its game counts it
under the rules the hand was dealt by (a Chinese row bonus paid or not, `ReportGame.shown_result`)."""


def hand_corrections(
    events: Iterable[AuditRecord],
    hands: Iterable[HandRecord],
    seat_result: SeatReader,
    parse_time: Callable[[str | None], datetime | None],
    shown: Shown,
) -> tuple[HandCorrection, ...]:
    """Every correction in order; a hand corrected again is shown against its last correction.
    The corrected result is shown as the hand's own is (`shown`)."""
    standing: dict[int, tuple[SeatResult, ...]] = {hand.number: hand.seats for hand in hands}
    corrections = []
    for event in events:
        if event.kind != EventKind.HAND_CORRECTED:
            continue
        payload = cast(HandCorrected, event.payload)
        number = payload["hand"]
        result = shown(number, read_hand_result(payload["result"]))
        corrected = tuple(seat_result(number, seat) for seat in result.seats)
        corrections.append(
            HandCorrection(
                seq=event.seq,
                at=parse_time(event.at),
                hand_number=number,
                supervisor=payload["supervisor"],
                reason=payload["reason"],
                recorded=standing.get(number, ()),
                corrected=corrected,
                difference=_chips(payload["difference"]),
                paid=_chips(payload["paid"]),
                not_covered=_chips(payload["not_covered"]),
                stacks_after=_chips(payload["stacks_after"]),
                description=event_sentence(EventKind.HAND_CORRECTED, payload, event.actor),
            )
        )
        standing[number] = corrected
    return tuple(corrections)


def _chips(by_player: Mapping[str, int]) -> dict[str, int]:
    return {str(name): int(chips) for name, chips in by_player.items()}
