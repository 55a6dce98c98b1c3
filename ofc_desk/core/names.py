"""Names of players, accounts and tables as the desk keeps them, the same on every database:
trimmed (so "Ann " is Ann), at most `MAX_NAME_LENGTH` characters, and no control character
(PostgreSQL refuses a NUL that SQLite would take; a newline would break a report's line)."""

from __future__ import annotations

import unicodedata
from typing import Any

from ofc_desk.i18n import _

MAX_NAME_LENGTH = 40


def clean_name(value: Any, who: str) -> str:
    """`value` as a name of `who` ("a player", "a table", in the reader's words), or ValueError
    saying what is wrong."""
    name = value.strip() if isinstance(value, str) else ""
    if not name:
        raise ValueError(_("{who} needs a name").format(who=who))
    if len(name) > MAX_NAME_LENGTH:
        said = _("a name has at most {most} characters, not {count}")
        raise ValueError(said.format(most=MAX_NAME_LENGTH, count=len(name)))
    control = next((char for char in name if unicodedata.category(char) == "Cc"), None)
    if control is not None:
        raise ValueError(
            _("a name cannot hold a control character ({control})").format(control=repr(control))
        )
    return name
