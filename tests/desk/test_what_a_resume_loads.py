"""What a desk loads before the first key (issue 39: ready to type): a table resumed at launch, in
a fresh process as `ofc-desk demo` runs it, has not imported what only later commands use. Not
timed: `benchmarks/desk_bench.py` times the launch."""

from __future__ import annotations

from pathlib import Path

from ofc_desk.cli.demo import DEMO_DEALER
from tests.helpers.desk_scripts import demo_table, run_desk_script

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
)
"""Modules (and their packages' modules) only a later command loads."""

RESUME = """
import gc
import sys
from PySide6.QtCore import QSettings, QTimer
from ofc_desk.desk.shell.app import application, show_first_window, start_session
from ofc_desk.desk.shell.theme import DisplaySettingsStore

app = application()
store = DisplaySettingsStore(QSettings({settings!r}, QSettings.Format.IniFormat))
window = show_first_window(store)

def ready(_snapshot):
    print(window.status_line.text())
    print(gc.isenabled(), gc.get_freeze_count() > 0)
    print(*sorted(sys.modules), sep="\\n")
    window.close()
    app.quit()

def begin():
    session = start_session(window, {url!r}, store)
    session.controller.snapshot_listeners.append(ready)
    session.start_signed_in({dealer!r}, {session_id})

QTimer.singleShot(0, begin)
app.exec()
"""


def loaded_at_resume(tmp_path: Path) -> tuple[str, str, set[str]]:
    """The status line of the demo table resumed at launch, whether the cycle collector is on and
    the launch's objects frozen then, and every module loaded by then."""
    url, session_id = demo_table(tmp_path)
    script = RESUME.format(
        settings=str(tmp_path / "settings.ini"), url=url, dealer=DEMO_DEALER, session_id=session_id
    )
    status, collector, *modules = run_desk_script(script, tmp_path)
    return status.replace("\u00a0", " "), collector, set(modules)


def test_a_table_resumed_at_launch_has_loaded_nothing_a_later_command_needs(tmp_path: Path) -> None:
    status, collector, modules = loaded_at_resume(tmp_path)
    assert "Hand 3" in status  # the demo table is resumed and drawn
    assert collector == "True True"  # the launch's hold of the collector ended, what it made frozen
    assert {"sqlalchemy.dialects.sqlite", "ofc_desk.desk.entry.panel"} <= modules  # what it does need
    early = [name for name in modules if name.startswith(NOT_BEFORE_THE_FIRST_KEY)]
    assert early == []
