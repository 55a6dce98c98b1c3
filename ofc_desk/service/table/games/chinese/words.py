"""A Chinese poker showdown in the audit log's words (`actions.hand` says every other entry)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from ofc_desk.i18n import _
from ofc_desk.service.table.games.base import by_row
from ofc_desk.service.terms.payloads import ShownPayload


def shown_words(shown: ShownPayload) -> str:
    """A Chinese poker showdown: "Ann showed: front … · middle … · back …", a surrender or a
    declared special hand."""
    if shown["surrender"]:
        return _("{player} surrendered").format(player=shown["player"])
    if shown["declare"]:
        said = _("{player} declared {special}: {cards}")
        return said.format(player=shown["player"], special=shown["declare"], cards=" ".join(shown["cards"]))
    return _("{player} showed: {cards}").format(
        player=shown["player"], cards=by_row(shown["cards"], shown["rows"])
    )


def said_showdown(entry: Mapping[str, object]) -> str:
    """A stored showdown (a `shown` event's payload, or one an undo took back) in those words."""
    return shown_words(cast(ShownPayload, entry))
