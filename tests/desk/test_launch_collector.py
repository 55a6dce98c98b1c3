"""The cycle collector's hold through a desk's launch (`desk.shell.collector.LaunchHold`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from ofc_desk.desk.shell.collector import LaunchHold, exec_then_freeze
from tests.helpers.desk_scripts import demo_table, run_desk_script

SIGN_IN_OFFERED = """
import gc
import time
from PySide6.QtCore import QSettings, QTimer
from ofc_desk.desk.shell.app import application, show_first_window, start_session
from ofc_desk.desk.shell.theme import DisplaySettingsStore

app = application()
store = DisplaySettingsStore(QSettings({settings!r}, QSettings.Format.IniFormat))
window = show_first_window(store)

def begin():
    global give_up
    give_up = time.monotonic() + 10
    session = start_session(window, {url!r}, store)
    print(gc.isenabled())

    def offered():
        if session.active_dialog is None:
            QTimer.singleShot(20, offered)
            return
        # The open tables are read beside the sign-in, and a read holds the collector off while
        # it folds: the collector is on again once that read is done (well before the hold's
        # own 30 s limit).
        if not gc.isenabled() and time.monotonic() < give_up:
            QTimer.singleShot(20, offered)
            return
        print(gc.isenabled(), gc.get_freeze_count() > 0)
        app.quit()

    session.start()
    offered()

QTimer.singleShot(0, begin)
app.exec()
"""


@pytest.fixture
def collector_restored() -> Iterator[None]:
    was_on = gc.isenabled()
    yield
    gc.unfreeze()
    if was_on:
        gc.enable()
    else:
        gc.disable()


@pytest.mark.usefixtures("collector_restored")
def test_a_launch_holds_the_collector_then_freezes_what_it_made_and_turns_it_on_again() -> None:
    gc.enable()
    hold = LaunchHold.begin()
    assert hold.held and not gc.isenabled()
    frozen_before = gc.get_freeze_count()
    hold.end()
    assert gc.isenabled() and not hold.held
    assert gc.get_freeze_count() > frozen_before
    gc.disable()
    hold.end()  # once only: a second end leaves the collector as it is
    assert not gc.isenabled()


@pytest.mark.usefixtures("collector_restored")
def test_a_hold_begun_with_the_collector_off_leaves_it_off() -> None:
    gc.disable()
    hold = LaunchHold.begin()
    assert not hold.held
    frozen_before = gc.get_freeze_count()
    hold.end()
    assert not gc.isenabled()
    assert gc.get_freeze_count() == frozen_before


@pytest.mark.usefixtures("collector_restored")
def test_the_desks_event_loop_ends_with_what_is_left_frozen(qapp: QApplication) -> None:
    """The interpreter's last collections leave out what the desk made, as the floor's do."""
    gc.unfreeze()
    QTimer.singleShot(0, lambda: qapp.exit(3))
    assert exec_then_freeze(qapp) == 3
    assert gc.get_freeze_count() > 0


def test_a_launch_that_offers_the_sign_in_ends_the_hold_there(tmp_path: Path) -> None:
    """`ofc-desk` without a table to resume: the collector is off through the imports and back on
    once the sign-in waits for the dealer's PIN."""
    url, _session_id = demo_table(tmp_path)
    script = SIGN_IN_OFFERED.format(settings=str(tmp_path / "settings.ini"), url=url)
    assert run_desk_script(script, tmp_path) == ["False", "True True"]
