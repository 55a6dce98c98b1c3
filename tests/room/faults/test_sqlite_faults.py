"""A desk's SQLite file fails around each kind of action (issue 34): another program holds the write
lock past the desk's busy timeout, the disk under the file is full, a commit's answer is lost after
the commit was made, or another desk at the same table writes first (the chain's unique
constraint). The action is refused in words (that nothing was recorded, or that the table changed
elsewhere), the desk holds the table as stored, and the same action is accepted afterwards by the
same desk: stored once, nothing else, and `verify` passes. A failure just after the commit (the
anchor file's read of the room's head) leaves the action recorded.

The full disk is a real one where the tests run as root and may mount a tmpfs (a 24 MB one, filled
up with a file): SQLite's own "database or disk is full" from a write that found no space. Elsewhere
it is injected: SQLAlchemy's `commit` event raises that same error before the event's COMMIT."""

from __future__ import annotations

import errno
import itertools
import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, event
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from ofc_desk.service import TableService
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.front import recorder
from ofc_desk.service.store.persistence import CHANGED_ELSEWHERE
from ofc_desk.service.store.pool_ledger import room_pool
from ofc_desk.service.table.commands import Request, Scripted
from ofc_desk.service.terms.events import FLOOR_WRITTEN, EventKind
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import sign_in
from tests.helpers.fault_scenarios import (
    SCENARIOS,
    Scenario,
    attempt,
    check_recorded_once,
    refused_as_stored,
    stored_events,
    with_accounts,
)
from tests.helpers.migrated_files import MigratedTemplate
from tests.helpers.shared_compilations import shared_dialect, sqlite_engines_share_compilations  # noqa: F401
from tests.helpers.table_helpers import DEALER, DEALER_PIN

pytestmark = pytest.mark.xdist_group("sqlite faults")
BUSY_MILLISECONDS = 50
"""The desk's busy timeout in these tests (the product waits 30 s for a lock)."""
TINY_DISK = "24m"
DESK_SCENARIOS = [scenario for scenario in SCENARIOS if scenario.kind not in FLOOR_WRITTEN]
(FLOOR_DECISION,) = (scenario for scenario in SCENARIOS if scenario.kind is EventKind.REQUEST_DECIDED)
(FLOOR_SEED,) = (scenario for scenario in SCENARIOS if scenario.kind is EventKind.JACKPOT_SEEDED)
CORRECTION = {"player": "Ann", "amount": 1, "reason": "recount"}
_rooms = itertools.count(1)


def _open_room(path: Path) -> Database:
    database = Database(f"sqlite:///{path}")  # what every start does: the migration check
    event.listen(database.engine, "connect", _short_busy_timeout)
    database.engine.dispose()  # every connection from now on waits only that long
    return database


