"""`ofc-desk`: the desk's entry point. The window appears first; the database opens behind it."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QLabel

from ofc_desk.core.resources import resources_dir
from ofc_desk.desk.shell.language import DESK_KEY, install_language, start_language
from ofc_desk.desk.shell.main_window import MainWindow
from ofc_desk.desk.shell.theme import DisplaySettingsStore, use_stylesheet
from ofc_desk.i18n import _

if TYPE_CHECKING:
    from ofc_desk.desk.shell.session import DeskSession

DEFAULT_WINDOW_SIZE = (1360, 900)


def application() -> QApplication:
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    _identify(app)
    return app


def _identify(app: QApplication) -> None:
    """Name and icon, also on an application someone else made (a test runner's)."""
    app.setApplicationName("OFC Desk")
    app.setOrganizationName("OFC Desk")
    # Matches resources/ofc-desk.desktop, so Wayland and the menu entry pair the window with it.
    app.setDesktopFileName("ofc-desk")
    if app.windowIcon().isNull():
        icon = resources_dir() / "icons" / "ofc-desk-256.png"
        if icon.is_file():
            app.setWindowIcon(QIcon(str(icon)))


def build_window(store: DisplaySettingsStore, *, complete: bool = True) -> MainWindow:
    """The main window; with `complete=False` just its shell (status line and felt), which is
    cheap to build, so the dealer sees a window at once."""
    options = store.load()
    use_stylesheet(application(), options)
    window = MainWindow(options, complete=complete)
    available = window.screen().availableGeometry()
    width, height = DEFAULT_WINDOW_SIZE
    window.resize(min(width, available.width()), min(height, available.height()))
    window.status_line.setText(_("Opening the database…"))
    return window


def show_first_window(store: DisplaySettingsStore) -> MainWindow:
    """Launch step one: the window shell on screen (what the start-up benchmark times)."""
    window = build_window(store, complete=False)
    window.show()
    return window


def start_session(window: MainWindow, db_url: str | None, store: DisplaySettingsStore) -> DeskSession:
    """Launch step two, on the event loop's first turn: the rest of the window, then the session."""
    window.complete()
    # Imported only now: the service, SQLAlchemy and Alembic take a moment to load.
    from ofc_desk.desk.shell.session import DeskSession

    session = DeskSession(window, db_url, store)
    window.setProperty("desk_session", session)
    return session


def chosen_database_url(db_url: str | None, store: DisplaySettingsStore) -> str | None:
    """--db wins; then the URL saved in Settings; else None (the default SQLite file)."""
    return db_url or store.database_url() or None


def run_desk(db_url: str | None) -> int:
    app = application()
    store = DisplaySettingsStore()
    install_language(app, start_language(store.settings, DESK_KEY))
    window = show_first_window(store)
    QTimer.singleShot(0, lambda: start_session(window, chosen_database_url(db_url, store), store).start())
    return int(app.exec())


def run_prepared_desk(
    db_url: str, dealer: tuple[str, str], session_id: int, note: str = "", *, smoke_test: bool = False
) -> int:
    """The desk signed in as `dealer` (name, PIN) on table `session_id`, with `note` kept in the
    status bar: used by `ofc-desk demo`. With `smoke_test` it exits once the table is drawn."""
    app = application()
    store = DisplaySettingsStore()
    install_language(app, start_language(store.settings, DESK_KEY))
    window = show_first_window(store)
    if note:
        window.statusBar().addWidget(QLabel(note, window))

    def begin() -> None:
        session = start_session(window, db_url, store)
        session.start_signed_in(dealer, session_id)
        if smoke_test:
            from ofc_desk.desk.shell.smoke_test import SmokeTest

            SmokeTest(session, app.exit).start()

    QTimer.singleShot(0, begin)
    return int(app.exec())
