"""The jackpot award the tests of several layers play: any hand qualifies, shared 50/25/25."""

from __future__ import annotations

ANY_HAND_AWARD: dict[str, str | int] = {
    "front": "high-card",
    "middle": "high-card",
    "back": "high-card",
    "loser": 50,
    "winner": 25,
    "table": 25,
}
"""A preset's `jackpot_award` that any losing hand qualifies for: the loser takes half, the winner a
quarter, the others at the table share the last quarter."""
