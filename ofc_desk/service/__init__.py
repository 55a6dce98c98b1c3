"""The session service: a live table's game flow, on top of the rules core and storage (no Qt).

Faces use `TableService` (ofc_desk.service.front.table_service) for a table's actions and the module
functions below to open tables, find open ones to resume, and read history and the audit log.

Each name below is imported when first asked for (PEP 562), not with the package: every module of
the service runs this file first, and the floor's first listing of a room (issue 39) reads a few of
the service's words without loading a table's service, its records and the rules core behind them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ofc_desk.service.front.queries import (
        audit_log,
        chip_ledger,
        hand_history,
        list_open_tables,
        open_table,
        resume_table,
    )
    from ofc_desk.service.front.table_service import TableService
    from ofc_desk.service.terms.errors import ActionRefused
    from ofc_desk.service.terms.setup import PairUnit, SeatSetup, TableRules, TableSetup
    from ofc_desk.service.terms.snapshot import Phase, TableSnapshot

_FROM = {
    "ActionRefused": "ofc_desk.service.terms.errors",
    "PairUnit": "ofc_desk.service.terms.setup",
    "Phase": "ofc_desk.service.terms.snapshot",
    "SeatSetup": "ofc_desk.service.terms.setup",
    "TableRules": "ofc_desk.service.terms.setup",
    "TableService": "ofc_desk.service.front.table_service",
    "TableSetup": "ofc_desk.service.terms.setup",
    "TableSnapshot": "ofc_desk.service.terms.snapshot",
    "audit_log": "ofc_desk.service.front.queries",
    "chip_ledger": "ofc_desk.service.front.queries",
    "hand_history": "ofc_desk.service.front.queries",
    "list_open_tables": "ofc_desk.service.front.queries",
    "open_table": "ofc_desk.service.front.queries",
    "resume_table": "ofc_desk.service.front.queries",
}
"""Where each name the package gives is defined."""

__all__ = [
    "ActionRefused",
    "PairUnit",
    "Phase",
    "SeatSetup",
    "TableRules",
    "TableService",
    "TableSetup",
    "TableSnapshot",
    "audit_log",
    "chip_ledger",
    "hand_history",
    "list_open_tables",
    "open_table",
    "resume_table",
]


def __getattr__(name: str) -> Any:
    if name not in _FROM:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_FROM[name]), name)
    globals()[name] = value  # asked once
    return value
