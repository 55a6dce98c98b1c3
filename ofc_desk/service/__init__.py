"""The session service: a live table's game flow, on top of the rules core and storage (no Qt).

Faces use `TableService` (ofc_desk.service.table_service) for a table's actions and the module
functions below to open tables, find open ones to resume, and read history and the audit log.
"""

from ofc_desk.service.errors import ActionRefused
from ofc_desk.service.queries import (
    audit_log,
    chip_ledger,
    hand_history,
    list_open_tables,
    open_table,
    resume_table,
)
from ofc_desk.service.setup import PairUnit, SeatSetup, TableRules, TableSetup
from ofc_desk.service.snapshot import Phase, TableSnapshot
from ofc_desk.service.table_service import TableService

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
