"""Reports read a session in one snapshot, verified: a report taken while a table records
matches its own fingerprint, and a changed row stops it (tests/reports/test_cli_report.py)."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from ofc_desk.reports.loader import ReportSourceError, load_session_record
from ofc_desk.reports.record import SessionRecord
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event
from tests.helpers.forked_replays import forked_replay
from tests.helpers.replay_helpers import load_example, write_script

READING_PAUSE = 0.1


@pytest.mark.durable  # the replay commits at the product's pace, so reports are taken part-way
def test_a_report_taken_while_a_replay_writes_matches_its_fingerprint(
    database_url: str, tmp_path: Path
) -> None:
    writer = forked_replay(write_script(tmp_path, load_example()), database_url, resume=False)
    taken: list[SessionRecord] = []
    while writer.poll() is None:
        with contextlib.suppress(ReportSourceError):  # before the table opened
            taken.append(load_session_record(database_url, session_id=1))
        # A report a few times a second still lands at many points of the chain; reading back
        # to back took the cores the writer needs.
        time.sleep(READING_PAUSE)
    _, err = writer.communicate(timeout=60)
    assert writer.returncode == 0, err
    taken.append(load_session_record(database_url, session_id=1))
    database = Database(database_url, migrate=False)
    with database.session() as session:
        chain = session.execute(select(Event.seq, Event.kind, Event.hash).where(Event.session_id == 1)).all()
    database.dispose()
    hash_at = {seq: digest for seq, _, digest in chain}
    for record in taken:
        assert record.final_hash == hash_at[record.event_count], "the fingerprint is the chain read"
        settled = sum(1 for seq, kind, _ in chain if kind == "hand_settled" and seq <= record.event_count)
        assert len(record.hands) == settled, "the hands printed are the hands of that chain"
    assert len({record.event_count for record in taken}) > 1, "some reports were read part-way"
