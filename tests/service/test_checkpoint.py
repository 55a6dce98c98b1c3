"""A desk's checkpoint of a long session (issue 39): a resume from it holds exactly the table a fold
from the opening gives, and a checkpoint that is not this session's, nor this code's, is set aside."""

from __future__ import annotations

import os
import pickle
from collections.abc import Mapping
from enum import Enum
from pathlib import Path

import pytest

from ofc_desk.core import hands as core_hands
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.store import checkpoint
from ofc_desk.service.store import kept_file as checkpoint_file
from ofc_desk.service.store.checkpoint import Checkpoint
from ofc_desk.service.store.persistence import EventStore
from ofc_desk.service.table import machine as machine_module
from ofc_desk.service.table.commands import StartHand
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.storage.database import Database
from ofc_desk.storage.desk_cache import CACHE_VARIABLE
from tests.helpers.table_helpers import dealer, open_test_table, play_hand, play_streets

EVERY = 10
"""Events between checkpoints here (a desk's is a thousand)."""


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path / "cache"))
    monkeypatch.setattr(checkpoint, "CHECKPOINT_EVENTS", EVERY)


def played(database: Database, hands: int = 3) -> TableService:
    service = open_test_table(database, [("Ann", 500), ("Bob", 500), ("Cy", 500)], "Cy")
    for _hand in range(hands):
        play_hand(service, {})
    service.do(StartHand())
    return service


def whole_fold(database: Database, session_id: int) -> TableMachine:
    return EventStore.load(database, session_id)[1]


MEMOS = frozenset({"_turn", "_turn_known"})
"""A hand's memo of whose turn it is (core/ofc/hand.py): worked out again when not known."""


def state(value: object) -> object:
    """Everything a table holds, as plain data (objects by class and attributes; memos left out):
    two tables are the same when their states are equal."""
    if isinstance(value, str | int | float | Enum) or value is None:
        return value
    if isinstance(value, Mapping):  # a settled hands' traces kept apart too: by what they hold
        return {key: state(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [state(item) for item in value]
    if isinstance(value, set | frozenset):
        return sorted(repr(state(item)) for item in value)
    fields = dict(getattr(value, "__dict__", {}))
    fields.update({slot: getattr(value, slot) for slot in getattr(type(value), "__slots__", ())})
    return type(value).__qualname__, {key: state(item) for key, item in fields.items() if key not in MEMOS}


def frozen(machine: TableMachine) -> object:
    """The table `machine` holds, as it would be thawed from a checkpoint."""
    return state(pickle.loads(checkpoint_file._dumps(machine)))


def kept_file(database: Database, session_id: int) -> Path:
    return checkpoint_file._path(database, session_id)


def test_the_table_recorded_keeps_checkpoints_that_are_the_fold_of_its_events(database: Database) -> None:
    service = played(database)
    kept = checkpoint_file._read(kept_file(database, service.session_id))
    assert kept is not None and kept.seq >= EVERY
    folded_there = EventStore.load(database, service.session_id)
    # The live machine a checkpoint is taken from is exactly what folding the events gives.
    assert frozen(service.machine) == frozen(folded_there[1])


def test_a_resume_folds_only_what_follows_the_checkpoint_and_holds_the_same_table(
    database: Database,
) -> None:
    service = played(database)
    head = service.snapshot()
    store, machine = checkpoint.load(database, service.session_id)
    assert store.base is not None and store.base.seq > 1
    assert len(store.history) == store.head_seq - store.base.seq
    assert store.head_hash == head.last_event_hash
    assert frozen(machine) == frozen(whole_fold(database, service.session_id))
    resumed = TableService.resume(database, service.session_id, dealer(database))
    assert resumed.snapshot() == head
    # What the desk holds again after an action that was not recorded: from memory, the same.
    assert frozen(store.stored_machine()) == frozen(machine)


def test_the_resumed_table_goes_on_and_resumes_again_to_the_same_table(database: Database) -> None:
    service = played(database, hands=1)
    resumed = TableService.resume(database, service.session_id, dealer(database))
    play_streets(resumed, {})  # the hand dealt before the resume
    play_hand(resumed, {})
    again = TableService.resume(database, service.session_id, dealer(database))
    assert again.snapshot() == resumed.snapshot()
    assert frozen(again.machine) == frozen(whole_fold(database, service.session_id))


def test_a_checkpoint_whose_event_is_not_the_stored_one_is_set_aside(database: Database) -> None:
    service = played(database)
    path = kept_file(database, service.session_id)
    kept = checkpoint_file._read(path)
    assert kept is not None
    checkpoint_file._write(path, Checkpoint(kept.seq, "0" * 64, checkpoint_file._dumps(TableMachine())))
    store, machine = checkpoint.load(database, service.session_id)
    assert frozen(machine) == frozen(whole_fold(database, service.session_id))
    assert store.base is None or store.base.hash != "0" * 64


def test_a_checkpoint_another_code_made_is_not_read(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = played(database)
    assert checkpoint_file._read(kept_file(database, service.session_id)) is not None
    monkeypatch.setattr(checkpoint_file, "code_fingerprint", lambda: "another version")
    assert checkpoint_file._read(kept_file(database, service.session_id)) is None


def test_a_checkpoint_that_names_anything_but_a_table_s_objects_is_never_made(database: Database) -> None:
    service = played(database)
    path = kept_file(database, service.session_id)
    kept = checkpoint_file._read(path)
    assert kept is not None
    planted = pickle.dumps(os.getpid)  # any callable outside the program would be run by pickle
    checkpoint_file._write(path, Checkpoint(kept.seq, kept.hash, planted))
    with pytest.raises(pickle.UnpicklingError):
        checkpoint_file._read(path).thawed_as(TableMachine)  # type: ignore[union-attr]
    resumed = TableService.resume(database, service.session_id, dealer(database))
    assert frozen(resumed.machine) == frozen(whole_fold(database, service.session_id))


def test_an_unreadable_checkpoint_is_set_aside(database: Database) -> None:
    service = played(database)
    kept_file(database, service.session_id).write_bytes(b"not a checkpoint")
    resumed = TableService.resume(database, service.session_id, dealer(database))
    assert frozen(resumed.machine) == frozen(whole_fold(database, service.session_id))


def test_a_table_that_would_not_thaw_is_never_kept(database: Database) -> None:
    service = played(database)
    store, machine = checkpoint.load(database, service.session_id)
    base = store.base
    machine.__dict__["stray"] = os.getpid  # anything the thaw refuses to make
    store.keep(machine)
    assert store.base is base  # the store's history still starts at the checkpoint it had
    del machine.__dict__["stray"]
    assert state(store.stored_machine()) == state(machine)


def test_the_fingerprint_reads_the_rules_and_the_service_that_fold_a_session() -> None:
    read = set(checkpoint_file.folding_sources())
    assert Path(machine_module.__file__).resolve() in read
    assert Path(core_hands.__file__).resolve() in read
