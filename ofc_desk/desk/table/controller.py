"""The table controller: keys and clicks in, service calls out, the service's words back on screen.

It never decides a rule. Every placement is checked by `check_typing` the moment it is typed (the
service accepts a partial street), confirmed with `do`, and taken back with an `Undo` command. What is staged
but not yet confirmed is kept as a draft (`entry/drafts.py`) and staged again when the table is resumed.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QDialog

from ofc_desk.core.presets import Game
from ofc_desk.desk import refusals
from ofc_desk.desk.action_parts import Handler
from ofc_desk.desk.actions import Command
from ofc_desk.desk.entry.drafts import DraftStore, StagedDraft
from ofc_desk.desk.entry.key_syntax import KeyedPlacement, read_keyed_text
from ofc_desk.desk.entry.staging import (
    NO_HAND,
    Staging,
    StagingRead,
    seat_names,
    taken_by,
    takes_any_seat,
)
from ofc_desk.desk.entry.undo import EntryCommand
from ofc_desk.desk.games import game_at
from ofc_desk.desk.games.base import SetEntry, TakenBy, TurnEntry
from ofc_desk.desk.refusals import SERVICE_FAILURES, dealer_sentence
from ofc_desk.desk.shell.main_window import MainWindow
from ofc_desk.desk.table.faces import cards_in_play, prompt_text, seat_faces, status_parts, window_title
from ofc_desk.desk.table.floor_requests import FloorRequestWatch, requests_text
from ofc_desk.desk.table.offered import offer_actions
from ofc_desk.desk.table.read_only import TakenTableGuard
from ofc_desk.i18n import _
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.room.desk_holds import TakenElsewhere
from ofc_desk.service.store.pool_ledger import PoolReading
from ofc_desk.service.table.commands import Settle, StartHand, Undo
from ofc_desk.service.table.games.choose import entry_for
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.snapshot import Phase, TableSnapshot


class TableController(QObject):
    def __init__(self, window: MainWindow, drafts: DraftStore) -> None:
        super().__init__(window)
        self.window = window
        self.drafts = drafts
        self.service: TableService | None = None
        self.snapshot: TableSnapshot | None = None
        self.staging = Staging()
        self._done_sentence = ""
        self._kept_draft: StagedDraft | None = None
        self._pool_read: tuple[TableSnapshot, PoolReading | None] | None = None
        self._offered_for: tuple[TableService | None, TableSnapshot | None, bool] | None = None
        """The service, snapshot and staging the offered actions were last worked out for."""
        self.undo_stack = QUndoStack(self)
        self._set_entries: dict[Game, SetEntry | None] = {}
        """Each game's entry of a whole hand set in its dialog, built the first time its table asks."""
        self._set_offered: tuple[int, str] | None = None
        """The hand and player whose set's dialog was last opened by itself."""
        self.snapshot_listeners: list[Callable[[TableSnapshot], None]] = []
        self.floor_requests = FloorRequestWatch(self._service, self, self)
        self.taken_guard = TakenTableGuard(window, self._service, self)
        self._connect()
        self._offer_actions()  # no table yet: nothing to deal, undo or pay

    def _connect(self) -> None:
        window = self.window
        window.entry.line.textEdited.connect(self.on_entry_edited)
        window.entry.confirm_requested.connect(self.on_confirm_entry)
        window.entry.backspace_on_empty.connect(self.on_unstage_last)
        window.entry.clear_requested.connect(self.on_clear_staged)
        window.entry.undo_requested.connect(self.on_undo)
        window.entry.redo_requested.connect(self.on_redo)
        window.entry.key_text_clicked.connect(self.on_key_text_clicked)
        window.picker.card_picked.connect(self.on_card_picked)
        window.felt.seat_clicked.connect(self.on_seat_clicked)
        window.settlement.confirm_requested.connect(self.on_confirm_settlement)
        window.settlement.confirm_and_hold_requested.connect(self.on_confirm_settlement_and_hold)
        window.between_hands.deal_requested.connect(self.on_deal_next_hand)
        # A closed window has let its table go: a floor watch still ticking would fold in what
        # another desk recorded since and save the staged cards again as that table's draft.
        window.closing.connect(self.floor_requests.timer.stop)
        # Offered only when there is an entry to enter again: otherwise Ctrl+Y would do nothing, unsaid.
        redo = window.action(Command.REDO)
        redo.setEnabled(False)
        self.undo_stack.canRedoChanged.connect(redo.setEnabled)

    def handlers(self) -> dict[Command, Handler]:
        """The menu commands the table answers."""
        return {
            Command.UNDO: self.on_undo,
            Command.REDO: self.on_redo,
            Command.DEAL: self.on_deal_next_hand,
            Command.HAND_SET: self.open_set,
        }

    def _service(self) -> TableService | None:
        return self.service

    def turn_entry(self) -> TurnEntry | None:
        """The entry the table's game enters the turn with itself (a Chinese showdown's), or None
        where the street entry here takes it."""
        snapshot = self.snapshot
        if snapshot is None:
            return None
        return game_at(snapshot).entry_for(snapshot.to_act, self.staging, self._service, self)

    @property
    def staged(self) -> list[KeyedPlacement]:
        """The placements staged now (`Staging.placements`)."""
        return self.staging.placements

    # ------------------------------------------------------------------ showing the table
    def attach(self, service: TableService) -> None:
        self.service = service
        self.undo_stack.clear()
        self.staging.drop()
        self._set_offered = None  # another table: its sets are offered afresh
        self.window.entry.line.clear()
        snapshot = service.snapshot()
        self._kept_draft = draft = self.drafts.load(snapshot.session_id)
        self.show_snapshot(snapshot)
        if draft is not None:
            self._restore_draft(draft, snapshot)
        if service.entry_fault:  # an entry another desk's login recorded: the dealer calls the floor
            refusals.show_in_window_and_status(self.window, service.entry_fault)

    def show_snapshot(self, snapshot: TableSnapshot) -> None:
        self.snapshot = snapshot
        window = self.window
        window.setWindowTitle(window_title(snapshot))
        staging = self.staging
        window.felt.set_seats(seat_faces(snapshot, staging.placements, staging.staged_for()))
        window.status_line.set_parts(status_parts(snapshot, TableService.jackpot_words(self._pool(snapshot))))
        window.requests_line.setText(requests_text(snapshot))
        window.requests_line.setVisible(bool(snapshot.open_requests))
        game = game_at(snapshot)
        keys = game.prompt_keys(self.service)
        window.entry.prompt.setText(prompt_text(snapshot, staging.staged_for(), keys))
        window.entry.staged.setText(staging.text(snapshot))
        window.picker.set_in_play(cards_in_play(snapshot, staging.placements))
        window.entry.set_form(game, game.entry_form(self.service))
        window.entry.follow(self.turn_entry())
        self._keep_draft(snapshot)
        self._offer_actions()  # first: the page shown focuses its button only if enabled
        self._show_phase(snapshot)
        self.taken_guard.show()  # after the page: a desk whose table was taken over says why
        for listener in self.snapshot_listeners:
            listener(snapshot)

    def _pool(self, snapshot: TableSnapshot) -> PoolReading | None:
        """The room's pool as the service reads it for the desk (`pool_shown`), read once per
        snapshot, for both the status line and a settlement's preview: staging a card draws the same
        snapshot again, and the pool is a database read."""
        if self._pool_read is not None and self._pool_read[0] is snapshot:
            return self._pool_read[1]
        pool = self.service.pool_shown() if self.service is not None else None
        self._pool_read = (snapshot, pool)
        return pool

    def _show_phase(self, snapshot: TableSnapshot) -> None:
        window = self.window
        if snapshot.phase is Phase.LIVE:
            if window.bottom.currentIndex() != window.ENTRY_PAGE:
                window.show_page(window.ENTRY_PAGE)
            self._offer_set(snapshot)
        elif snapshot.phase is Phase.AWAITING_SETTLEMENT and (result := snapshot.result) is not None:
            service = self.service
            window.settlement.show_result(
                snapshot.hand_number,
                result,
                service,
                service.settlement_preview(self._pool(snapshot)) if service is not None else None,
            )
            window.show_page(window.SETTLEMENT_PAGE)
        else:
            window.between_hands.message.setText(self._between_hands_text(snapshot))
            window.show_page(window.BETWEEN_HANDS_PAGE)

    def _between_hands_text(self, snapshot: TableSnapshot) -> str:
        if snapshot.phase is Phase.CLOSED:
            return _("This table is closed.")
        upcoming = _("Between hands — hand {number} is next").format(number=snapshot.hand_number + 1)
        if snapshot.hand_voided:
            upcoming = _("Hand {number} was voided: it does not count. {upcoming}").format(
                number=snapshot.hand_number, upcoming=upcoming
            )
        if self.service is None:
            return _("{upcoming}.").format(upcoming=upcoming)
        try:
            self.service.check(StartHand())
        except ActionRefused as refusal:
            return _("{upcoming}, but it cannot be dealt yet: {refusal}.").format(
                upcoming=upcoming, refusal=refusal
            )
        return _("{upcoming}. Enter deals it.").format(upcoming=upcoming)

    # ------------------------------------------------------------------ a hand set in its dialog
    def _set_entry(self) -> SetEntry | None:
        """The entry of the table's game that sets a whole hand in its own dialog, if it has one."""
        if self.snapshot is None:
            return None
        game = game_at(self.snapshot)
        if game.game not in self._set_entries:
            self._set_entries[game.game] = game.set_entry(self.staging, self._service, self, self.window)
        return self._set_entries[game.game]

    def _offer_set(self, snapshot: TableSnapshot) -> None:
        """At a set's turn, its dialog opens by itself (once a hand and player)."""
        turn = snapshot.to_act
        if turn is None or taken_by(snapshot) is not TakenBy.DIALOG:
            return
        key = (snapshot.hand_number, turn.player)
        if self._set_offered != key:
            self._set_offered = key
            QTimer.singleShot(0, self.open_set)

    def open_set(self) -> None:
        """F6 (offered only while a set is due, `DeskGame.sets_due`), Enter at a set's turn, or the
        turn itself: the set's dialog, or why not yet."""
        if (entry := self._set_entry()) is not None:
            entry.open()

    @property
    def set_dialog(self) -> QDialog | None:
        """The dialog of a set being entered, while it is open."""
        entry = self._set_entry()
        return entry.dialog if entry is not None else None

    def _offer_actions(self) -> None:
        """What the service would refuse now is greyed out (its `can`); the reason is on screen."""
        service = self.service if self.taken_guard.reason() is None else None  # read-only: nothing
        staged = bool(self.staging.placements)
        last = self._offered_for
        if last is not None and last[0] is service and last[1] is self.snapshot and last[2] == staged:
            return  # the same table drawn again for a card staged: the service would take the same
        offer_actions(self.window, service, self.snapshot, staged=staged)
        self._offered_for = (service, self.snapshot, staged)

    def show_refusal(self, sentence: str) -> None:
        refusals.show_in_window(self.window, sentence)

    def _show_failure(self, failure: Exception) -> None:
        """The table as stored (the service has rolled back anything unrecorded), then why."""
        if self.service is not None and isinstance(failure, TakenElsewhere):
            self.service.check_hold()  # read-only from now on, saying why
        if self.service is not None:
            self.show_snapshot(self.service.snapshot())
        self.show_refusal(dealer_sentence(failure))

    def _clear_refusals(self) -> None:
        refusals.clear_in_window(self.window)

    def refresh_staging(self) -> None:
        if self.snapshot is not None:
            self.show_snapshot(self.snapshot)

    # ------------------------------------------------------------------ drafts
    def _keep_draft(self, snapshot: TableSnapshot) -> None:
        """Keep what is staged for the player to act, or forget the draft once nothing is."""
        draft = self.staging.draft(snapshot)
        if draft == self._kept_draft:
            return
        if draft is None:
            self.drafts.forget(snapshot.session_id)
        else:
            self.drafts.save(snapshot.session_id, draft)
        self._kept_draft = draft

    def _restore_draft(self, draft: StagedDraft, snapshot: TableSnapshot) -> None:
        """Stage the draft's cards again, each checked by the service as if typed now, provided
        nothing was recorded since they were typed."""
        read = self.staging.restore(draft, snapshot, self.service)
        if read is not None:
            self._show_read(read)
            self.refresh_staging()

    # ------------------------------------------------------------------ typing cards
    def on_entry_edited(self, text: str) -> None:
        self._show_read(self.staging.read(text, self.snapshot, self.service))

    def _show_read(self, read: StagingRead) -> None:
        """What reading the line staged, said: the line keeps what was not staged, and why."""
        if read.notice:
            self.refresh_staging()
            self.show_notice(read.notice)
            return
        if read.line != read.typed:
            self.window.entry.line.setText(read.line)
        if read.refusal:
            self.show_refusal(read.refusal)
        else:
            self._clear_refusals()
        if read.staged:
            self.refresh_staging()

    def read_line_again(self) -> None:
        self.on_entry_edited(self.window.entry.line.text())

    def on_key_text_clicked(self, key: str) -> None:
        line = self.window.entry.line
        line.setText(line.text() + key)
        self.on_entry_edited(line.text())
        line.setFocus()

    def on_card_picked(self, label: str) -> None:
        line = self.window.entry.line
        line.setText(f"{line.text().rstrip()} {label}".lstrip())
        self.on_entry_edited(line.text())
        line.setFocus()

    def on_unstage_last(self) -> None:
        if self.staging.unstage_last():
            self._clear_refusals()
            self.refresh_staging()

    def on_clear_staged(self) -> None:
        """Esc: every card staged for this street (or hand) taken back, and the line emptied;
        nothing that was recorded changes."""
        count = self.staging.clear()
        self.window.entry.line.clear()
        self.refresh_staging()
        if count and self.snapshot is not None:  # cards are staged only at a table
            self.show_notice(game_at(self.snapshot).taken_back_words(count))
        else:
            self._clear_refusals()

    def on_seat_clicked(self, player: str) -> None:
        """At a Chinese showdown a click on a seat picks it for the hand typed next, as typing its
        number and a colon would."""
        if not takes_any_seat(self.snapshot):
            return
        line = self.window.entry.line
        line.setText(self.staging.line_for_seat_click(line.text(), player, self.snapshot))
        self.on_entry_edited(line.text())
        line.setFocus()

    def on_confirm_entry(self) -> None:
        """Enter: confirm the street (or the face-down cards, once revealed) with the service."""
        keyed = read_keyed_text(self.window.entry.line.text(), seat_names(self.snapshot))
        if (turn_entry := self.turn_entry()) is not None:
            turn_entry.confirm(keyed)
            return
        if keyed.rest:
            self.show_refusal(keyed.problem or _unfinished(keyed.rest))
            return
        refusal = self.staging.addressed_refusal(keyed, self.snapshot, self.service)
        if refusal:
            self.show_refusal(refusal)
            return
        if keyed.placements:
            # Still in the line, so refused as typed: say why again (or stage it, if it fits now)
            # rather than confirm the street without it.
            self.on_entry_edited(self.window.entry.line.text())
            return
        service, turn = self.service, self.snapshot.to_act if self.snapshot else None
        if service is None or turn is None:
            self.show_refusal(str(NO_HAND))
            return
        if taken_by(self.snapshot) is TakenBy.DIALOG:
            self.open_set()
            return
        cards, rows = self.staging.lists()
        player, kind = turn.player, turn.kind

        def enter() -> TableSnapshot:
            return service.do(entry_for(kind, player, cards, rows))

        self.enter(f"{player}: {' '.join(cards)}", enter)

    def enter(self, text: str, enter: Callable[[], TableSnapshot]) -> bool:
        assert self.service is not None
        try:
            snapshot = enter()
        except SERVICE_FAILURES as failure:
            self._show_failure(failure)
            return False
        self.staging.entered()
        self.window.entry.line.clear()  # empty, or only the seat named before Enter ('bo:')
        self._clear_refusals()
        self.push_entry(text, enter)
        self.show_snapshot(snapshot)
        if self.service.anchor_fault:  # the street stands; the anchor file could not take it
            refusals.show_in_window_and_status(self.window, self.service.anchor_fault)
        return True

    def push_entry(self, text: str, redo: Callable[[], TableSnapshot]) -> None:
        service = self.service
        assert service is not None
        undo = lambda: service.do(Undo())  # noqa: E731
        command = EntryCommand(text, undo, redo, self.after_undo_or_redo, self.show_refusal)
        self.undo_stack.push(command)

    # ------------------------------------------------------------------ undo
    def on_undo(self) -> None:
        """Ctrl+Z takes back a staged card first; then the last confirmed entry, via the service."""
        if self.staging.placements:
            self.on_unstage_last()
            return
        if self.service is None:
            return
        if self.undo_stack.canUndo():
            self._done_sentence = _("Undone: {entry} (recorded as an undo)").format(
                entry=self.undo_stack.undoText()
            )
            self.undo_stack.undo()
            return
        # Entries made before this desk was opened (a resumed table) are not on the stack.
        try:
            snapshot = self.service.do(Undo())
        except SERVICE_FAILURES as failure:
            self._show_failure(failure)
            return
        self._done_sentence = _("Undone: the last confirmed entry (recorded as an undo)")
        self.after_undo_or_redo(snapshot)

    def on_redo(self) -> None:
        if self.undo_stack.canRedo():
            self._done_sentence = _("Entered again: {entry}").format(entry=self.undo_stack.redoText())
            self.undo_stack.redo()

    def after_undo_or_redo(self, snapshot: TableSnapshot) -> None:
        """Said on the line: an undo empties a seat's street, which must not pass unnoticed."""
        self.staging.drop()
        self._clear_refusals()
        self.show_snapshot(snapshot)
        refusals.show_notice_in_window(self.window, self._done_sentence)

    def show_notice(self, sentence: str) -> None:
        refusals.show_notice_in_window(self.window, sentence)

    # ------------------------------------------------------------------ between hands
    def on_confirm_settlement(self) -> None:
        """Enter on the settlement: chips move, and the next hand is dealt at once."""
        if self._confirm_settlement():
            self.on_deal_next_hand()

    def on_confirm_settlement_and_hold(self) -> None:
        """Settle but do not deal yet: buy-ins, cash-outs and voids happen only between hands."""
        if self._confirm_settlement() and self.service is not None:
            self.show_snapshot(self.service.snapshot())

    def _confirm_settlement(self) -> bool:
        service = self.service
        if service is None:
            return False
        try:
            service.do(Settle())
        except SERVICE_FAILURES as failure:
            self._show_failure(failure)
            return False
        self.undo_stack.clear()
        self._clear_refusals()
        done = self.floor_requests.carry_out()  # between hands now: what the floor approved
        if done:
            self.show_notice("; ".join(done))
        if service.anchor_fault:
            # In the status bar too: dealing the next hand at once clears the page's line.
            refusals.show_in_window_and_status(self.window, service.anchor_fault)
        return True

    def on_deal_next_hand(self) -> None:
        service = self.service
        if service is None:
            return
        try:
            snapshot = service.do(StartHand())
        except SERVICE_FAILURES as failure:
            self._show_failure(failure)
            return
        self.undo_stack.clear()
        self._clear_refusals()
        self.show_snapshot(snapshot)

    def refresh(self) -> None:
        if self.service is not None:
            self.show_snapshot(self.service.snapshot())


def _unfinished(rest: str) -> str:
    return _(
        "finish '{rest}': a card, then its row (or a seat's number or name, then a colon: '2:' or 'bo:')"
    ).format(rest=rest)
