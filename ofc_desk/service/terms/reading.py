"""Reading what a face sends (`RawPayload`): names, chip amounts and rules, refused in the
dealer's words when they are not what the table can take."""

from __future__ import annotations

from collections.abc import Mapping

from ofc_desk.core.names import clean_name
from ofc_desk.core.settlement import MAX_CHIPS
from ofc_desk.i18n import _, formatting
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.payloads import RawPayload
from ofc_desk.service.terms.setup import TableRules


def text(raw: RawPayload, key: str) -> str:
    """The value as text; missing, null or empty is ""."""
    return str(raw.get(key) or "")


def name(value: object, who: str = "") -> str:
    """A name as the desk keeps it on every database (core.names): trimmed, no control character,
    at most 40 characters; `who` is whose name it is, in the reader's words (a player's if "")."""
    try:
        return clean_name(str(value or ""), who or _("a player"))
    except ValueError as error:
        raise ActionRefused(str(error)) from None


def chips(value: object, what: str) -> int:
    """A buy-in or rebuy (`what`, in the reader's words: "a rebuy"): a whole number of chips from 1
    to the core's limit."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_CHIPS:
        said = _("{what} is a whole number of chips from 1 to {most}, not {value}")
        raise ActionRefused(said.format(what=what, most=formatting.number(MAX_CHIPS), value=value))
    return value


def whole_number(value: object) -> int | None:
    """An int that is not a bool (JSON's true is not a hand number); None otherwise."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def rules(data: object) -> TableRules:
    if not isinstance(data, Mapping):
        raise ActionRefused(_("rules: must be an object of rules keys"))
    try:
        return TableRules.from_json(data)
    except (ValueError, TypeError, KeyError, IndexError) as error:
        raise ActionRefused(_("rules: {problem}").format(problem=error)) from None


def mappings(value: object, what: str) -> list[Mapping[str, object]]:
    """A list of objects (absent is none); anything else is refused naming `what` (a field's name)."""
    items = value or []
    if not isinstance(items, list | tuple) or not all(isinstance(item, Mapping) for item in items):
        raise ActionRefused(_("{field}: must be a list of objects").format(field=what))
    return list(items)
