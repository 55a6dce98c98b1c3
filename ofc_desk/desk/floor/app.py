"""`ofc-desk floor`: the floor supervisor's window over every open table of a database."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMenu

import ofc_desk.desk.pyside_features  # noqa: F401  (before the rest of ofc_desk)
from ofc_desk.desk.floor.controller import FloorController
from ofc_desk.desk.floor.view import FloorWindow
from ofc_desk.desk.records.report_folder import keep_report_folder_in
from ofc_desk.desk.shell.application import application
from ofc_desk.desk.shell.collector import LAUNCH_HOLD_LIMIT_MS, LaunchHold, exec_then_freeze
from ofc_desk.desk.shell.language import (
    FLOOR_KEY,
    add_language_menu,
    draw_dialogs_ourselves,
    install_language,
    start_language,
)
from ofc_desk.desk.shell.theme import DisplaySettingsStore, use_stylesheet
from ofc_desk.i18n import _
from ofc_desk.storage.database import Database

DEFAULT_WINDOW_SIZE = (1340, 720)


def build_floor(database: Database, store: DisplaySettingsStore | None = None) -> FloorController:
    """The floor window and its listening thread, not yet started, in the floor's language (its
    own, kept in `store`'s settings: the user's Qt settings unless a test gives its own)."""
    store = store or DisplaySettingsStore()
    install_language(application(), start_language(store.settings, FLOOR_KEY))
    draw_dialogs_ourselves()
    use_stylesheet(application(), store.load())
    keep_report_folder_in(store.settings)
    controller = FloorController(database)
    add_settings_menu(controller.window, store)
    available = controller.window.screen().availableGeometry()
    width, height = DEFAULT_WINDOW_SIZE
    controller.window.resize(min(width, available.width()), min(height, available.height()))
    return controller


def add_settings_menu(window: FloorWindow, store: DisplaySettingsStore) -> QMenu:
    """Settings → Language, the floor's own choice, before Help (which stays last)."""
    settings_menu = QMenu(_("&Settings"), window)
    window.menuBar().insertMenu(window.help_menu.menuAction(), settings_menu)
    add_language_menu(
        settings_menu, store.settings, FLOOR_KEY, lambda said: window.statusBar().showMessage(said)
    )
    return settings_menu


def run_floor(database: Database, *, smoke_test: int | None = None, launch: LaunchHold | None = None) -> int:
    """The floor until its window closes; with `smoke_test`, until it shows that many open tables
    (`desk.floor.smoke_test`). The collector's hold through the launch (`launch`) ends once the
    first reading is shown (or `LAUNCH_HOLD_LIMIT_MS` after the start, whichever comes first).
    Once the window is closed, whatever is left is frozen: the interpreter's last collections
    would walk every object the floor made only to free them as the process ends."""
    app = application()
    controller = build_floor(database)
    app.aboutToQuit.connect(controller.stop)
    if launch is not None and launch.held:
        controller.launch = launch
        QTimer.singleShot(LAUNCH_HOLD_LIMIT_MS, launch.end)
    if smoke_test is not None:  # made first, to see the first reading
        from ofc_desk.desk.floor.smoke_test import FloorSmokeTest

        FloorSmokeTest(controller, smoke_test, app.exit).start()
    controller.start()
    return exec_then_freeze(app)
