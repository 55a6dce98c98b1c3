"""What the floor loads before it lists the room (issue 39: the floor opening on a 24-table room):
`ofc-desk floor`, in a fresh process, has not imported what only its dialogs and a table's records
use by the time its window lists the open tables. Not timed: `benchmarks/desk_bench.py` times it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ofc_desk.storage.database import Database
from tests.helpers.desk_scripts import desk_script_run
from tests.helpers.floor_room import play_table

NOT_BEFORE_THE_LISTING = (
    "reportlab",  # the shift report's PDF
    "multiprocessing",  # the shift report's verify, in second processes
    "ofc_desk.reports.shift",
    "ofc_desk.service.audit.verify",
    "ofc_desk.desk.floor.shift_dialog",
    "ofc_desk.desk.floor.decision_dialog",
    "ofc_desk.desk.floor.seed_dialog",
    "ofc_desk.desk.floor.records_window",  # a table's records
    "ofc_desk.desk.records.browser",
    "ofc_desk.desk.records.models",  # the record views' models
    "ofc_desk.desk.dialogs",  # About, the dialogs' shared parts
    "ofc_desk.desk.shell.main_window",  # the desk's window, its felt and status line
    "ofc_desk.desk.table.felt",
    "ofc_desk.desk.shell.status_line",
)
"""Modules (and their packages' modules) only a later command of the floor loads."""

WIDGETS_NOT_SHOWN = ("QFileDialog", "QWizard", "QCalendarWidget", "QMessageBox", "QColorDialog")
"""Widget classes the floor's window does not show: PySide makes a class's Python type (and its
enums) only when first used, and the floor's listing uses none of these."""

LISTED = """
import builtins
import sys
NOT_SHOWN = {not_shown!r}
from ofc_desk.desk.floor.app import build_floor
from ofc_desk.desk.shell.application import application
from ofc_desk.storage.existing_room import open_existing

app = application()
controller = build_floor(open_existing({url!r}))

def listed(room):
    if room.tables:
        print(*(table.table for table in room.tables), sep=",")
        print(builtins.__import__ is getattr(builtins, "__feature_import__", None))
        import PySide6.QtWidgets
        print(*(name for name in NOT_SHOWN if name in vars(PySide6.QtWidgets)), sep=",")
        print(*sorted(sys.modules), sep="\\n")
        app.quit()

controller.watcher.room_read.connect(listed)
app.aboutToQuit.connect(controller.stop)
controller.start()
app.exec()
"""


def test_the_floor_lists_the_room_before_loading_its_dialogs_and_records(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    database = Database(url)
    play_table(database, "T1", 1)
    database.dispose()
    script = LISTED.format(url=url, not_shown=WIDGETS_NOT_SHOWN)
    done = desk_script_run(script, tmp_path, {"XDG_CONFIG_HOME": str(tmp_path / "config")})
    tables, feature_hook_on, widget_types_made, *modules = done.stdout.splitlines()
    assert tables == "T1"
    assert feature_hook_on == "False"  # PySide6's feature import hook taken off (issue 39.3)
    # Nothing asks PySide for a widget of a class it has no Python type for (the table's viewport):
    # that search makes the type of every widget class PySide knows.
    assert widget_types_made == ""
    assert "ofc_desk.desk.floor.columns" in modules  # what the listing does need
    early = [name for name in modules if name.startswith(NOT_BEFORE_THE_LISTING)]
    assert early == []


SNAPSHOT_ALONE = """
import sys
import ofc_desk.service.terms.snapshot
print(*sorted(sys.modules), sep="\\n")
"""


def test_a_word_of_the_service_loads_without_a_tables_service_or_the_rules() -> None:
    """The service package names its faces' entry points without importing them (issue 39: the
    floor's first listing reads the service's words, not a table's service and the rules)."""
    done = subprocess.run(
        [sys.executable, "-c", SNAPSHOT_ALONE], capture_output=True, text=True, timeout=120, check=True
    )
    modules = done.stdout.splitlines()
    assert "ofc_desk.service.terms.snapshot" in modules
    early = [
        name for name in modules if name.startswith(("ofc_desk.service.front", "ofc_desk.service.table"))
    ]
    assert early == []


def test_the_service_package_gives_each_name_it_lists() -> None:
    import ofc_desk.service as service
    from ofc_desk.service.front.table_service import TableService
    from ofc_desk.service.terms.snapshot import Phase

    assert service.TableService is TableService
    assert service.Phase is Phase
    assert all(getattr(service, name) is not None for name in service.__all__)
