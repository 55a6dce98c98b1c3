"""The attacker's library against the room's jackpot pool (issue 35): one more `jackpot_moves` row
written beside an event, in the event's own transaction, as any login that records could."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from ofc_desk.service.store import persistence
from ofc_desk.service.terms.outcome import Outcome
from ofc_desk.storage.models import JackpotMove

PHANTOM = 100_000


def add_a_phantom_row_beside_each_event(monkeypatch: pytest.MonkeyPatch, kind: str = "seed") -> None:
    """Every event's derived rows carry one more row of the pool, +100,000 (a seed's by default; a
    drop's names the settled hand)."""
    write_derived = persistence.write_derived

    def with_a_phantom(session: Session, session_id: int, event_id: int, at: str, outcome: Outcome) -> None:
        write_derived(session, session_id, event_id, at, outcome)
        last = session.scalar(select(JackpotMove.pool_after).order_by(JackpotMove.id.desc()).limit(1))
        hand = outcome.hand.number if outcome.hand is not None and kind != "seed" else None
        phantom = JackpotMove(
            session_id=session_id,
            event_id=event_id,
            hand_number=hand,
            kind=kind,
            chips=PHANTOM,
            pool_after=(last or 0) + PHANTOM,
        )
        session.add(phantom)

    monkeypatch.setattr(persistence, "write_derived", with_a_phantom)
