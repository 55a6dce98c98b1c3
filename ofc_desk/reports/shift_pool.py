"""The room's jackpot pool over a shift (docs/rules.md §11): pool at the start + drops + seeds −
awards ± voids = pool at the end.

The start and the end are the pool as the store kept it (`pool_ledger.last_verified_rows`: the
newest change before each that the events give, with the room's pool after it; a row set aside is
never one); the changes between them are the tables' own, read from their verified sessions
(`SessionRecord.pool_moves`), so a stored pool that no longer agrees with the tables' events does
not reconcile, and says by how much.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import datetime

from ofc_desk.reports.loader import parse_time
from ofc_desk.reports.record import PoolMove, pool_totals
from ofc_desk.service.room.room_pool import MoveKind, PoolRow
from ofc_desk.service.store.pool_ledger import last_verified_rows
from ofc_desk.storage.database import Database


@dataclass(frozen=True)
class PoolReconciliation:
    at_start: int
    """The room's pool as stored when the shift started (0 before any change)."""
    drops: int
    seeds: int
    awards: int
    """Paid out, as a positive amount."""
    voids: int
    """Signed: a void gives its hand's award back (+) and takes its drop out (−)."""
    at_end: int
    """The room's pool as stored when the shift ended (or the report was printed)."""

    @property
    def expected(self) -> int:
        return self.at_start + self.drops + self.seeds - self.awards + self.voids

    @property
    def difference(self) -> int:
        """The stored pool at the end less what its start and the shift's changes give (0: reconciles)."""
        return self.at_end - self.expected

    @property
    def touched(self) -> bool:
        """Whether the room had a pool in the shift (a database from before the room's pool has none)."""
        return bool(self.at_start or self.at_end or self.drops or self.seeds or self.awards or self.voids)


def reconcile_pool(
    database: Database,
    moves: Iterable[PoolMove],
    start: datetime | None,
    end: datetime,
    given: Collection[int] | None = None,
) -> PoolReconciliation:
    """The pool from `start` (None: the first change) up to, not including, `end`, with every
    table's changes of the shift (`moves`, already those inside it); `given`: the ids of the
    stored rows the events give, when `verify` has just walked them (`last_verified_rows`)."""
    if start is None:
        (at_end,), at_start = last_verified_rows(database, (_made_before(end),), given), None
    else:
        at_start, at_end = last_verified_rows(database, (_made_before(start), _made_before(end)), given)
    totals = pool_totals(moves)
    return PoolReconciliation(
        at_start=at_start.pool_after if at_start is not None else 0,
        drops=totals[MoveKind.DROP],
        seeds=totals[MoveKind.SEED],
        awards=-totals[MoveKind.AWARD],
        voids=totals[MoveKind.VOID],
        at_end=at_end.pool_after if at_end is not None else 0,
    )


def _made_before(moment: datetime) -> Callable[[PoolRow], bool]:
    """Whether a change was made before `moment` (the pool is the one after the newest such)."""
    return lambda row: (at := parse_time(row.at)) is not None and at < moment
