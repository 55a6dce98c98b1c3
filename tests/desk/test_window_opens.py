"""The desk's window as it opens (issue 36): maximised, so a 1920x1080 screen is used whole (the
default size left a third of it empty, and a four-player Chinese settlement's pairs cut short)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from ofc_desk.desk.shell.app import show_first_window
from ofc_desk.desk.shell.theme import DisplaySettingsStore


def test_the_desk_opens_maximised(qtbot: QtBot, tmp_path: Path) -> None:
    store = DisplaySettingsStore(QSettings(str(tmp_path / "desk.ini"), QSettings.Format.IniFormat))
    window = show_first_window(store)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: bool(window.windowState() & Qt.WindowState.WindowMaximized))
