"""What a desk loads before the first key (issue 39: ready to type): a table resumed at launch, in
a fresh process as `ofc-desk demo` runs it, has not imported what only later commands use. Not
timed: `benchmarks/desk_bench.py` times the launch."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest

from ofc_desk.cli.demo import DEMO_DEALER
from tests.helpers.desk_scripts import demo_table, run_desk_script

pytestmark = pytest.mark.xdist_group("a resume's launch")  # one fresh desk for the module's tests

NOT_BEFORE_THE_FIRST_KEY = (
    "reportlab",  # the printed reports
    "PySide6.QtPrintSupport",  # their preview and printing
    "pypdfium2",  # their previews
    "alembic",  # a schema already current is not migrated
    "sqlalchemy.dialects.postgresql",  # a desk on SQLite
    "ofc_desk.reports.session_pdf",
    "ofc_desk.reports.record",  # the session record: the felt's words (`reports.spoken`) need none of it
    "ofc_desk.service.audit.verify",
    "ofc_desk.desk.records.browser",
    "ofc_desk.desk.dialogs.new_table",  # New table…, Change rules or stakes…
    "ofc_desk.desk.dialogs.text",  # the table chooser, About, Verify's answer
    "ofc_desk.desk.dialogs.correct_hand",
    "ofc_desk.desk.dialogs.settings",
    "pyparsing",  # eval7's hand ranges (`core.hands` loads its evaluator alone)
    "unittest",  # pyparsing's testing helpers
    "eval7.handrange",
    "html",  # its entity tables: the settlement's lines escape their words at a hand's end
    "ofc_desk.desk.games.ofc_settlement",  # those lines, for an OFC hand
    "cryptography.hazmat.primitives.serialization",  # its PEM and SSH loaders: keys are read raw
)
"""Modules (and their packages' modules) only a later command loads."""

FEATURE_IMPORT = re.compile(r"^\s*(from|import) __feature__\b", re.MULTILINE)
"""A statement asking for a PySide6 feature (`snake_case`, `true_property`)."""

RESUME = """
import builtins
import gc
import sys
import threading
from PySide6.QtCore import QSettings, QTimer
from ofc_desk.desk.shell.app import application, show_first_window, start_session
from ofc_desk.desk.shell.theme import DisplaySettingsStore
from ofc_desk.desk.shell import opening  # after the desk's entry module, as a launch loads it

checked_on = []
checked_sign_in = opening.checked_sign_in

def checked(*args):
    checked_on.append(threading.current_thread().name)
    return checked_sign_in(*args)

opening.checked_sign_in = checked

app = application()
store = DisplaySettingsStore(QSettings({settings!r}, QSettings.Format.IniFormat))
window = show_first_window(store)
import PySide6.QtCore
qt_namespace_at_first_window = "Qt" in vars(PySide6.QtCore)

def ready(_snapshot):
    from PySide6.QtCore import Qt
    print(window.status_line.text())
    print(qt_namespace_at_first_window, app.testAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs))
    print(gc.isenabled(), gc.get_freeze_count() > 0)
    hook = getattr(builtins, "__feature_import__", None)
    print(hook is not None, builtins.__import__ is hook)
    print(*checked_on, sep=",")
    print(*sorted(sys.modules), sep="\\n")
    window.close()
    app.quit()

def begin():
    session = start_session(window, {url!r}, store, signing_in={dealer!r})  # as `ofc-desk demo`
    session.controller.snapshot_listeners.append(ready)
    session.start_signed_in({dealer!r}, {session_id})

QTimer.singleShot(0, begin)
app.exec()
"""


class Resumed(NamedTuple):
    """A fresh desk at the first key, the demo table resumed at launch."""

    status: str
    """Its status line."""
    qt_namespace: str
    """Whether Qt's namespace (`Qt`, its enums) was built when the first window showed, and
    whether Qt draws the file and print dialogs itself once the table is shown."""
    collector: str
    """Whether the cycle collector is on and the launch's objects frozen then."""
    feature_hook: str
    """Whether PySide6 made its feature import hook, and whether imports still go through it."""
    pin_checked_on: str
    """The threads the dealer's PIN was checked on."""
    modules: set[str]
    """Every module loaded by then."""


@pytest.fixture(scope="module")
def resumed(tmp_path_factory: pytest.TempPathFactory) -> Resumed:
    tmp_path = tmp_path_factory.mktemp("resume")
    url, session_id = demo_table(tmp_path)
    script = RESUME.format(
        settings=str(tmp_path / "settings.ini"), url=url, dealer=DEMO_DEALER, session_id=session_id
    )
    status, qt_namespace, collector, feature_hook, pin_checked_on, *modules = run_desk_script(
        script, tmp_path
    )
    status = status.replace("\u00a0", " ")
    return Resumed(status, qt_namespace, collector, feature_hook, pin_checked_on, set(modules))


def test_a_table_resumed_at_launch_has_loaded_nothing_a_later_command_needs(resumed: Resumed) -> None:
    assert "Hand 3" in resumed.status  # the demo table is resumed and drawn
    assert resumed.collector == "True True"  # the launch's hold of the collector ended, what it made frozen
    assert {"sqlalchemy.dialects.sqlite", "ofc_desk.desk.entry.panel"} <= resumed.modules  # what it does need
    early = [name for name in resumed.modules if name.startswith(NOT_BEFORE_THE_FIRST_KEY)]
    assert early == []


def test_the_first_window_builds_no_enum_of_qts_namespace_and_the_desk_then_draws_its_dialogs(
    resumed: Resumed,
) -> None:
    """Issue 4 (the first window at most 1.5x a bare one): naming anything of `Qt` builds all of
    its enums, about 24 ms the bare window does not spend; the desk's first window names none.
    Qt's own file and print dialogs (in the desk's language) are still asked for, once the rest of
    the window is built."""
    assert resumed.qt_namespace == "False True"
    assert "Hand 3" in resumed.status


def test_an_ofc_table_resumed_at_launch_has_loaded_no_module_of_the_chinese_game(resumed: Resumed) -> None:
    """Issue 39.3: each layer's registry loads the closed Chinese game's part with its first use
    (`core.registries`), so the demo's OFC table, resumed and drawn, has imported none of it."""
    assert "Hand 3" in resumed.status
    assert {"ofc_desk.core.ofc.hand", "ofc_desk.desk.games.ofc"} <= resumed.modules  # its own game's
    chinese = [name for name in resumed.modules if name.startswith("ofc_desk.") and "chinese" in name]
    assert chinese == []


def test_a_desk_resumed_at_launch_checked_the_pin_once_while_it_loaded(resumed: Resumed) -> None:
    """Issue 39.3: `ofc-desk demo`'s launch checks the dealer's PIN on the thread begun before the
    rest of the desk loaded (`opening.SignInAhead`), and not again on the desk's workers."""
    assert resumed.pin_checked_on == "OFC Desk sign-in"
    assert "Hand 3" in resumed.status


def test_a_desk_resumed_at_launch_imports_past_pysides_feature_hook(resumed: Resumed) -> None:
    """Issue 39.3: PySide6 made its feature import hook (so there was one to take off), the desk
    took it off before its own modules loaded, and the table was still resumed and drawn."""
    assert "ofc_desk.desk.pyside_features" in resumed.modules
    assert resumed.feature_hook == "True False"
    assert "Hand 3" in resumed.status


def test_no_module_of_the_desk_asks_for_a_pyside_feature() -> None:
    """With the hook off, `from __feature__ import snake_case` would import and change nothing."""
    package = Path(__file__).resolve().parents[2] / "ofc_desk"
    asking = [str(path) for path in package.rglob("*.py") if FEATURE_IMPORT.search(path.read_text("utf-8"))]
    assert asking == []
    assert FEATURE_IMPORT.search("import sys\n    from __feature__ import snake_case\n")  # what it finds
