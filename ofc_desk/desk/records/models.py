"""Table models for hand history, the chip ledger and the audit log.

Each has column constants, a display role (text), SORT_ROLE (a value that sorts right: numbers as
numbers) and OBJECT_ROLE (the service's record itself). Search goes through `searchable_proxy`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, ClassVar, Generic, TypeVar

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from ofc_desk.desk.games import DESK_GAMES, desk_game
from ofc_desk.desk.records.columns import Column
from ofc_desk.desk.records.roles import OBJECT_ROLE as OBJECT_ROLE
from ofc_desk.desk.records.roles import SORT_ROLE as SORT_ROLE
from ofc_desk.i18n import LazyText, _, lazy_gettext, lazy_pgettext, pgettext
from ofc_desk.service.store.records import AuditRecord, HandRecord, LedgerRecord
from ofc_desk.service.store.sentences import audit_sentence
from ofc_desk.service.terms.events import LedgerKind

RecordT = TypeVar("RecordT")
AnyIndex = QModelIndex | QPersistentModelIndex


class RecordTableModel(QAbstractTableModel, Generic[RecordT]):
    COLUMNS: ClassVar[Sequence[Column[Any]]] = ()
    """A model's columns where they are the same for every model of its kind (`columns`)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._records: list[RecordT] = []
        self.columns: Sequence[Column[Any]] = self.COLUMNS
        """This model's columns: fixed when it is made, but for the hand history's games' own."""

    def set_records(self, records: Sequence[RecordT]) -> None:
        self.beginResetModel()
        self._records = list(records)
        self.endResetModel()

    def columns_saying_nothing(self) -> frozenset[int]:
        """Columns that have nothing to say of these records: the views hide them."""
        return frozenset()

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 - Qt API
        return 0 if parent.isValid() else len(self._records)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 - Qt API
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: AnyIndex, role: int = int(Qt.ItemDataRole.DisplayRole)) -> Any:
        if not index.isValid() or index.row() >= len(self._records):
            return None
        record = self._records[index.row()]
        column = self.columns[index.column()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return column.text(record)  # the tooltip: a long cell in full
        if role == SORT_ROLE:
            return column.sort_key(record)
        if role == OBJECT_ROLE:
            return record
        if role == Qt.ItemDataRole.TextAlignmentRole and _is_number(column.sort_key(record)):
            # Chips and numbers right-aligned, so amounts line up by their last digit.
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = int(Qt.ItemDataRole.DisplayRole)
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return str(self.columns[section].header)
        return None


def _is_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _column(header: LazyText, value: Callable[[Any], Any], text: Callable[[Any], str] = str) -> Column[Any]:
    return Column(header, lambda record: text(value(record)), value)


def _kind_text(kind: str) -> str:
    """A ledger kind in the reader's words; a kind the desk does not know shows as stored."""
    known = LedgerKind.read(kind)
    return kind if known is None else str(known.label)


def _status_text(hand: HandRecord) -> str:
    if hand.voided:
        return _("VOID: {reason}").format(reason=hand.void_reason or "").strip()
    return pgettext("hand", "settled")


def _dealers_text(hand: HandRecord) -> str:
    # TRANSLATORS: between the dealers of one hand, in the order they dealt it ("Dana, then Rita").
    return pgettext("dealers of a hand", ", then ").join(hand.dealers)


def _transfers_text(hand: HandRecord) -> str:
    return "; ".join(f"{t.payer}→{t.payee} {t.paid}" for t in hand.result.transfers)


def _players_text(hand: HandRecord) -> str:
    return ", ".join(seat.name for seat in hand.result.seats)


def time_text(stored: str) -> str:
    """'2026-11-23T22:26:09.123456Z' as '2026-11-23 22:26:09 UTC'; anything else as stored."""
    try:
        moment = datetime.fromisoformat(stored)
    except ValueError:
        return stored
    zone = " UTC" if moment.utcoffset() == timedelta(0) else ""
    return moment.strftime("%Y-%m-%d %H:%M:%S") + zone


def games_columns() -> tuple[Column[HandRecord], ...]:
    """The hand history's columns of the games' own (`DeskGame.history_columns`: OFC's Fantasyland),
    in the New table's order, each once: those of the games registered when it is asked."""
    return tuple(dict.fromkeys(column for part in DESK_GAMES.values() for column in part.history_columns))


TRANSFERS_COLUMN: Column[HandRecord] = Column(lazy_gettext("Transfers"), _transfers_text, _transfers_text)
RAKE_COLUMN = _column(lazy_gettext("Rake"), lambda hand: sum(hand.rake.values()))
SETTLED_AT_COLUMN = _column(lazy_gettext("Settled at"), lambda hand: hand.settled_at, time_text)


class HandHistoryModel(RecordTableModel[HandRecord]):
    """Its columns are the games' registered when it is made, asked again with each set of records
    (`games_columns`): a history kept open takes the columns of a game registered since, with its
    hands. A column after the games' own is found by `columns.index` (`TRANSFERS_COLUMN`, …)."""

    # Status second: a voided hand shows without scrolling sideways; the games' own columns after
    # the players.
    NUMBER, STATUS, BUTTON, DEALERS, PLAYERS = range(5)
    LEADING = (
        _column(lazy_gettext("Hand"), lambda hand: hand.number),
        Column(lazy_gettext("Status"), _status_text, lambda hand: hand.voided),
        _column(lazy_pgettext("dealer button", "Button"), lambda hand: hand.button),
        Column(lazy_gettext("Dealt by"), _dealers_text, _dealers_text),
        Column(lazy_gettext("Players"), _players_text, _players_text),
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._take_games_columns()

    def set_records(self, records: Sequence[HandRecord]) -> None:
        self.beginResetModel()
        self._records = list(records)
        self._take_games_columns()
        self.endResetModel()

    def _take_games_columns(self) -> None:
        self.games_columns = games_columns()
        self.columns = (*self.LEADING, *self.games_columns, TRANSFERS_COLUMN, RAKE_COLUMN, SETTLED_AT_COLUMN)

    def columns_saying_nothing(self) -> frozenset[int]:
        """A game's own column where no hand shown is of a game that gives it (a Chinese poker
        table's history has no Fantasyland column); every column before the records come."""
        if not self._records:
            return frozenset()
        given = {column for hand in self._records for column in desk_game(hand.result.game).history_columns}
        return frozenset(self.columns.index(column) for column in self.games_columns if column not in given)


class LedgerModel(RecordTableModel[LedgerRecord]):
    EVENT, HAND, PLAYER, KIND, AMOUNT, NOTE = range(6)
    COLUMNS = (
        _column(lazy_gettext("Event"), lambda entry: entry.event_id),
        Column(
            lazy_gettext("Hand"),
            lambda entry: "" if entry.hand_number is None else str(entry.hand_number),
            lambda entry: -1 if entry.hand_number is None else entry.hand_number,
        ),
        _column(lazy_gettext("Player"), lambda entry: entry.player),
        _column(lazy_gettext("Kind"), lambda entry: entry.kind, _kind_text),
        _column(lazy_gettext("Amount"), lambda entry: entry.amount, lambda amount: f"{amount:+d}"),
        _column(lazy_gettext("Note"), lambda entry: entry.note),
    )


class AuditModel(RecordTableModel[AuditRecord]):
    """Each event in words (the service's sentence); `raw_event_text` gives the record itself."""

    # The sentence last, where the window's width goes; the hashes are in the raw record.
    SEQ, AT, KIND, ACTOR, SENTENCE = range(5)
    COLUMNS = (
        _column(lazy_pgettext("event number", "#"), lambda event: event.seq),
        _column(lazy_gettext("At"), lambda event: event.at, time_text),
        _column(lazy_gettext("Kind"), lambda event: event.kind),
        _column(lazy_gettext("By"), lambda event: event.actor),
        _column(lazy_gettext("What happened"), audit_sentence),
    )


def raw_event_text(event: AuditRecord) -> str:
    """The stored payload as JSON, and the hashes that chain the event, for the supervisor to check."""
    payload = json.dumps(event.payload, sort_keys=True, indent=2, ensure_ascii=False)
    hashes = _("previous hash {previous}\nhash {hash}").format(previous=event.prev_hash, hash=event.hash)
    return f"{payload}\n\n{hashes}"


def searchable_proxy(model: QAbstractTableModel, parent: QObject | None = None) -> QSortFilterProxyModel:
    """Sort by SORT_ROLE; search every column, ignoring case."""
    proxy = QSortFilterProxyModel(parent)
    proxy.setSourceModel(model)
    proxy.setSortRole(SORT_ROLE)
    proxy.setFilterKeyColumn(-1)
    proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    return proxy
