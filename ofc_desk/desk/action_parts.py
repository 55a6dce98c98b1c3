"""The parts the rows of the desk's action table (`desk/actions.py`) are built from: the menus,
the shortcuts the platform names, what an action's offer is decided from (`TableNow`), the handler
of a command, and a dialog described as data (its fields, the service call, the sentence said when
it is done, its request to the floor). No Qt and no service at import.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum, auto
from typing import TYPE_CHECKING

from ofc_desk.i18n import LazyText, lazy_gettext

if TYPE_CHECKING:
    from ofc_desk.service.front.table_service import TableService
    from ofc_desk.service.table.commands import Command as ServiceCommand
    from ofc_desk.service.terms.setup import TableRules
    from ofc_desk.service.terms.snapshot import TableSnapshot


class Menu(StrEnum):
    """The menu bar, left to right."""

    FILE = "file"
    EDIT = "edit"
    TABLE = "table"
    VIEW = "view"
    SETTINGS = "settings"
    HELP = "help"

    @property
    def label(self) -> LazyText:
        return MENU_LABELS[self]


MENU_LABELS = {
    Menu.FILE: lazy_gettext("&File"),
    Menu.EDIT: lazy_gettext("&Edit"),
    Menu.TABLE: lazy_gettext("&Table"),
    Menu.VIEW: lazy_gettext("&View"),
    Menu.SETTINGS: lazy_gettext("&Settings"),
    Menu.HELP: lazy_gettext("&Help"),
}


class StandardShortcut(StrEnum):
    """A shortcut the platform names (Qt's `QKeySequence.StandardKey`, by its name)."""

    UNDO = "Undo"
    QUIT = "Quit"
    ZOOM_IN = "ZoomIn"
    ZOOM_OUT = "ZoomOut"


Handler = Callable[[], object] | Callable[[bool], object]
"""What a command does when chosen; a checkable entry's handler may take whether it is checked."""


@dataclass(frozen=True)
class TableNow:
    """What decides whether an action is offered: the table open, as last shown, and whether cards
    are staged (the desk takes a staged card back by itself, without the service)."""

    service: TableService | None
    snapshot: TableSnapshot | None
    staged: bool = False

    def players(self) -> list[str]:
        return [seat.name for seat in self.snapshot.seats] if self.snapshot and self.service else []


Enabled = Callable[[TableNow], bool]


class FieldKind(Enum):
    TEXT = auto()
    """A line of text, taken without its surrounding spaces."""
    CHIPS = auto()
    """A number of chips, from 0 up to the core's limit."""
    SIGNED_CHIPS = auto()
    """Chips added (positive) or taken off (negative), within the core's limit."""
    PLAYER = auto()
    """One of the seated players (`Field.seated` says which)."""
    FREE_SEAT = auto()
    """One of the table's empty seats, said by who sits either side of it."""
    SETTLED_HAND = auto()
    """The number of a hand settled at this table; the one just settled first."""
    RULES = auto()
    """The table's rules and stakes, starting from the current ones (the game kept)."""


class Seated(Enum):
    """Which seated players a player field lists."""

    ALL = auto()
    PLAYING = auto()
    SITTING_OUT = auto()


@dataclass(frozen=True)
class Field:
    """One field of an action's dialog: what it asks for and how."""

    key: str
    kind: FieldKind
    label: LazyText | None = None
    """Its caption, which is also its accessible name (the rules fields have their own)."""
    default: int = 0
    """A chips field's amount to start from."""
    seated: Seated = Seated.ALL

    def __post_init__(self) -> None:
        if (self.label is None) != (self.kind is FieldKind.RULES):
            raise ValueError(f"{self.key}: every field but the rules (which have their own) has a label")


@dataclass(frozen=True)
class Values:
    """What a dialog's fields held when OK (or Ask the floor) was pressed."""

    texts: Mapping[str, str] = field(default_factory=dict)
    """Text and player fields, by key."""
    numbers: Mapping[str, int] = field(default_factory=dict)
    """Chips and hand-number fields, by key."""
    seat: int | None = None
    """The free seat chosen (None when the table has none)."""
    rules: TableRules | None = None
    supervisor: str = ""
    pin: str = ""

    def text(self, key: str) -> str:
        return self.texts[key]

    def number(self, key: str) -> int:
        return self.numbers[key]

    def chosen_rules(self) -> TableRules:
        if self.rules is None:
            raise LookupError("this dialog has no rules fields")
        return self.rules


CommandOf = Callable[[Values], "ServiceCommand"]
"""The service's command a dialog's values make (`service.table.commands`), done by `TableService.do`."""
Said = Callable[[Values, "TableSnapshot", "TableSnapshot"], str]
"""What was done, in words, from the values and the table before and after: the notice line."""


@dataclass(frozen=True)
class FloorAsk:
    """The dialog's "Ask the floor": the same action (the dialog's command) as a request, with the
    dialog's reason."""

    reason: str = "reason"
    """The field whose text goes with the request."""


@dataclass(frozen=True)
class ActionDialog:
    """The dialog of an action: its words, its fields and the command they make."""

    title: LazyText
    explanation: LazyText
    fields: tuple[Field, ...]
    command: CommandOf
    said: Said
    supervised: bool = False
    """Authorised by a floor supervisor's name and PIN, asked for last."""
    ask_the_floor: FloorAsk | None = None
