"""The three record views (F7 hand history, F8 chip ledger, F9 audit log) as a supervisor sees them:
readable in both themes, row by row, and the audit log in words."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication, QToolBar
from pytestqt.qtbot import QtBot

from ofc_desk.desk.actions import Command
from ofc_desk.desk.records.browser import RecordBrowser
from ofc_desk.desk.records.columns import Column
from ofc_desk.desk.records.models import OBJECT_ROLE, SETTLED_AT_COLUMN, AuditModel, HandHistoryModel
from ofc_desk.desk.records.report_actions import build_session_report, show_preview
from ofc_desk.desk.shell.theme import ThemeName
from ofc_desk.service import SeatSetup, TableRules, TableSetup
from ofc_desk.service.store.records import HandRecord
from ofc_desk.service.table.commands import VoidHand
from tests.desk.conftest import SUPERVISOR, Desk, screenshot
from tests.helpers.table_helpers import BOB_PLAIN, play_hand

VIEWS = {"Hand history": Command.HISTORY, "Chip ledger": Command.LEDGER, "Audit log": Command.AUDIT}
WCAG_AA = 4.5


def relative_luminance(colour: QColor) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(colour.red()) + 0.7152 * linear(colour.green()) + 0.0722 * linear(colour.blue())


def contrast(first: QColor, second: QColor) -> float:
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def play_three_hands_and_void_one(desk: Desk) -> None:
    setup = TableSetup("Test table", (SeatSetup("Ann", 100), SeatSetup("Bob", 100)), "Bob", TableRules())
    assert desk.session.open_new_table(setup) is None
    service = desk.session.controller.service
    assert service is not None
    for _ in range(3):
        play_hand(service, {"Bob": BOB_PLAIN})
    service.do(VoidHand(2, "misdeal", supervisor=SUPERVISOR[0], pin=SUPERVISOR[1]))


def open_view(desk: Desk, qtbot: QtBot, title: str) -> RecordBrowser:
    desk.window.action(VIEWS[title]).trigger()
    qtbot.waitUntil(lambda: title in desk.session.records.browsers)
    browser = desk.session.records.browsers[title]
    qtbot.waitUntil(lambda: browser.model.rowCount() >= 3 and browser.isVisible())
    return browser


def history_column(browser: RecordBrowser, column: Column[HandRecord]) -> int:
    """Where `column` is in the hand history `browser` shows (its model's columns are the games'
    registered when it was made)."""
    model = browser.model
    assert isinstance(model, HandHistoryModel)
    return model.columns.index(column)


def row_colours(browser: RecordBrowser, row: int, group: QPalette.ColorGroup) -> tuple[QColor, QColor]:
    """The (text, background) colours the view paints `row` with: the model's own colours where it
    gives them, else the view's palette (alternate rows, selection) as the style sheet set it."""
    table = browser.table
    palette = table.palette()
    index = table.model().index(row, 0)
    selected = table.selectionModel().isRowSelected(row)
    if selected:
        return palette.color(group, QPalette.ColorRole.HighlightedText), palette.color(
            group, QPalette.ColorRole.Highlight
        )
    background = index.data(Qt.ItemDataRole.BackgroundRole)
    foreground = index.data(Qt.ItemDataRole.ForegroundRole)
    base_role = (
        QPalette.ColorRole.AlternateBase
        if table.alternatingRowColors() and row % 2
        else QPalette.ColorRole.Base
    )
    return (
        QColor(foreground) if foreground is not None else palette.color(group, QPalette.ColorRole.Text),
        QColor(background) if background is not None else palette.color(group, base_role),
    )


def painted_background(browser: RecordBrowser, painted: QImage, row: int) -> QColor:
    """The colour on screen (`painted`: the view's viewport as grabbed) at the top left of the row's
    first cell (above its text)."""
    table = browser.table
    cell = table.visualRect(table.model().index(row, 0))
    return painted.pixelColor(cell.left() + 2, cell.top() + 1)


