"""Table → Correct a settled hand… (docs/rules.md §12) at the keyboard: the hand as entered, an entry
changed with the keys used when dealing, the recorded and corrected settlements side by side, a
refusal as when dealing, approved with the supervisor's PIN."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication

from ofc_desk.desk.actions import Command
from ofc_desk.desk.dialogs.correct_hand import CorrectHandDialog
from ofc_desk.i18n import Language
from ofc_desk.service.table.games.ofc.view_parts import OfcSeatView
from tests.desk.conftest import SUPERVISOR, Desk
from tests.desk.test_fantasyland_and_supervisor import settle_first_hand


def opened_dialog(desk: Desk) -> CorrectHandDialog:
    desk.window.action(Command.CORRECT_HAND).trigger()
    dialog = desk.session.active_dialog
    assert isinstance(dialog, CorrectHandDialog)
    return dialog


def cell(dialog: CorrectHandDialog, row: int, column: int) -> str:
    item = dialog.table.item(row, column)
    assert item is not None
    return item.text()


def retype(desk: Desk, dialog: CorrectHandDialog, line: str, typed: str) -> None:
    """Select one line of the entries, as the arrow keys would, and type it again."""
    found = dialog.entries.document().find(line)
    assert not found.isNull(), line
    cursor = dialog.entries.textCursor()
    cursor.setPosition(found.selectionStart())
    cursor.setPosition(found.selectionEnd(), QTextCursor.MoveMode.KeepAnchor)
    dialog.entries.setTextCursor(cursor)
    desk.qtbot.keyClicks(dialog.entries, typed)


def test_a_row_keyed_wrong_is_corrected_and_fantasyland_follows(desk: Desk) -> None:
    settle_first_hand(desk, deal_next=False)  # Ann's queens in front: Fantasyland next hand
    assert OfcSeatView.of(desk.snapshot.seat("Ann")).fantasyland_next
    before = {seat.name: seat.stack for seat in desk.snapshot.seats}
    dialog = opened_dialog(desk)
    assert dialog.hand.currentText() == "Hand 1"
    lines = dialog.entries.toPlainText().splitlines()
    assert lines[0] == "Ann: Ks back Kd back Kc back 7h back 7d back" and len(lines) == 18
    assert dialog.refusal.text() == "these are hand 1's entries as they stand: there is nothing to correct"

    retype(desk, dialog, "Ann: Qh front", "an: qh m")  # her queen of hearts was in the middle
    assert dialog.refusal.text() == "entry 13: Ann's middle already holds 5 cards"  # as when dealing
    assert dialog.table.rowCount() == 0
    retype(desk, dialog, "Ann: 9s middle", "an: 9s f")
    assert dialog.refusal.text() == "" and dialog.table.rowCount() == 2
    cells = [[cell(dialog, row, column) for column in range(7)] for row in range(2)]
    ann = next(row for row in cells if row[0] == "Ann")
    difference = int(ann[3].replace("−", "-"))
    assert "Fantasyland next hand: nobody" in dialog.words.text()

    desk.qtbot.keyClicks(dialog.reason, "Ann's queen was in her middle")
    desk.qtbot.keyClicks(dialog.supervisor, SUPERVISOR[0])
    desk.qtbot.keyClicks(dialog.pin, SUPERVISOR[1])
    desk.qtbot.keyClick(dialog.pin, Qt.Key.Key_Return)
    assert not dialog.isVisible()
    assert desk.snapshot.seat("Ann").stack == before["Ann"] + difference
    assert not OfcSeatView.of(desk.snapshot.seat("Ann")).fantasyland_next


def test_a_card_seen_twice_is_refused_as_when_dealing_and_nothing_is_recorded(desk: Desk) -> None:
    settle_first_hand(desk, deal_next=False)
    dialog = opened_dialog(desk)
    retype(desk, dialog, "Bob: 2d middle", "bo: qh m")  # Ann's queen of hearts
    assert dialog.refusal.text().startswith("entry ") and "Qh" in dialog.refusal.text()
    assert dialog.table.rowCount() == 0
    desk.qtbot.keyClicks(dialog.supervisor, SUPERVISOR[0])
    desk.qtbot.keyClicks(dialog.pin, SUPERVISOR[1])
    desk.qtbot.keyClick(dialog.pin, Qt.Key.Key_Return)
    assert dialog.isVisible() and "Qh" in dialog.refusal.text()
    assert desk.session.controller.service is not None
    assert desk.session.controller.service.machine.hand_traces[1].corrections == 0


def _shown_at_1366(desk: Desk, name: str) -> CorrectHandDialog:
    """The dialog with a correction typed, on a 1366×768 desk: it fits, and its picture is kept."""
    desk.window.resize(1366, 768)
    settle_first_hand(desk, deal_next=False)
    dialog = opened_dialog(desk)
    retype(desk, dialog, "Ann: Qh front", "an: qh m")
    retype(desk, dialog, "Ann: 9s middle", "an: 9s f")
    QApplication.processEvents()
    assert dialog.table.rowCount() == 2
    assert dialog.width() <= 1366 and dialog.height() <= 768
    desk.screenshot(name, dialog)
    return dialog


def test_the_dialog_fits_a_1366_desk_in_english(desk: Desk) -> None:
    dialog = _shown_at_1366(desk, "correct-hand-en")
    assert dialog.windowTitle() == "Correct a settled hand"


@pytest.mark.usefixtures("english_after")
def test_the_dialog_fits_a_1366_desk_in_russian(desk_in: Callable[[Language], Desk]) -> None:
    dialog = _shown_at_1366(desk_in(Language.RU), "correct-hand-ru")
    assert dialog.windowTitle() == "Исправить рассчитанную раздачу"
    header = dialog.table.horizontalHeaderItem(5)
    assert header is not None and header.text() == "Не покрыто"
