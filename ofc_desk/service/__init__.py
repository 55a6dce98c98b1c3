"""The session service: a live table's game flow, on top of the rules core and storage (no Qt).

Faces use `TableService` (ofc_desk.service.front.table_service) for a table's actions and the module
functions below to open tables, find open ones to resume, and read history and the audit log.
"""

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
