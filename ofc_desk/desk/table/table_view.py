"""What the table's helpers (the Chinese showdown, the Fantasyland set, the floor's requests) ask of
the table on screen. `TableController` is it; the helpers take this protocol, the `Staging` (the
showdown reads it as `games.base.StagedCards`) and a service getter instead of the controller, so
none of them imports it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ofc_desk.service.front.table_service import TableService
    from ofc_desk.service.terms.snapshot import TableSnapshot

ServiceGetter = Callable[[], "TableService | None"]
"""The table open now, if any: asked at each use, for the desk may open another."""


class TableView(Protocol):
    @property
    def snapshot(self) -> TableSnapshot | None:
        """The table as last shown."""
        ...

    def show_refusal(self, sentence: str) -> None: ...

    def show_notice(self, sentence: str) -> None:
        """What was just done, said on the page's line."""
        ...

    def show_snapshot(self, snapshot: TableSnapshot) -> None: ...

    def refresh(self) -> None:
        """The table drawn again as the service has it now."""
        ...

    def refresh_staging(self) -> None:
        """The table drawn again with what is staged now."""
        ...

    def read_line_again(self) -> None:
        """The entry line read again, as if just typed: what it stages, or why not, said."""
        ...

    def enter(self, text: str, enter: Callable[[], TableSnapshot]) -> bool:
        """An entry recorded through `enter` and put on the undo stack as `text`; False (and why,
        said) when the service refused it."""
        ...

    def push_entry(self, text: str, redo: Callable[[], TableSnapshot]) -> None:
        """An entry recorded already, put on the undo stack as `text` (Ctrl+Y records it again)."""
        ...
