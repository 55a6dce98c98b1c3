"""`verify` with a room's sessions checked side by side in a pool of processes (`verify_workers`):
the same summary, the same first fault, and a session a worker saw otherwise than the walk (a
table recorded meanwhile, a worker that died) checked again in the walk's own snapshot."""

from __future__ import annotations

import os
from typing import Any

import pytest
from sqlalchemy import text

from ofc_desk.service.audit import side_check, verify_workers
from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.audit.verify_session import VerifiedRows, check_session
from ofc_desk.service.audit.verify_workers import Checked
from ofc_desk.storage import append_only
from ofc_desk.storage.database import Database
from tests.service.test_room_chain import copied_room  # noqa: F401 (a fixture: the room of three, copied)

pytestmark = [
    pytest.mark.skipif(not hasattr(os, "fork"), reason="the pool's workers are forks"),
    pytest.mark.xdist_group("room chain history"),  # test_room_chain's worker: its room is played there
]


@pytest.fixture(autouse=True)
def forking_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test runner's own threads would have the sessions checked here: these tests are about
    the pool."""
    monkeypatch.setattr(side_check, "can_fork", lambda: True)


def alter_event(database: Database, session_id: int, seq: int) -> None:
    with database.engine.begin() as connection:
        append_only.remove_all(connection)
        altered = connection.execute(
            text(
                "UPDATE events SET payload = REPLACE(payload, 'Ann', 'Anne')"
                " WHERE session_id = :id AND seq = :seq AND payload LIKE '%Ann%'"
            ),
            {"id": session_id, "seq": seq},
        )
    assert altered.rowcount == 1


def test_a_pool_verifies_a_room_as_one_session_after_another(
    copied_room: tuple[Database, list[int]],  # noqa: F811 (the imported fixture)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    database, _ = copied_room
    alone = verify_database(database, fork=False)
    walk = os.getpid()

    def in_a_worker(*args: Any, **options: Any) -> VerifiedRows:
        assert os.getpid() != walk, "a session was checked by the walk, not by the pool"
        return check_session(*args, **options)

    monkeypatch.setattr(verify_workers, "check_session", in_a_worker)
    assert verify_database(database, workers=2) == alone
    assert alone.sessions == 3 and len(alone.fingerprints) == 3


def test_the_first_fault_named_is_the_walks_first(
    copied_room: tuple[Database, list[int]],  # noqa: F811 (the imported fixture)
) -> None:
    database, (_, second, third) = copied_room
    alter_event(database, third, 3)
    alter_event(database, second, 3)
    with pytest.raises(VerifyFault) as alone:
        verify_database(database, fork=False)
    with pytest.raises(VerifyFault) as pooled:
        verify_database(database, workers=2)
    assert str(pooled.value) == str(alone.value)
    assert f"event {_event_id(database, second, 3)}" in str(alone.value)


def _event_id(database: Database, session_id: int, seq: int) -> int:
    with database.engine.connect() as connection:
        query = text("SELECT id FROM events WHERE session_id = :id AND seq = :seq")
        found = connection.execute(query, {"id": session_id, "seq": seq}).scalar_one()
    return int(found)


def test_a_session_a_worker_saw_otherwise_is_checked_in_the_walks_snapshot(
    copied_room: tuple[Database, list[int]],  # noqa: F811 (the imported fixture)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker whose snapshot holds other rows of a session (here: told so, with a tally that
    would pass anything) does not decide that session: the walk checks it and finds the fault."""
    database, (_, second, _) = copied_room
    alter_event(database, second, 3)
    with pytest.raises(VerifyFault) as alone:
        verify_database(database, fork=False)

    def later_snapshot(session_id: int) -> Checked:
        return ("rows recorded meanwhile",), verify_workers.SessionTally(1, 0, 0, "", (), ())

    monkeypatch.setattr(verify_workers, "_check_in_worker", later_snapshot)  # the forks inherit it
    with pytest.raises(VerifyFault) as pooled:
        verify_database(database, workers=2)
    assert str(pooled.value) == str(alone.value)


def test_a_worker_that_dies_leaves_its_sessions_to_the_walk(
    copied_room: tuple[Database, list[int]],  # noqa: F811 (the imported fixture)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    database, _ = copied_room
    alone = verify_database(database, fork=False)

    def dies(session_id: int) -> Checked:
        os._exit(9)

    monkeypatch.setattr(verify_workers, "_check_in_worker", dies)
    assert verify_database(database, workers=2) == alone
