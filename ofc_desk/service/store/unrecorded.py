"""An action the database did not record, in words: what happened, that nothing was recorded, and
what to do. A table action, a supervisor's approval and a floor decision each run in one
transaction, so whatever failed it (the server down or the connection lost, a lock not granted in
time, a full disk, a constraint) left nothing stored; the desk holds the table as stored
(`recorder`) and the dealer only needs to know whether to wait, call someone or try again.

The cause is the database driver's own first line (`failure_cause`), never a class name.
"""

from __future__ import annotations

import errno
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError, SQLAlchemyError

from ofc_desk.i18n import _
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.storage.database import failure_cause

_NO_ANSWER_STATES = ("08", "57P01", "57P02", "57P03")
"""PostgreSQL's connection exceptions, and the server shutting down, crashed or starting."""
_BUSY_STATES = ("55P03", "40P01", "40001", "57014")
"""A lock not granted in time, a deadlock, a serialization failure, a statement timed out."""
_DISK_FULL_STATES = ("53100",)
_SQLITE_BUSY = ("database is locked", "database table is locked")
_SQLITE_FULL = ("database or disk is full",)


class DatabaseFault(Enum):
    NO_ANSWER = "no answer"
    """The server is down or unreachable, or dropped the connection."""
    BUSY = "busy"
    """Another writer held what this one needed for longer than it waits."""
    DISK_FULL = "disk full"
    REFUSED = "refused"
    """Anything else the database refused (a constraint, a permission)."""


def database_fault(failure: BaseException) -> DatabaseFault:
    """Which kind of failure the database (or the disk under it) reported."""
    cause = getattr(failure, "orig", None) or failure
    state = str(getattr(cause, "sqlstate", None) or "")
    words = str(cause).lower()
    if state.startswith(_BUSY_STATES) or any(said in words for said in _SQLITE_BUSY):
        return DatabaseFault.BUSY
    full = isinstance(cause, OSError) and cause.errno == errno.ENOSPC
    if full or state.startswith(_DISK_FULL_STATES) or any(said in words for said in _SQLITE_FULL):
        return DatabaseFault.DISK_FULL
    if isinstance(failure, DBAPIError) and failure.connection_invalidated:
        return DatabaseFault.NO_ANSWER
    if state.startswith(_NO_ANSWER_STATES):
        return DatabaseFault.NO_ANSWER
    # A driver that could not connect gives no state at all.
    if not state and isinstance(failure, OperationalError | InterfaceError | ConnectionError):
        return DatabaseFault.NO_ANSWER
    return DatabaseFault.REFUSED


def unrecorded_sentence(failure: BaseException) -> str:
    """The dealer's (or the floor's) sentence for an action whose transaction failed."""
    cause = failure_cause(failure) if isinstance(failure, Exception) else type(failure).__name__
    fault = database_fault(failure)
    if fault is DatabaseFault.NO_ANSWER:
        said = _(
            "the database did not answer ({cause}): nothing was recorded — check the connection"
            " to the database, then do it again"
        )
    elif fault is DatabaseFault.BUSY:
        said = _(
            "the database was kept busy by another program ({cause}): nothing was recorded — do it"
            " again in a moment"
        )
    elif fault is DatabaseFault.DISK_FULL:
        said = _(
            "the database's disk is full ({cause}): nothing was recorded — have space freed on it,"
            " then do it again"
        )
    else:
        said = _(
            "the database refused it ({cause}): nothing was recorded — do it again, and call the"
            " floor if it is refused again"
        )
    return said.format(cause=cause)


@contextmanager
def refused_unrecorded() -> Iterator[None]:
    """A database failure inside becomes `ActionRefused` with `unrecorded_sentence`: for a face
    that shows a refusal as said (the floor's dialogs). Only around work that commits at its end."""
    try:
        yield
    except (SQLAlchemyError, OSError) as failure:
        raise ActionRefused(unrecorded_sentence(failure)) from failure
