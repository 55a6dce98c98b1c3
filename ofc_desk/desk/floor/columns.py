"""The floor's columns, said once: each one's key, header, text, detail (its tooltip) and look.

`FloorTableModel` reads only `FLOOR_COLUMNS`; a new column is a row here (plus `service/oversight/floor.py`
if it needs data the floor does not read yet). The texts are made from the service's `FloorTable`;
those that ask the table's game are `game_columns`', loaded when first asked. A table shown as kept
(`FloorTable.words`, issue 39) is shown in the words kept with it, but for the pace, which moves with
the clock: a floor's first listing of tables that have not moved loads no game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ofc_desk.desk.floor.cell_text import KEEP, NO_VALUE
from ofc_desk.i18n import LazyText, _, lazy_gettext, ngettext
from ofc_desk.service.oversight.floor_kept import PACE_AFTER_MINUTES, FloorTable, LastSettlement

TOO_EARLY = lazy_gettext("too early")
"""The pace of a table open less than `service.oversight.floor.PACE_AFTER_MINUTES`."""


def game_text(table: FloorTable) -> str:
    from ofc_desk.desk.floor import game_columns  # the games: when first asked (`game_columns`)

    return game_columns.game_text(table)


def hand_text(table: FloorTable) -> str:
    from ofc_desk.desk.floor import game_columns  # the games: when first asked (`game_columns`)

    return game_columns.hand_text(table)


def to_act_text(table: FloorTable) -> str:
    from ofc_desk.desk.floor import game_columns  # the games: when first asked (`game_columns`)

    return game_columns.to_act_text(table)


def players_text(table: FloorTable) -> str:
    from ofc_desk.desk.floor import game_columns  # the games: when first asked (`game_columns`)

    return game_columns.players_text(table)


def players_detail(table: FloorTable) -> str:
    from ofc_desk.desk.floor import game_columns  # the games: when first asked (`game_columns`)

    return game_columns.players_detail(table)


def pace_text(table: FloorTable) -> str:
    return str(TOO_EARLY) if table.hands_per_hour is None else str(table.hands_per_hour)


def pace_detail(table: FloorTable) -> str:
    opened = table.opened_at[11:16]
    count = table.hands_settled
    settled = ngettext(
        "{count} hand settled since it opened at {opened} UTC",
        "{count} hands settled since it opened at {opened} UTC",
        count,
    ).format(count=count, opened=opened)
    if table.hands_per_hour is None:
        later = ngettext(
            "{settled}; the pace shows after its first {minutes} minute",
            "{settled}; the pace shows after its first {minutes} minutes",
            PACE_AFTER_MINUTES,
        )
        return later.format(settled=settled, minutes=PACE_AFTER_MINUTES)
    return settled


def settlement_text(last: LastSettlement | None) -> str:
    if last is None:
        return NO_VALUE
    moves = [f"{t.payer}→{t.payee}{KEEP}{_amount_moved(t.paid, t.owed)}" for t in last.transfers]
    shown = ", ".join(moves) if moves else _("no chips moved")
    if last.award is not None:
        shares = ", ".join(f"{name}{KEEP}+{chips}" for name, chips in last.award.chips.items() if chips)
        shown = _("{moves}; room jackpot award: {shares}").format(moves=shown, shares=shares or "0")
    if last.voided:
        return _("hand {number}: {moves} (voided)").format(number=last.hand_number, moves=shown)
    return _("hand {number}: {moves}").format(number=last.hand_number, moves=shown)


def _amount_moved(paid: int, owed: int) -> str:
    """What a transfer paid, and what it owed when it paid less; it never breaks across lines."""
    return (
        str(paid) if paid == owed else _("{paid} of {owed}").format(paid=paid, owed=owed).replace(" ", KEEP)
    )


def table_text(table: FloorTable) -> str:
    return f"{table.table}  ⚠" if table.fault else table.table


def requests_text(table: FloorTable) -> str:
    return "; ".join(request.line for request in table.open_requests)


def table_detail(table: FloorTable) -> str:
    return table.fault or _("session {session}, opened {opened} UTC").format(
        session=table.session_id, opened=table.opened_at
    )


@dataclass(frozen=True)
class FloorColumn:
    key: str
    header: LazyText
    text: Callable[[FloorTable], str]
    detail: Callable[[FloorTable], str] | None = None
    """Its tooltip, if it has more to say than its text."""
    bold: bool = False
    wide: bool = False
    """Given the room the others leave (players, settlements and requests run long)."""
    clocked: bool = False
    """Its words move with the clock (the pace): made again at each showing, never kept."""


FLOOR_COLUMNS: tuple[FloorColumn, ...] = (
    FloorColumn("table", lazy_gettext("Table"), table_text, table_detail, bold=True),
    FloorColumn("game", lazy_gettext("Game"), game_text),
    FloorColumn("hand", lazy_gettext("Hand"), hand_text, wide=True),
    FloorColumn("to_act", lazy_gettext("To act"), to_act_text, wide=True),
    FloorColumn("players", lazy_gettext("Players (chips)"), players_text, players_detail, wide=True),
    FloorColumn("pace", lazy_gettext("Hands/h"), pace_text, pace_detail, clocked=True),
    FloorColumn(
        "last_settlement",
        lazy_gettext("Last settlement"),
        lambda table: settlement_text(table.last_settlement),
        wide=True,
    ),
    FloorColumn(
        "requests",
        lazy_gettext("Open requests"),
        requests_text,
        lambda _table: _("requests from the desks appear here"),
        wide=True,
    ),
)


def column_index(key: str) -> int:
    """Where the column `key` is shown, counting from 0."""
    return _INDEX[key]


_INDEX = {column.key: index for index, column in enumerate(FLOOR_COLUMNS)}
LAYOUT = ",".join(column.key for column in FLOOR_COLUMNS)
"""The columns a row's kept words were made for (`kept_words`): words kept for others are not shown."""


def kept_words(table: FloorTable) -> tuple[str, ...]:
    """The row's words, kept with the table (`service.oversight.floor.FloorReader`'s `words`):
    `LAYOUT`, each column's text, then each column's tooltip ("" where it has none)."""
    texts = (column.text(table) for column in FLOOR_COLUMNS)
    details = (column.detail(table) if column.detail else "" for column in FLOOR_COLUMNS)
    return (LAYOUT, *texts, *details)


def row_texts(table: FloorTable) -> tuple[str, ...]:
    """The table's text in each of `FLOOR_COLUMNS`: as kept, if it is shown as kept."""
    kept = _kept(table)
    if kept is None:
        return tuple(column.text(table) for column in FLOOR_COLUMNS)
    return tuple(
        column.text(table) if column.clocked else said
        for column, said in zip(FLOOR_COLUMNS, kept[: len(FLOOR_COLUMNS)], strict=True)
    )


def row_detail(table: FloorTable, index: int) -> str | None:
    """The tooltip of the table's cell in column `index`: as kept, if it is shown as kept."""
    column = FLOOR_COLUMNS[index]
    kept = _kept(table)
    if kept is not None and not column.clocked:
        return kept[len(FLOOR_COLUMNS) + index] or None
    return column.detail(table) if column.detail else None


def _kept(table: FloorTable) -> tuple[str, ...] | None:
    """The words kept with the table (`kept_words`) without `LAYOUT`, if kept for these columns."""
    words = table.words
    if len(words) != 1 + 2 * len(FLOOR_COLUMNS) or words[0] != LAYOUT:
        return None
    return words[1:]
