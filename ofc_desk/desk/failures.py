"""What the dealer reads when the service says no, or when the database does not answer.

A refusal is the service's own sentence. A database failure (a dropped network link to the card
room's PostgreSQL, a full disk) means the action was not recorded: the service rolls its table back
to what is stored, and the desk says so in plain words instead of crashing.
"""

from __future__ import annotations

from sqlalchemy.exc import SQLAlchemyError

from ofc_desk.service.errors import ActionRefused

SERVICE_FAILURES: tuple[type[Exception], ...] = (ActionRefused, SQLAlchemyError, OSError)


def dealer_sentence(failure: Exception) -> str:
    if isinstance(failure, ActionRefused):
        return str(failure)
    return (
        f"the database did not answer ({type(failure).__name__}): nothing was recorded — "
        "check the connection and try again"
    )
