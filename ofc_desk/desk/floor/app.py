"""`ofc-desk floor`: the floor supervisor's window over every open table of a database."""

from __future__ import annotations

from ofc_desk.desk.floor.controller import FloorController
from ofc_desk.desk.shell.app import application
from ofc_desk.desk.shell.theme import DisplaySettingsStore, use_stylesheet
from ofc_desk.storage.database import Database

DEFAULT_WINDOW_SIZE = (1340, 720)


def build_floor(database: Database) -> FloorController:
    """The floor window and its listening thread, not yet started."""
    use_stylesheet(application(), DisplaySettingsStore().load())
    controller = FloorController(database)
    available = controller.window.screen().availableGeometry()
    width, height = DEFAULT_WINDOW_SIZE
    controller.window.resize(min(width, available.width()), min(height, available.height()))
    return controller


def run_floor(database: Database, *, smoke_test: int | None = None) -> int:
    """The floor until its window closes; with `smoke_test`, until it shows that many open tables
    (`desk.floor.smoke_test`)."""
    app = application()
    controller = build_floor(database)
    app.aboutToQuit.connect(controller.stop)
    controller.start()
    if smoke_test is not None:
        from ofc_desk.desk.floor.smoke_test import FloorSmokeTest

        FloorSmokeTest(controller, smoke_test, app.exit).start()
    return int(app.exec())
