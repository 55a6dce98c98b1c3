"""Desk fixtures: a real database with a dealer and a supervisor, and a desk signed in on it.

Screenshots of the main states go to test-screenshots/ at the repository root (git-ignored) when
OFC_DESK_TEST_SCREENSHOTS=1 asks for them; the folder is printed at the end of the run. A new SQLite
file a test opens (a demo table, a replayed room) is a copy of one migrated once a process
(tests/helpers/migrated_files.py).
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from ofc_desk.desk.games.chinese_controls import ChineseControls
from ofc_desk.desk.shell.app import build_window
from ofc_desk.desk.shell.language import install_language
from ofc_desk.desk.shell.main_window import MainWindow
from ofc_desk.desk.shell.session import DeskSession
from ofc_desk.desk.shell.theme import DisplaySettingsStore
from ofc_desk.desk.table.seatface import SeatFace
from ofc_desk.i18n import Language
from ofc_desk.service import TableSetup
from ofc_desk.service.terms.setup import SeatSetup, TableRules
from ofc_desk.service.terms.snapshot import TableSnapshot
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Account, Role
from tests.helpers.migrated_files import migrated_files, migrated_template  # noqa: F401 (fixtures)
from tests.helpers.qt_languages import english_after  # noqa: F401 - a fixture for the desk's tests
from tests.helpers.screenshots import save_png
from tests.helpers.shared_compilations import shared_dialect, sqlite_engines_share_compilations  # noqa: F401 (fixtures)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-screenshots"
SCREENSHOTS_ASKED = os.environ.get("OFC_DESK_TEST_SCREENSHOTS") == "1"
DEALER = ("Dana", "1234")
SUPERVISOR = ("Floor", "99999999")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if SCREENSHOTS.is_dir() and any(SCREENSHOTS.glob("*.png")):
        terminalreporter.write_line(f"desk screenshots: {SCREENSHOTS}")


@pytest.fixture(scope="session")
def template_accounts(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Account]:
    """Migrated once, with the two accounts (PIN hashing is slow on purpose), then copied per test;
    and the dealer as signed in, key unsealed, the same in every copy."""
    path = tmp_path_factory.mktemp("template") / "desk.db"
    database = Database(f"sqlite:///{path}")
    accounts = [(SUPERVISOR[0], Role.SUPERVISOR, SUPERVISOR[1]), (DEALER[0], Role.DEALER, DEALER[1])]
    _, dealer = create_accounts(database, accounts)
    database.dispose()
    return path, dealer


@pytest.fixture(scope="session")
def template_database(template_accounts: tuple[Path, Account]) -> Path:
    return template_accounts[0]


@pytest.fixture
def database(tmp_path: Path, template_database: Path) -> Iterator[Database]:
    path = tmp_path / "desk.db"
    shutil.copyfile(template_database, path)
    database = Database(f"sqlite:///{path}")
    yield database
    database.dispose()


@dataclass
class Desk:
    """A desk on screen and the keys a dealer presses on it."""

    window: MainWindow
    session: DeskSession
    qtbot: QtBot

    @property
    def snapshot(self) -> TableSnapshot:
        assert self.session.controller.snapshot is not None
        return self.session.controller.snapshot

    @property
    def status(self) -> str:
        """The status line as read, its no-break spaces plain spaces."""
        return self.window.status_line.text().replace("\u00a0", " ")

    def open_table(self, names: tuple[str, ...], button: str, variant: str = "regular") -> None:
        setup = TableSetup(
            name="Test table",
            seats=tuple(SeatSetup(name, 100) for name in names),
            button=button,
            rules=TableRules(variant=variant),
        )
        assert self.session.open_new_table(setup) is None
        self.press_enter_on(self.window.between_hands.deal_button)

    def face(self, name: str) -> SeatFace:
        """What `name`'s seat shows on the felt."""
        face = self.window.felt.seat_widget(name).seat
        assert face is not None
        return face

    def type(self, text: str) -> None:
        self.qtbot.keyClicks(self.window.entry.line, text)

    def street(self, text: str) -> None:
        """Type a street's cards and rows, then confirm it with Enter."""
        self.type(text)
        self.qtbot.keyClick(self.window.entry.line, Qt.Key.Key_Return)

    def press_enter_on(self, widget: QWidget) -> None:
        self.qtbot.keyClick(widget, Qt.Key.Key_Return)

    def refusal(self) -> str:
        return self.window.entry.refusal.text()

    @property
    def chinese_controls(self) -> ChineseControls:
        """The card entry's controls of a Chinese poker table: its Surrender button and specials."""
        controls = self.window.entry.controls
        assert isinstance(controls, ChineseControls), controls
        return controls

    @property
    def declare_buttons(self) -> list[QPushButton]:
        """The specials offered for the staged cards, each a button (none at a table of another game)."""
        controls = self.window.entry.controls
        return controls.declare_bar.buttons if isinstance(controls, ChineseControls) else []

    def screenshot(self, name: str, widget: QWidget | None = None) -> None:
        """The window (or another top-level widget, such as a dialog) drawn, for people to see."""
        QApplication.processEvents()  # let pending layout requests settle, as a real frame would
        screenshot(widget or self.window, name)


