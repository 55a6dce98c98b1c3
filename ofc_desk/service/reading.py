"""Reading what a face sends (`RawPayload`): names, chip amounts and rules, refused in the
dealer's words when they are not what the table can take."""

from __future__ import annotations

from collections.abc import Mapping

from ofc_desk.core.settlement import MAX_CHIPS
from ofc_desk.service.errors import ActionRefused
from ofc_desk.service.payloads import RawPayload
from ofc_desk.service.setup import TableRules

MAX_NAME_LENGTH = 80


def text(raw: RawPayload, key: str) -> str:
    """The value as text; missing, null or empty is ""."""
    return str(raw.get(key) or "")


def name(value: object) -> str:
    """A player's name: not blank, at most `MAX_NAME_LENGTH` characters."""
    read = str(value or "").strip()
    if not read:
        raise ActionRefused("a player needs a name")
    if len(read) > MAX_NAME_LENGTH:
        raise ActionRefused(f"a name has at most {MAX_NAME_LENGTH} characters")
    return read


def chips(value: object, what: str) -> int:
    """A buy-in or rebuy: a whole number of chips from 1 to the core's limit."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_CHIPS:
        raise ActionRefused(f"a {what} is a whole number of chips from 1 to {MAX_CHIPS:,}, not {value}")
    return value


def whole_number(value: object) -> int | None:
    """An int that is not a bool (JSON's true is not a hand number); None otherwise."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def rules(data: object) -> TableRules:
    if not isinstance(data, Mapping):
        raise ActionRefused("rules: must be an object of rules keys")
    try:
        return TableRules.from_json(data)
    except (ValueError, TypeError, KeyError, IndexError) as error:
        raise ActionRefused(f"rules: {error}") from None


def mappings(value: object, what: str) -> list[Mapping[str, object]]:
    """A list of objects (absent is none); anything else is refused naming `what`."""
    items = value or []
    if not isinstance(items, list | tuple) or not all(isinstance(item, Mapping) for item in items):
        raise ActionRefused(f"{what}: must be a list of objects")
    return list(items)
