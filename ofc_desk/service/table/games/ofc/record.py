"""OFC's part of a settled hand's record: who played the hand in Fantasyland (`OfcRecord`)."""

from __future__ import annotations

from dataclasses import dataclass

from ofc_desk.service.terms.outcome import RecordPart


@dataclass(frozen=True)
class OfcRecord(RecordPart):
    """OFC's own part of a hand's record."""

    fantasyland: dict[str, int]
    """Players who played this hand in Fantasyland and the cards they were dealt."""

    def column(self) -> dict[str, int]:
        return self.fantasyland

    @staticmethod
    def of(part: RecordPart | None) -> OfcRecord:
        """OFC's part of a record; nobody in Fantasyland for another game's hand."""
        return part if isinstance(part, OfcRecord) else NOBODY_IN_FANTASYLAND


NOBODY_IN_FANTASYLAND = OfcRecord({})
