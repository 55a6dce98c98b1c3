"""The desk's window as it opens and at the settlement (issue 36): maximised, so a 1920x1080
screen is used whole (the default size left a third of it empty); the settlement's page asks the
felt for room enough to show a four-player hand's lines, the same room whatever its title says
(the room asked for grew with the title after the felt was fitted: the last pair was cut)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ofc_desk.desk.hand_end.settlement_panel import WANTED_LINES, SettlementPanel
from ofc_desk.desk.shell.app import show_first_window
from ofc_desk.desk.shell.language import install_language
from ofc_desk.desk.shell.theme import DisplaySettingsStore
from ofc_desk.i18n import Language, _


def test_the_desk_opens_maximised(qtbot: QtBot, tmp_path: Path) -> None:
    store = DisplaySettingsStore(QSettings(str(tmp_path / "desk.ini"), QSettings.Format.IniFormat))
    window = show_first_window(store)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: bool(window.windowState() & Qt.WindowState.WindowMaximized))


@pytest.mark.usefixtures("english_after")
@pytest.mark.parametrize("language", list(Language), ids=[language.value for language in Language])
def test_the_settlement_page_asks_for_the_same_room_whatever_its_title_and_shows_its_lines(
    qtbot: QtBot, language: Language
) -> None:
    """The felt is fitted before the settlement's title is said: the room the page asks for must
    not change with the title, and that room shows the lines a four-player hand needs."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    install_language(app, language)
    panel = SettlementPanel()
    qtbot.addWidget(panel)
    before = panel.wanted_height()
    panel.title.setText(_("Hand {number} complete — check and confirm the settlement").format(number=12))
    assert panel.wanted_height() == before
    panel.resize(1346, before)  # as wide as the window on the smallest screen
    panel.show()
    QApplication.processEvents()
    lines = panel.details.fontMetrics().lineSpacing() * WANTED_LINES
    assert panel.details.viewport().height() >= lines
