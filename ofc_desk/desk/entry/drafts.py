"""Cards typed for a street but not yet confirmed with Enter, kept in the desk's own settings.

A desk that closes or crashes mid-street shows them again, staged, when the same table is resumed,
so the dealer does not type a long street (or a revealed face-down set) twice. A draft is not a
record: nothing reaches the audit log until the dealer confirms it. It belongs to one point of the
table's log (the hash of its last event) and comes back only if nothing was recorded since.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a draft is read and made without Qt (`entry/staging.py`)
    from PySide6.QtCore import QSettings


@dataclass(frozen=True)
class StagedDraft:
    """Cards staged and not recorded, kept when the desk closed."""

    event_hash: str
    """The table's last recorded event when the cards were typed."""
    player: str
    text: str
    """The staged placements in the entry's own syntax (`key_syntax.keyed_text`)."""


class DraftStore:
    def __init__(self, settings: QSettings) -> None:
        self._settings = settings

    def load(self, session_id: int) -> StagedDraft | None:
        """The draft kept for a table, or None (also for one that cannot be read any more)."""
        try:
            fields = json.loads(str(self._settings.value(_key(session_id), "")))
            return StagedDraft(str(fields["event_hash"]), str(fields["player"]), str(fields["text"]))
        except (ValueError, TypeError, KeyError):
            return None

    def save(self, session_id: int, draft: StagedDraft) -> None:
        self._settings.setValue(_key(session_id), json.dumps(asdict(draft)))
        self._settings.sync()  # written now: the point is to survive a crash

    def forget(self, session_id: int) -> None:
        self._settings.remove(_key(session_id))
        self._settings.sync()


def _key(session_id: int) -> str:
    return f"staged_drafts/table_{session_id}"
