"""What the dealer reads when the service says no, or when the database does not answer.

A refusal is the service's own sentence. A database failure (a dropped network link to the card
room's PostgreSQL, a full disk) means the action was not recorded: the service rolls its table back
to what is stored, and the desk says so in plain words instead of crashing.
"""

from __future__ import annotations

from sqlalchemy.exc import SQLAlchemyError

from ofc_desk.service.errors import ActionRefused
from ofc_desk.storage.database import failure_cause

SERVICE_FAILURES: tuple[type[Exception], ...] = (ActionRefused, SQLAlchemyError, OSError)


def background_sentence(failure: Exception) -> str:
    """What went wrong with work done off the UI thread (opening the database, resuming, verifying),
    in words: the driver's own first line, never SQLAlchemy's class names and web links."""
    if isinstance(failure, ActionRefused):
        return str(failure)
    if isinstance(failure, SQLAlchemyError):
        cause = failure_cause(failure)
        return f"the database could not be used ({cause}): check its URL in Settings, or the connection"
    lines = str(failure).splitlines()
    return f"that did not work: {lines[0] if lines else type(failure).__name__}"


def dealer_sentence(failure: Exception) -> str:
    if isinstance(failure, ActionRefused):
        return str(failure)
    return (
        f"the database did not answer ({type(failure).__name__}): nothing was recorded — "
        "check the connection and try again"
    )
