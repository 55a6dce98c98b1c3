"""The floor's shift report runs to now (issue 34): its To, left as the dialog shows it, takes in
the minute under way, however long the dialog stayed open; a To typed is the end typed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ofc_desk.desk.floor.shift_dialog import next_minute, shift_window
from ofc_desk.reports.shift import shift_report
from ofc_desk.storage.database import Database
from tests.helpers.floor_room import play_table

OPENED_AT = datetime(2026, 12, 6, 9, 41, 30, tzinfo=UTC)
SHOWN = "2026-12-06 09:42"


def test_the_end_shown_takes_in_the_minute_under_way() -> None:
    assert next_minute(OPENED_AT).strftime("%Y-%m-%d %H:%M") == SHOWN
    window = shift_window("2026-12-06 01:00", SHOWN, SHOWN, OPENED_AT)
    assert window.holds(OPENED_AT) and window.holds(OPENED_AT.replace(second=59))
    assert not window.holds(datetime(2026, 12, 6, 9, 42, tzinfo=UTC))


def test_left_open_the_dialog_still_runs_to_now_and_a_typed_end_is_kept() -> None:
    later = OPENED_AT + timedelta(minutes=23)
    assert shift_window("2026-12-06 01:00", f" {SHOWN} ", SHOWN, later).holds(later)
    typed = shift_window("2026-12-06 01:00", "2026-12-06 09:00", SHOWN, later)
    assert typed.end == datetime(2026, 12, 6, 9, 0, tzinfo=UTC)


def test_a_hand_settled_this_minute_is_in_the_shift_report(migrated_database_url: str) -> None:
    database = Database(migrated_database_url)
    try:
        play_table(database, "T9", 2)
        now = datetime.now(UTC)
        shown = next_minute(now).strftime("%Y-%m-%d %H:%M")
        report = shift_report(
            database, shift_window((now - timedelta(hours=8)).strftime("%Y-%m-%d %H:%M"), shown, shown, now)
        )
        assert [(table.table, table.hands_dealt) for table in report.tables] == [("T9", 2)]
    finally:
        database.dispose()
