"""Chinese poker's parts of a snapshot, apart from the rules that work them out (`chinese.view`
builds them): a seat's entry when it is not set rows (`ChineseSeatView`) and the kind of turn on
the table (`ChineseTurn`). A floor's first listing thaws kept snapshots holding them without loading
the rules (issue 39), so this module imports none."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ofc_desk.service.terms.snapshot import SeatView, SeatViewPart


@dataclass(frozen=True)
class ChineseSeatView(SeatViewPart):
    """A Chinese poker seat's own part of its view: its entry when it is not set rows."""

    showdown: str = ""
    """The entry in the reader's words: "surrendered", "declared dragon" ("" for set rows, or none)."""

    @classmethod
    def of(cls, seat: SeatView) -> ChineseSeatView:
        """The seat's part as Chinese poker reads it: nothing to say at another game's table."""
        return seat.part if isinstance(seat.part, ChineseSeatView) else cls()


class ChineseTurn(StrEnum):
    """Chinese poker's kind of turn (`Turn.kind`), its English name."""

    SHOWDOWN = "showdown"
    """A player's set hand (or surrender, or declared special), entered at once."""
