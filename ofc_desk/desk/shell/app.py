"""`ofc-desk`: the desk's entry point. The window appears first; the database opens behind it."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QMargins, QObject, QRect, QTimer
from PySide6.QtWidgets import QLabel, QWidget

import ofc_desk.desk.pyside_features  # noqa: F401  (before the rest of ofc_desk)
from ofc_desk.desk.shell.application import application
from ofc_desk.desk.shell.collector import LAUNCH_HOLD_LIMIT_MS, LaunchHold, exec_then_freeze
from ofc_desk.desk.shell.language import DESK_KEY, install_language, start_language
from ofc_desk.desk.shell.main_window import MainWindow
from ofc_desk.desk.shell.theme import DisplaySettingsStore, use_stylesheet
from ofc_desk.i18n import _

if TYPE_CHECKING:
    from ofc_desk.desk.shell.session import DeskSession

DEFAULT_WINDOW_SIZE = (1360, 900)
FRAME_ALLOWANCE = QMargins(1, 20, 1, 5)
"""The frame a window manager draws around the window, before the real one is known: openbox's,
measured under Xvfb (_NET_FRAME_EXTENTS: 1 px each side, a 20 px title bar, a 5 px handle below).
Once the window is shown its real frame is used (`keep_frame_on_screen`)."""


def build_window(store: DisplaySettingsStore, *, complete: bool = True) -> MainWindow:
    """The main window; with `complete=False` just its shell (status line and felt), which is
    cheap to build, so the dealer sees a window at once."""
    options = store.load()
    use_stylesheet(application(), options)
    window = MainWindow(options, complete=complete)
    fit_to_screen(window, window.screen().availableGeometry())
    window.status_line.setText(_("Opening the database…"))
    return window


def fit_to_screen(window: MainWindow, available: QRect, frame: QMargins = FRAME_ALLOWANCE) -> None:
    """The default size, or the screen's available area (the task bar left out) when that is
    smaller, title bar and frame included: on a 1366x768 screen the whole window, its bottom line
    too, is on the screen. A window that fills the screen starts at its top left corner."""
    room = available.marginsRemoved(frame)
    width, height = min(DEFAULT_WINDOW_SIZE[0], room.width()), min(DEFAULT_WINDOW_SIZE[1], room.height())
    window.resize(width, height)
    if width == room.width() or height == room.height():
        window.move(available.topLeft())


def keep_frame_on_screen(window: QWidget, available: QRect) -> None:
    """The window's whole frame, title bar included, made to fit `available`: smaller by what it
    runs over, then moved inside."""
    frame, inner = window.frameGeometry(), window.geometry()
    extra_width = max(0, frame.width() - available.width())
    extra_height = max(0, frame.height() - available.height())
    if extra_width or extra_height:
        window.resize(inner.width() - extra_width, inner.height() - extra_height)
    frame = window.frameGeometry()
    if not available.contains(frame):
        left = min(max(frame.left(), available.left()), available.right() + 1 - frame.width())
        top = min(max(frame.top(), available.top()), available.bottom() + 1 - frame.height())
        window.move(left, top)


class _FrameWatch(QObject):
    """Waits for the window manager to frame the window (the frame is known from the move that
    reparenting makes), then fits the real frame to the screen once, should it be bigger than
    FRAME_ALLOWANCE: from then on the dealer moves and sizes the window at will."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        framed = self._window.frameGeometry() != self._window.geometry()
        if event.type() in (QEvent.Type.Move, QEvent.Type.Resize) and framed:
            self._window.removeEventFilter(self)
            keep_frame_on_screen(self._window, self._window.screen().availableGeometry())
            self.deleteLater()
        return False


def show_first_window(store: DisplaySettingsStore) -> MainWindow:
    """Launch step one: the window shell on screen (what the start-up benchmark times)."""
    window = build_window(store, complete=False)
    _FrameWatch(window)
    # Maximised: on a 1920x1080 screen the default size left a third of the screen unused and the
    # settlement of four Chinese players' pairs cut short; on a smaller one it is the same size.
    # Said without Qt's `WindowState` enum: naming any of Qt's namespace builds all of its enums
    # (about 24 ms), which the rest of the window pays, after this one is on screen.
    window.showMaximized()
    return window


def start_session(
    window: MainWindow,
    db_url: str | None,
    store: DisplaySettingsStore,
    signing_in: tuple[str, str] | None = None,
) -> DeskSession:
    """Launch step two, on the event loop's first turn: the rest of the window, then the session.
    The first start in a process holds the cycle collector until the launch ends (`LaunchHold`).
    With `signing_in` (a dealer's name and PIN, for `DeskSession.start_signed_in`), the database is
    opened and the PIN checked on a thread of their own while the rest of the desk loads."""
    first = "ofc_desk.desk.shell.session" not in sys.modules
    hold = LaunchHold.begin() if first else LaunchHold(held=False)
    if hold.held:
        QTimer.singleShot(LAUNCH_HOLD_LIMIT_MS, hold.end)
    ahead = None
    if signing_in is not None:
        # The storage (SQLAlchemy with it) loads here, before the thread starts: see `opening`.
        from ofc_desk.desk.shell.opening import SignInAhead

        ahead = SignInAhead.begin(db_url, signing_in)
    window.complete()
    # Imported only now: the service, SQLAlchemy and Alembic take a moment to load.
    from ofc_desk.desk.shell.session import DeskSession

    session = DeskSession(window, db_url, store)
    session.launch = hold
    session.ahead = ahead
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
    return exec_then_freeze(app)


def run_prepared_desk(
    db_url: str, dealer: tuple[str, str], session_id: int, note: str = "", *, smoke_test: bool = False
) -> int:
    """The desk signed in as `dealer` (name, PIN) on table `session_id`, with `note` kept in the
    status bar: used by `ofc-desk demo`. With `smoke_test` its window closes, and the desk exits,
    once the table is drawn (`desk.shell.smoke_test`)."""
    app = application()
    store = DisplaySettingsStore()
    install_language(app, start_language(store.settings, DESK_KEY))
    window = show_first_window(store)
    if note:
        window.statusBar().addWidget(QLabel(note, window))

    def begin() -> None:
        session = start_session(window, db_url, store, signing_in=dealer)
        session.start_signed_in(dealer, session_id)
        if smoke_test:
            from ofc_desk.desk.shell.smoke_test import SmokeTest

            SmokeTest(session, app.exit).start()

    QTimer.singleShot(0, begin)
    return exec_then_freeze(app)
