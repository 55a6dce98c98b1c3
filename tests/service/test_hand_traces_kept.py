"""A checkpoint keeps the settled hands' traces apart from the rest of the table, and a table resumed
from it reads them only when first asked for (`service.table.hand_traces`, issue 39: ready to type):
the resume, the hands played on and the next checkpoint leave them unread, a correction reads them,
and what they say is the fold's either way."""

from __future__ import annotations

import os
import pickle
import zlib
from pathlib import Path

import pytest

from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.store import checkpoint
from ofc_desk.service.store import kept_file as checkpoint_file
from ofc_desk.service.table.correction_view import correctable_hands
from ofc_desk.service.table.hand_traces import HandTraces
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.storage.database import Database
from ofc_desk.storage.desk_cache import CACHE_VARIABLE
from tests.helpers.table_helpers import dealer, play_hand, play_streets
from tests.service.test_checkpoint import EVERY, frozen, played, state, whole_fold


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path / "cache"))
    monkeypatch.setattr(checkpoint, "CHECKPOINT_EVENTS", EVERY)


def traces_of(machine: TableMachine) -> HandTraces:
    traces = machine.hand_traces
    assert isinstance(traces, HandTraces)
    return traces


def test_a_resumed_table_holds_its_traces_unread_and_reads_them_as_the_fold_made_them(
    database: Database,
) -> None:
    service = played(database)
    resumed = TableService.resume(database, service.session_id, dealer(database))
    traces = traces_of(resumed.machine)
    # The hands before the checkpoint are not thawed by the resume (those folded after it are added).
    assert traces.kept_parts() != () and 1 not in traces.added()
    folded = whole_fold(database, service.session_id).hand_traces
    # Which hands there are is known unread (the desk asks whether any may be corrected).
    assert list(traces) == list(folded) == [1, 2, 3] and len(traces) == 3 and 1 in traces
    assert traces.get(9) is None and traces.kept_parts() != ()
    assert correctable_hands(resumed.machine) == [3, 2, 1]  # what the desk asks at every state
    assert traces.kept_parts() != ()
    assert state(traces[1]) == state(folded[1])  # a trace asked for: every part read
    assert traces.kept_parts() == ()
    assert sorted(traces) == sorted(folded) == [1, 2, 3]


def test_hands_played_on_add_their_traces_without_reading_the_kept_ones(database: Database) -> None:
    service = played(database, hands=2)
    resumed = TableService.resume(database, service.session_id, dealer(database))
    kept_parts = traces_of(resumed.machine).kept_parts()
    play_streets(resumed, {})  # the hand dealt before the resume, settled now
    play_hand(resumed, {})
    traces = traces_of(resumed.machine)
    assert traces.kept_parts() == kept_parts and 1 not in traces.added()
    assert {3, 4} <= set(traces.added())
    again = TableService.resume(database, service.session_id, dealer(database))
    # The next checkpoint kept the unread parts as they were, the traces added since beside them.
    assert traces_of(again.machine).kept_parts()[: len(kept_parts)] == kept_parts
    assert frozen(again.machine) == frozen(whole_fold(database, service.session_id))


def test_a_kept_part_is_thawed_as_a_checkpoint_is(database: Database) -> None:
    """A part that names anything but a table's objects is refused when read, never run."""
    planted_part = zlib.compress(pickle.dumps({1: os.getpid}))
    planted = HandTraces.kept((planted_part,), (1,), checkpoint_file._thawed_traces)
    assert planted.kept_parts() != ()
    with pytest.raises(pickle.UnpicklingError):
        planted[1]


def test_a_table_folded_whole_keeps_its_traces_in_one_part(database: Database) -> None:
    service = played(database)
    traces = traces_of(service.machine)
    assert traces.kept_parts() == () and sorted(traces.added()) == [1, 2, 3]
    thawed = pickle.loads(checkpoint_file._dumps(service.machine))
    assert len(traces_of(thawed).kept_parts()) == 1
    assert state(dict(thawed.hand_traces)) == state(dict(traces))
