"""The entry that takes Chinese poker's kind of turn (`view_parts.ChineseTurn`), as a command
(`service.table.commands`): a player's showdown."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from ofc_desk.service.table.commands import Entry
from ofc_desk.service.table.games.chinese.view_parts import ChineseTurn
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import RawPayload
from ofc_desk.service.terms.setup import TableRules


@dataclass(frozen=True)
class Show(Entry):
    """A player's showdown, in any order; the hand is scored once every player has one: 13 cards
    with a row word each, a special they make which the dealer declares (`declare`, its kind's
    value; its rows may be left out), or a surrender (no cards)."""

    kind = EventKind.SHOWN
    declare: str | None = None
    surrender: bool = False

    def raw(self, in_force: TableRules) -> RawPayload:
        if self.surrender:
            return {"surrender": True, "player": self.player}
        raw = dict(super().raw(in_force))
        if self.declare is None:
            return raw
        if not self.rows:  # a special declared from its 13 cards alone, as a script may say it
            del raw["rows"]
        return {**raw, "declare": self.declare}


CHINESE_TURN_ENTRIES: Final[Mapping[str, type[Entry]]] = {ChineseTurn.SHOWDOWN: Show}
"""The command that enters Chinese poker's turn (`choose.TURN_ENTRIES`)."""
