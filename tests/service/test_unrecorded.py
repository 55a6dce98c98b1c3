"""Which failure a database reported, and the words for it (`service.store.unrecorded`): the kinds the
fault tests meet for real (tests/room/faults), and PostgreSQL's states no test can cheaply make
(a lock timeout, a full disk under the server, a crash)."""

from __future__ import annotations

import errno
import sqlite3

import pytest
from sqlalchemy.exc import IntegrityError, InternalError, OperationalError, ProgrammingError

from ofc_desk.service.store.unrecorded import DatabaseFault, database_fault, unrecorded_sentence


class _DriverError(Exception):
    """A driver's error with PostgreSQL's SQLSTATE, as psycopg's errors carry it."""

    def __init__(self, message: str, sqlstate: str | None) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate


def _postgres(
    kind: type[OperationalError | InternalError | ProgrammingError], state: str | None, said: str
) -> Exception:
    return kind("COMMIT", None, _DriverError(said, state))


@pytest.mark.parametrize(
    ("failure", "fault"),
    [
        (_postgres(OperationalError, None, "connection refused"), DatabaseFault.NO_ANSWER),
        (_postgres(OperationalError, "57P01", "terminating connection"), DatabaseFault.NO_ANSWER),
        (_postgres(OperationalError, "57P03", "the database system is starting up"), DatabaseFault.NO_ANSWER),
        (_postgres(OperationalError, "08006", "connection failure"), DatabaseFault.NO_ANSWER),
        (_postgres(OperationalError, "55P03", "canceling statement due to lock timeout"), DatabaseFault.BUSY),
        (_postgres(OperationalError, "40P01", "deadlock detected"), DatabaseFault.BUSY),
        (
            _postgres(OperationalError, "57014", "canceling statement due to statement timeout"),
            DatabaseFault.BUSY,
        ),
        (
            _postgres(OperationalError, "53100", "could not extend file: No space left on device"),
            DatabaseFault.DISK_FULL,
        ),
        (_postgres(InternalError, "XX000", "an internal error"), DatabaseFault.REFUSED),
        (_postgres(ProgrammingError, "42501", "permission denied for table events"), DatabaseFault.REFUSED),
        (
            OperationalError("INSERT", None, sqlite3.OperationalError("database is locked")),
            DatabaseFault.BUSY,
        ),
        (
            OperationalError("COMMIT", None, sqlite3.OperationalError("database or disk is full")),
            DatabaseFault.DISK_FULL,
        ),
        (OSError(errno.ENOSPC, "No space left on device"), DatabaseFault.DISK_FULL),
        (
            IntegrityError("INSERT", None, sqlite3.IntegrityError("UNIQUE constraint failed")),
            DatabaseFault.REFUSED,
        ),
    ],
)
def test_each_failure_is_told_apart(failure: Exception, fault: DatabaseFault) -> None:
    assert database_fault(failure) is fault


def test_the_sentence_gives_the_drivers_first_line_never_a_class_name() -> None:
    failure = _postgres(OperationalError, "55P03", "canceling statement due to lock timeout\nCONTEXT: …")
    assert unrecorded_sentence(failure) == (
        "the database was kept busy by another program (canceling statement due to lock timeout):"
        " nothing was recorded — do it again in a moment"
    )
    refused = IntegrityError("INSERT", None, sqlite3.IntegrityError("CHECK constraint failed: chips"))
    assert unrecorded_sentence(refused) == (
        "the database refused it (CHECK constraint failed: chips): nothing was recorded — do it"
        " again, and call the floor if it is refused again"
    )
