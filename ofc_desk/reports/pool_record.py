"""The room's jackpot pool around each hand of a session, as its report reads it (docs/rules.md
§11): the pool before and after the hand, and its award.

Everything comes from what the service verified: the session's pool changes its events give
(`VerifiedSession.pool_rows`) and each hand's stored result (`HandResult.jackpot`). The award's
percent shares are the preset data in force when the hand was dealt, read as the rules page reads
them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from ofc_desk.core.results import JackpotView
from ofc_desk.reports.record import HandJackpot, JackpotAward
from ofc_desk.reports.rules_text import resolve_preset
from ofc_desk.service.room.room_pool import MoveKind, PoolRow
from ofc_desk.service.store.records import AuditRecord
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import HandSettled

SHARE_KEYS = ("loser", "winner", "table")


def hand_jackpot(
    number: int,
    view: JackpotView | None,
    rows: Sequence[PoolRow],
    shares: Mapping[int, tuple[int, int, int] | None],
) -> HandJackpot | None:
    """The pool around a hand: its stored result's where its table pays an award, else its drop's."""
    if view is not None:
        award = view.award
        paid = (
            None
            if award is None
            else JackpotAward(award.loser, award.winner, tuple(award.chips.items()), shares.get(number))
        )
        return HandJackpot(view.pool_before, view.pool_after, paid)
    drop = next((row for row in rows if row.hand_number == number and row.kind == MoveKind.DROP), None)
    return None if drop is None else HandJackpot(drop.pool_after - drop.chips, drop.pool_after)


def award_shares(
    opening_rules: Mapping[str, Any], events: Sequence[AuditRecord]
) -> dict[int, tuple[int, int, int] | None]:
    """Each settled hand's award shares in percent under the rules in force when it was dealt,
    keyed by its number; the preset is resolved only when the rules change."""
    in_force, shares = _shares(opening_rules), {}
    for event in events:
        if event.kind == EventKind.RULES_CHANGED:
            in_force = _shares(event.payload.get("rules", {}))
        elif event.kind == EventKind.HAND_SETTLED:
            shares[cast(HandSettled, event.payload)["number"]] = in_force
    return shares


def rules_at_settlement(
    opening_rules: Mapping[str, Any], events: Sequence[AuditRecord]
) -> dict[int, Mapping[str, Any]]:
    """The rules each settled hand was dealt by, keyed by its number (a change of rules between
    hands holds from the next hand)."""
    in_force, by_hand = opening_rules, {}
    for event in events:
        if event.kind == EventKind.RULES_CHANGED:
            in_force = event.payload.get("rules", {})
        elif event.kind == EventKind.HAND_SETTLED:
            by_hand[cast(HandSettled, event.payload)["number"]] = in_force
    return by_hand


def _shares(rules: Mapping[str, Any]) -> tuple[int, int, int] | None:
    preset = resolve_preset(rules)[1]
    award = preset.get("jackpot_award") if preset is not None else None
    if not isinstance(award, Mapping) or not all(isinstance(award.get(key), int) for key in SHARE_KEYS):
        return None
    loser, winner, table = (int(award[key]) for key in SHARE_KEYS)
    return loser, winner, table
