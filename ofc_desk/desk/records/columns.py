"""A column of a record view (`Column`): its header, a record's text in it and what it sorts by.
Apart from the models, so a game's part of the desk gives the hand history's columns of its own
(`DeskGame.history_columns`) without importing Qt's models."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ofc_desk.i18n import LazyText

RecordT = TypeVar("RecordT")


@dataclass(frozen=True)
class Column(Generic[RecordT]):
    """A column of a records list: its header, text and sort key."""

    header: LazyText
    text: Callable[[RecordT], str]
    sort_key: Callable[[RecordT], Any]
