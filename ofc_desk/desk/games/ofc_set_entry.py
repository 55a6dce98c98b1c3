"""OFC's Fantasyland set, entered whole in its own dialog (`OfcDesk.set_entry`, a `SetEntry`): the
desk opens it at the set's turn (F6 opens it again), the service checks each row as it is typed,
OK reveals the set and Ctrl+Z takes it back like any entry. Every rule is the service's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ofc_desk.core.cards import CardError, parse_entries
from ofc_desk.desk import refusals
from ofc_desk.desk.entry.key_syntax import KeyedPlacement, entry_lists
from ofc_desk.desk.games.ofc_set_dialog import FantasylandSetDialog
from ofc_desk.desk.refusals import SERVICE_FAILURES, dealer_sentence
from ofc_desk.i18n import _
from ofc_desk.service.table.games.ofc.commands import Reveal
from ofc_desk.service.table.games.ofc.view_parts import OfcTurn
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.snapshot import Phase

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from ofc_desk.desk.games.base import DeskGame, StagedCards
    from ofc_desk.desk.table.table_view import ServiceGetter, TableView


class FantasylandEntry:
    def __init__(
        self, game: DeskGame, staging: StagedCards, service: ServiceGetter, view: TableView, parent: QWidget
    ) -> None:
        self.game = game
        """OFC's part: who is dealt a set this hand (`sets_due`)."""
        self.staging = staging
        self.service = service
        self.view = view
        self.parent = parent
        """The set's dialog opens over it."""
        self.dialog: FantasylandSetDialog | None = None

    def open(self) -> None:
        snapshot = self.view.snapshot
        turn = snapshot.to_act if snapshot else None
        if turn is None or turn.kind is not OfcTurn.FANTASYLAND_SET:
            self.view.show_refusal(self._when_the_set_comes())
            return
        if self.dialog is not None and self.dialog.isVisible():
            return
        dialog = FantasylandSetDialog(turn.player, turn.take, self.parent)
        for _row, line in dialog.fields():
            line.textEdited.connect(lambda _text: self._check(dialog, partial=True))
        dialog.set_attempt(lambda: self._check(dialog, partial=False))
        dialog.finished.connect(lambda _result: self._forget(dialog))
        self.dialog = dialog
        dialog.open()

    def _when_the_set_comes(self) -> str:
        """F6 before a Fantasyland set's turn: the service's word on when it comes."""
        snapshot, service = self.view.snapshot, self.service()
        waiting = self.game.sets_due(snapshot) if snapshot else ()
        if service is None or snapshot is None or snapshot.phase is not Phase.LIVE or not waiting:
            return _("nobody is in Fantasyland in a hand being dealt: F6 opens a Fantasyland set at its turn")
        try:
            service.check_typing(Reveal(waiting[0]))
        except ActionRefused as refusal:
            return str(refusal)
        return _("{player}'s Fantasyland set is next").format(player=waiting[0])

    def _forget(self, dialog: FantasylandSetDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None
        if self.staging.placements:  # closed without revealing: the seat shows only what is recorded
            self.staging.drop()
            self.view.refresh_staging()

    def _check(self, dialog: FantasylandSetDialog, *, partial: bool) -> str | None:
        service = self.service()
        if service is None:
            return _("no table is open")
        try:
            placements = _set_placements(dialog)
        except CardError as error:
            refusals.show_on(dialog.refusal, str(error))
            return str(error)
        cards, rows = entry_lists(placements)
        try:
            if partial:
                service.check_typing(Reveal(dialog.player, cards, rows))
            else:
                self._reveal(dialog.player, cards, rows)
        except SERVICE_FAILURES as failure:
            refusals.show_on(dialog.refusal, dealer_sentence(failure))
            return dealer_sentence(failure)
        refusals.show_on(dialog.refusal, "")
        if partial:  # the seat shows the set as it is typed, dashed until revealed
            self.staging.show(placements)
            self.view.refresh_staging()
        return None

    def _reveal(self, player: str, cards: list[str], rows: list[str]) -> None:
        service = self.service()
        assert service is not None
        entry = Reveal(player, cards, rows)
        snapshot = service.do(entry)
        self.staging.drop()
        self.view.push_entry(_("{player}: Fantasyland set").format(player=player), lambda: service.do(entry))
        self.view.show_snapshot(snapshot)


def _set_placements(dialog: FantasylandSetDialog) -> list[KeyedPlacement]:
    return [KeyedPlacement(card, row) for row, line in dialog.fields() for card in parse_entries(line.text())]