def screenshot(widget: QWidget, name: str) -> None:
    """`widget` drawn as it is now, so that its painting runs as a frame's would; written as
    test-screenshots/`name`.png (tests/helpers/screenshots.py) when OFC_DESK_TEST_SCREENSHOTS=1.
    Writing the PNGs was about 7 s of the suite's CPU (some 150 a run) for files no test reads."""
    picture = widget.grab()
    if SCREENSHOTS_ASKED:
        SCREENSHOTS.mkdir(exist_ok=True)
        save_png(picture, SCREENSHOTS / f"{name}.png")


@functools.cache
def _settings_folder() -> Path:
    """This test process's folder of desk settings files: in memory where Linux offers /dev/shm.
    The desk writes its settings file through to the disk at every staged card (the drafts must
    survive a crash), and waiting for the disk was a third of the desk tests' time; nothing here
    tests a power cut (as with SQLite's `synchronous` in tests/conftest.py)."""
    memory = Path("/dev/shm")
    parent = memory if os.access(memory, os.W_OK) else None  # else the system's temporary folder
    folder = Path(tempfile.mkdtemp(prefix="ofc-desk-settings-", dir=parent))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def make_desk(qtbot: QtBot, tmp_path: Path, database_url: str) -> Desk:
    """A desk on screen, its settings in the file of the test whose temporary folder is `tmp_path`:
    a desk the test opens again reads the same."""
    settings = _settings_folder() / f"{tmp_path.name}.ini"
    store = DisplaySettingsStore(QSettings(str(settings), QSettings.Format.IniFormat))
    window = build_window(store)
    qtbot.addWidget(window)
    window.show()
    session = DeskSession(window, database_url, store)
    return Desk(window, session, qtbot)


@pytest.fixture
def desk(qtbot: QtBot, tmp_path: Path, database: Database, template_accounts: tuple[Path, Account]) -> Desk:
    desk = make_desk(qtbot, tmp_path, database.url)
    desk.session.database = database
    # Signed in without hashing the PIN again: the sign-in dialog has its own test.
    desk.session.account = template_accounts[1]
    return desk


@pytest.fixture
def desk_in(
    qtbot: QtBot, tmp_path: Path, template_accounts: tuple[Path, Account]
) -> Callable[[Language], Desk]:
    """A desk as a room speaking `language` starts it: the language installed before the window,
    the database opened on the worker thread (the test takes `english_after` to end in English)."""

    def start(language: Language) -> Desk:
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        install_language(app, language)
        path = tmp_path / "desk.db"
        shutil.copyfile(template_accounts[0], path)
        desk = make_desk(qtbot, tmp_path, f"sqlite:///{path}")
        desk.session.start()
        qtbot.waitUntil(lambda: desk.session.database is not None, timeout=15_000)
        if desk.session.active_dialog is not None:
            desk.session.active_dialog.reject()  # signed in below without hashing the PIN again
        desk.session.account = template_accounts[1]
        return desk

    return start


def street_keys(cards: str, row_key: str) -> str:
    """'Ks Kd Kc' and 'b' → 'ks b kd b kc b': what the dealer types for cards going to one row."""
    return " ".join(f"{card.lower()} {row_key}" for card in cards.split())
