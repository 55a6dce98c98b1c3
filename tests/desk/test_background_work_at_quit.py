"""Work a desk's worker thread is doing when the desk quits (`desk.shell.worker`): finished, and
its report made to a relay still there, not one the application's teardown deleted ("Signal
source has been deleted", as a table resumed and closed at once used to print)."""

from __future__ import annotations

from pathlib import Path

from ofc_desk.cli.demo import DEMO_DEALER
from tests.helpers.desk_scripts import demo_table
from tests.helpers.forked_scripts import forked_script_run

COMMIT_AFTER_THE_QUIT = """
import threading
import time
from pathlib import Path
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMainWindow
from ofc_desk.desk.shell.app import application
from ofc_desk.desk.shell.worker import BackgroundRunner

app = application()
window = QMainWindow()
runner = BackgroundRunner(window)
loop_over = threading.Event()

def commit():
    # Still working once the event loop is over and the teardown has begun.
    loop_over.wait(30)
    time.sleep(0.3)
    Path({record!r}).write_text("committed")
    return "committed"

def begin():
    runner.run("Committing…", commit, print, print)
    app.quit()

QTimer.singleShot(0, begin)
app.exec()
loop_over.set()
print("quit")
"""

RESUMED_AND_CLOSED_AT_ONCE = """
from PySide6.QtCore import QSettings, QTimer
from ofc_desk.desk.shell.app import application, show_first_window, start_session
from ofc_desk.desk.shell.theme import DisplaySettingsStore

app = application()
store = DisplaySettingsStore(QSettings({settings!r}, QSettings.Format.IniFormat))
window = show_first_window(store)

def begin():
    session = start_session(window, {url!r}, store)
    session.controller.snapshot_listeners.append(lambda _snapshot: {close})
    session.start_signed_in({dealer!r}, {session_id})

QTimer.singleShot(0, begin)
app.exec()
print("quit")
"""


def test_work_running_when_the_desk_quits_is_finished_and_reports_without_an_error(tmp_path: Path) -> None:
    record = tmp_path / "record.txt"
    done = forked_script_run(COMMIT_AFTER_THE_QUIT.format(record=str(record)), tmp_path)
    assert done.stdout.splitlines() == ["quit"]  # the loop is over: the answer is not delivered
    assert record.read_text() == "committed"
    assert "Traceback" not in done.stderr, done.stderr


def test_a_table_resumed_and_quit_at_once_exits_without_an_error(tmp_path: Path) -> None:
    """As the benchmarks' launches: the entries' check begun as the table was shown is still
    running when the desk quits, whether by the event loop's end or the window's close."""
    url, session_id = demo_table(tmp_path)
    for close in ("app.quit()", "window.close()"):
        script = RESUMED_AND_CLOSED_AT_ONCE.format(
            settings=str(tmp_path / "settings.ini"),
            url=url,
            dealer=DEMO_DEALER,
            session_id=session_id,
            close=close,
        )
        done = forked_script_run(script, tmp_path)
        assert done.stdout.splitlines() == ["quit"]
        assert "Traceback" not in done.stderr, (close, done.stderr)