def _short_busy_timeout(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.execute(f"PRAGMA busy_timeout = {BUSY_MILLISECONDS}")


class _EmptyRoom:
    """A room's file as the migrations and the two accounts leave it, made once: each test deals in
    a copy of its own, so that its `verify` checks its own tables, not every earlier test's again.
    The copies' engines share their compiled statements (tests/helpers/shared_compilations.py):
    each new engine compiled every statement again, which cost as much as the verifying it saved."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def copy_in(self, folder: Path) -> Path:
        path = folder / f"room-{next(_rooms)}.db"
        shutil.copyfile(self.path, path)
        return path


@pytest.fixture(scope="module")
def empty_room(tmp_path_factory: pytest.TempPathFactory, migrated_template: MigratedTemplate) -> _EmptyRoom:
    """The room's file: a copy of the process's migrated one, given the two accounts."""
    path = tmp_path_factory.mktemp("sqlite-faults") / "empty-room.db"
    migrated_template.copy(path)
    database = Database(f"sqlite:///{path}")
    try:
        with_accounts(database)
    finally:
        database.dispose()  # the log checkpointed into the file: the file alone is the room
    return _EmptyRoom(path)


@contextmanager
def _room_in(folder: Path, empty_room: _EmptyRoom) -> Iterator[Database]:
    """A copy of the empty room in `folder`, opened as a desk opens it; its files removed afterwards."""
    path = empty_room.copy_in(folder)
    database = _open_room(path)
    try:
        yield database
    finally:
        database.dispose()
        for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            leftover.unlink(missing_ok=True)


@pytest.fixture
def room(tmp_path: Path, empty_room: _EmptyRoom) -> Iterator[Database]:
    with _room_in(tmp_path, empty_room) as database:
        yield database


class _EventsCommit:
    """Finds the COMMIT of a transaction that inserted an event (not a sign-in attempt's before it)."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self.writing_an_event = False
        event.listen(self.engine, "before_cursor_execute", self._statement)

    def _statement(self, _connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        self.writing_an_event |= statement.lstrip().upper().startswith("INSERT INTO EVENTS")

    def take(self) -> bool:
        """Whether the transaction ending now inserted an event."""
        taken, self.writing_an_event = self.writing_an_event, False
        return taken

    def remove(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._statement)


# ---------------------------------------------------------------------------- a lock held too long
@pytest.mark.parametrize("scenario", SCENARIOS, ids=str)
def test_a_write_lock_held_past_the_busy_timeout(room: Database, scenario: Scenario) -> None:
    prepared = scenario.prepare(room)
    before, shown = stored_events(room, prepared.desk.session_id), prepared.desk.snapshot()
    path = str(room.engine.url.database)
    with closing(sqlite3.connect(path, isolation_level=None)) as holder:
        holder.execute("BEGIN IMMEDIATE")  # another program writing, and not letting go
        said = refused_as_stored(prepared, shown)
        refused_as_stored(prepared, shown)
        holder.execute("ROLLBACK")
    assert said.startswith("the database was kept busy by another program (database is locked)")
    check_recorded_once(room, prepared, scenario, before)


# ---------------------------------------------------------------------------- a full disk
class _TmpfsDisk:
    """A real full disk: the room's file on a small tmpfs, filled up with a file."""

    def __init__(self, mount: Path) -> None:
        self.mount = mount
        self.filler = mount / "filler"

    def fill(self, database: Database) -> None:
        # An empty log, so the next commit needs new space, which there is none of.
        with closing(sqlite3.connect(str(database.engine.url.database))) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        block = b"\0" * 65536
        with self.filler.open("wb", buffering=0) as filler:
            while True:
                try:
                    filler.write(block)
                except OSError as error:
                    assert error.errno == errno.ENOSPC
                    if len(block) == 1:
                        return
                    block = block[: len(block) // 2]

    def free(self) -> None:
        self.filler.unlink()


class _InjectedFull:
    """SQLite's "database or disk is full" raised by SQLAlchemy's commit event, before the COMMIT
    of the transaction that inserts the event (where a real full disk makes a WAL commit fail)."""

    def __init__(self) -> None:
        self.commits: _EventsCommit | None = None

    def fill(self, database: Database) -> None:
        self.commits = _EventsCommit(database)
        event.listen(database.engine, "commit", self._before_commit)

    def _before_commit(self, _connection: Connection) -> None:
        assert self.commits is not None
        if self.commits.take():
            full = sqlite3.OperationalError("database or disk is full")
            raise OperationalError("COMMIT", None, full)

    def free(self) -> None:
        assert self.commits is not None
        event.remove(self.commits.engine, "commit", self._before_commit)
        self.commits.remove()


def _mount_tmpfs() -> tuple[Path | None, str]:
    """A tmpfs of `TINY_DISK` mounted in a new temp folder, or None and why not."""
    if os.geteuid() != 0:
        return None, "mounting a tmpfs needs root"
    folder = Path(tempfile.mkdtemp(prefix="ofc-desk-full-disk-"))
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={TINY_DISK}", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        folder.rmdir()
        return None, mounted.stderr.strip()
    return folder, ""


@pytest.fixture(scope="module")
def disk_to_fill() -> Iterator[Path | None]:
    """The module's tmpfs for the full disk (see `_mount_tmpfs`), or None where none can be mounted."""
    mount, _why_not = _mount_tmpfs()
    try:
        yield mount
    finally:
        if mount is not None:
            subprocess.run(["umount", str(mount)], check=True)
            mount.rmdir()


@pytest.fixture
def full_disk(
    disk_to_fill: Path | None, tmp_path: Path, empty_room: _EmptyRoom
) -> Iterator[tuple[Database, _TmpfsDisk | _InjectedFull]]:
    """A room whose disk a test may fill: a real one where possible, else the injected error."""
    with _room_in(disk_to_fill or tmp_path, empty_room) as database:
        yield database, _TmpfsDisk(disk_to_fill) if disk_to_fill else _InjectedFull()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=str)
def test_a_full_disk(full_disk: tuple[Database, _TmpfsDisk | _InjectedFull], scenario: Scenario) -> None:
    room, disk = full_disk
    prepared = scenario.prepare(room)
    before, shown = stored_events(room, prepared.desk.session_id), prepared.desk.snapshot()
    disk.fill(room)
    try:
        said = refused_as_stored(prepared, shown)
        refused_as_stored(prepared, shown)
    finally:
        disk.free()
    assert said.startswith("the database's disk is full (database or disk is full)")
    check_recorded_once(room, prepared, scenario, before)


# ---------------------------------------------------------------------------- an answer lost
class _AnswerLost:
    """The COMMIT of the next transaction that inserts an event reaches the disk, but the caller
    hears an error (a link that dropped just then)."""

    def __init__(self, database: Database) -> None:
        self.commits = _EventsCommit(database)

    def __enter__(self) -> None:
        event.listen(Session, "after_commit", self._lost)

    def __exit__(self, *_exc: object) -> None:
        event.remove(Session, "after_commit", self._lost)
        self.commits.remove()

    def _lost(self, _session: Session) -> None:
        if self.commits.take():
            raise OperationalError("COMMIT", None, ConnectionResetError(errno.ECONNRESET, "connection reset"))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=str)
def test_a_commit_whose_answer_was_lost_is_found_stored_once(room: Database, scenario: Scenario) -> None:
    """The dealer (or the floor) is told nothing was recorded and the desk keeps the table it knew;
    the same action entered again finds the event stored, and it is not stored twice."""
    prepared = scenario.prepare(room)
    before, shown = stored_events(room, prepared.desk.session_id), prepared.desk.snapshot()
    with _AnswerLost(room):
        said = refused_as_stored(prepared, shown)
    assert said.startswith("the database did not answer (")
    assert len(stored_events(room, prepared.desk.session_id)) == len(before) + 1  # stored, unknown to it
    check_recorded_once(room, prepared, scenario, before)


@pytest.mark.parametrize(
    ("scenario", "acknowledged"),
    [
        (FLOOR_DECISION, "request #1 at {table} approved by Sue"),
        (FLOOR_SEED, "Sue seeded the room's jackpot with 25 at {table}: it holds {pool}"),
    ],
    ids=["floor decision", "floor seed"],
)
def test_the_floor_asking_again_after_a_lost_answer_is_told_it_is_done(
    room: Database, scenario: Scenario, acknowledged: str
) -> None:
    """The floor keeps no table, but it remembers the attempt whose answer was lost: asked again,
    it finds it stored and says it is done, once; asked once more, a seed is a new one."""
    prepared = scenario.prepare(room)
    before, pool = stored_events(room, prepared.desk.session_id), room_pool(room)
    with _AnswerLost(room):
        assert "nothing was recorded" in (attempt(prepared.act) or "")
    assert prepared.act() == acknowledged.format(table=prepared.desk.machine.table, pool=pool + 25)
    assert len(stored_events(room, prepared.desk.session_id)) == len(before) + 1
    if scenario is FLOOR_SEED:
        prepared.act()
        assert room_pool(room) == pool + 50
    else:
        assert attempt(prepared.act) == "request #1 was already approved by Sue"
    verify_database(room)


# ---------------------------------------------------------------------------- a constraint
@pytest.mark.parametrize("scenario", DESK_SCENARIOS, ids=str)
def test_another_desk_writing_first(room: Database, scenario: Scenario) -> None:
    """A second desk at the same table records a request just as this desk's action writes (before
    its INSERT, or before it takes the write lock for the room's pool or a PIN check): the event's
    (session, seq) is then taken and the chain's unique constraint refuses it. The dealer is told
    the table changed elsewhere, the desk shows what is stored (the request too), and the same
    action is then accepted, after the request."""
    prepared = scenario.prepare(room)
    before = stored_events(room, prepared.desk.session_id)
    other_room = Database(room.url, migrate=False)
    event.listen(other_room.engine, "connect", _short_busy_timeout)
    # The other desk's dealer signs in, as at any desk: its entries carry its own desk's marks.
    other = TableService.resume(other_room, prepared.desk.session_id, sign_in(other_room, DEALER, DEALER_PIN))
    wrote: list[object] = []

    def other_desk_first(_connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if not wrote and statement.lstrip().upper().startswith(("INSERT INTO EVENTS", "BEGIN IMMEDIATE")):
            wrote.append(
                other.do(Request(Scripted(event=EventKind.CHIPS_CORRECTED, payload=CORRECTION), "count"))
            )

    event.listen(room.engine, "before_cursor_execute", other_desk_first)
    try:
        said = attempt(prepared.act)
    finally:
        event.remove(room.engine, "before_cursor_execute", other_desk_first)
        other_room.dispose()
    assert said == str(CHANGED_ELSEWHERE)
    assert prepared.desk.snapshot() == other.snapshot()  # the table as stored, the request in it
    assert attempt(prepared.act) is None
    after = stored_events(room, prepared.desk.session_id)
    assert after[: len(before)] == before
    assert [kind for _seq, kind, _actor, _payload in after[len(before) :]] == [
        EventKind.REQUEST_MADE.value,
        scenario.kind.value,
    ]
    verify_database(room)


# ---------------------------------------------------------------------------- after the commit
def test_a_failure_after_the_commit_leaves_the_action_recorded(
    room: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database fails as the desk reads the room's head for its anchor file, just after the
    event committed: the action stands, and only the anchor is said missing."""
    monkeypatch.setenv("OFC_DESK_ANCHOR_FILE", str(tmp_path / "anchors.txt"))
    prepared = SCENARIOS[0].prepare(room)
    before = stored_events(room, prepared.desk.session_id)

    def head_unread(*_args: object) -> None:
        raise OperationalError("SELECT", None, ConnectionResetError(errno.ECONNRESET, "connection reset"))

    monkeypatch.setattr(recorder, "append_anchor", head_unread)
    assert attempt(prepared.act) is None
    assert prepared.desk.anchor_fault == "recorded, but not anchored: [Errno 104] connection reset"
    assert len(stored_events(room, prepared.desk.session_id)) == len(before) + 1