@pytest.mark.parametrize("theme", list(ThemeName))
def test_every_row_of_the_record_views_reads_at_wcag_aa_in_both_themes(
    desk: Desk, qtbot: QtBot, theme: ThemeName
) -> None:
    desk.session.apply_options(replace(desk.session.options, theme=theme))
    play_three_hands_and_void_one(desk)
    for title in VIEWS:
        browser = open_view(desk, qtbot, title)
        browser.table.setColumnWidth(0, 60)
        browser.table.horizontalHeader().setStretchLastSection(True)
        browser.resize(1400, 500)
        table = browser.table
        table.selectionModel().select(
            table.model().index(1, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
        )
        QApplication.processEvents()
        rows = table.model().rowCount()
        assert rows >= 3, title
        painted = table.viewport().grab().toImage()  # once: reading the rows changes nothing drawn
        for row in range(rows):
            for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
                text, background = row_colours(browser, row, group)
                ratio = contrast(text, background)
                where = f"{title}, {theme} theme, row {row + 1} ({group.name})"
                assert ratio >= WCAG_AA, f"{where}: {text.name()} on {background.name()} is {ratio:.2f}:1"
            if table.visualRect(table.model().index(row, 0)).bottom() < table.viewport().height():
                # What the palette says is what is painted (no style drawing its own rows over it).
                expected = row_colours(browser, row, QPalette.ColorGroup.Active if browser.isActiveWindow()
                                       else QPalette.ColorGroup.Inactive)[1]  # fmt: skip
                on_screen = painted_background(browser, painted, row)
                assert on_screen.name() == expected.name(), f"{title} row {row + 1}"
        browser.close()


def test_save_as_pdf_is_whole_in_the_report_preview_at_its_default_size(desk: Desk, qtbot: QtBot) -> None:
    play_three_hands_and_void_one(desk)
    service = desk.session.controller.service
    assert service is not None
    pdf = build_session_report(desk.session.require_database().url, service.session_id)
    refused: list[str] = []
    preview = show_preview(desk.window, pdf, refuse=refused.append)
    assert preview is not None and not refused
    qtbot.addWidget(preview)
    qtbot.waitUntil(preview.isVisible)
    QApplication.processEvents()
    toolbar = preview.findChild(QToolBar)
    assert toolbar is not None
    save = toolbar.widgetForAction(preview.save_action)
    assert save is not None and save.isVisible(), "Save as PDF is hidden in the toolbar's overflow"
    assert save.width() >= save.sizeHint().width(), f"Save as PDF squeezed to {save.width()} px"
    screen = preview.screen().availableGeometry()
    assert preview.width() <= screen.width() and preview.height() <= screen.height()
    # The whole toolbar shows, unless the screen itself is narrower: then the preview takes it all.
    fits = toolbar.width() >= toolbar.sizeHint().width()
    assert fits or preview.width() == screen.width(), f"{toolbar.sizeHint().width()} px in {preview.width()}"
    screenshot(preview, "report-preview-default-size")
    preview.close()


def test_the_audit_log_says_each_event_in_words_and_shows_the_raw_record_on_demand(
    desk: Desk, qtbot: QtBot
) -> None:
    play_three_hands_and_void_one(desk)
    browser = open_view(desk, qtbot, "Audit log")
    proxy = browser.proxy
    sentences = [proxy.index(row, AuditModel.SENTENCE).data() for row in range(proxy.rowCount())]
    assert f"{SUPERVISOR[0]} voided hand 2: misdeal" in sentences
    assert any(sentence.startswith("Ann: ") and " back" in sentence for sentence in sentences)
    assert not any("{" in sentence or "does not read" in sentence for sentence in sentences)
    assert browser.details_pane is not None and browser.details_button is not None
    assert not browser.details_pane.isVisible(), "the raw record only on demand"
    void_row = sentences.index(f"{SUPERVISOR[0]} voided hand 2: misdeal")
    browser.table.setCurrentIndex(proxy.index(void_row, 0))
    browser.details_button.click()
    assert browser.details_pane.isVisible()
    record = proxy.index(void_row, 0).data(OBJECT_ROLE)
    payload_text, hashes = browser.details_pane.toPlainText().split("\n\n")
    assert (
        json.loads(payload_text) == record.payload == {"hand": 2, "reason": "misdeal", "supervisor": "Floor"}
    )
    assert hashes == f"previous hash {record.prev_hash}\nhash {record.hash}"
    opening = next(row for row in range(proxy.rowCount()) if proxy.index(row, AuditModel.SEQ).data() == "1")
    browser.table.setCurrentIndex(proxy.index(opening, 0))
    assert json.loads(browser.details_pane.toPlainText().split("\n\n")[0])["table"] == "Test table"
    browser.details_button.click()
    assert not browser.details_pane.isVisible()


def test_the_history_shows_a_voided_hand_as_void_without_scrolling_sideways(desk: Desk, qtbot: QtBot) -> None:
    play_three_hands_and_void_one(desk)
    browser = open_view(desk, qtbot, "Hand history")
    proxy, table = browser.proxy, browser.table
    statuses = [proxy.index(row, HandHistoryModel.STATUS).data() for row in range(proxy.rowCount())]
    assert statuses.count("VOID: misdeal") == 1 and statuses.count("settled") == 2
    void_cell = table.visualRect(proxy.index(statuses.index("VOID: misdeal"), HandHistoryModel.STATUS))
    assert table.viewport().rect().contains(void_cell), "the VOID is off to the right of the window"
    settled_at = proxy.index(0, history_column(browser, SETTLED_AT_COLUMN)).data()
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", settled_at), settled_at
