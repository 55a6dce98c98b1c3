"""A new room's first minutes, as real processes: eight desks and a floor started at once on an
empty room (a fresh PostgreSQL schema; an empty SQLite file) end with one schema and one set of
accounts, every desk carries on, and the floor shows every table.

A desk here is `ofc-desk replay` of one hand at a table of its own, which starts as a table machine
does: it opens the database and migrates it if it must, makes the room's accounts or finds them
made (the same script's dealer and supervisor, with their PINs), signs its dealer in, opens its
table and records. The floor is `ofc-desk floor --smoke-test 8`, offscreen: it opens the room
whatever state it is in and exits 0 only once its window lists eight open tables.

The desks are forked at once from one process that imported the product first
(tests/helpers/forked_desks.py): eight fresh interpreters each spent most of their CPU importing
it. Each is still a process of its own with its own connections; the floor is a fresh launch. The
two tests run on one worker, which keeps that prepared process for both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select

from ofc_desk.service.audit.verify import verify_database
from ofc_desk.storage.accounts import AccountKind
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import AccountEvent, User
from tests.helpers.forked_desks import ForkedDesks
from tests.helpers.room_scripts import DEALER, SUPERVISOR, table_script

pytestmark = pytest.mark.xdist_group("first minutes")
DESKS = 8
TABLES = [f"T{number}" for number in range(1, DESKS + 1)]
WAIT_SECONDS = 180


def ofc_desk(*words: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "ofc_desk", *words],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )


def start_the_room(url: str, folder: Path) -> None:
    """Eight desks and a floor at once on the room at `url`; each must carry on."""
    scripts = []
    for table in TABLES:
        script = folder / f"{table}.json"
        script.write_text(json.dumps(table_script(table, 1, extras=False, close=False)), encoding="utf-8")
        scripts.append(script)
    floor = ofc_desk("floor", "--db", url, "--smoke-test", str(DESKS))
    desks = ForkedDesks([["replay", str(script), "--db", url] for script in scripts], folder)
    for table, desk in zip(TABLES, desks.wait(WAIT_SECONDS), strict=True):
        assert (desk.returncode, desk.err) == (0, ""), f"the desk at {table}: {desk.err}"
        assert json.loads(desk.out)["table"] == table
    out, err = floor.communicate(timeout=WAIT_SECONDS)
    assert floor.returncode == 0, err
    assert out.startswith(f"smoke test passed: {DESKS} open tables: {', '.join(TABLES)}"), out
    assert "Traceback" not in err


def one_room(url: str) -> None:
    """One schema, one accounts chain (the migration's start, then the supervisor and the dealer,
    once each), and every desk's table recorded and verified."""
    database = Database(url, migrate=False)
    try:
        assert database.schema_state().current
        with database.session() as session:
            chain = session.execute(
                select(AccountEvent.kind, AccountEvent.name).order_by(AccountEvent.seq)
            ).all()
            users = session.scalars(select(User.name).order_by(User.name)).all()
        assert [tuple(link) for link in chain] == [
            (AccountKind.SIGNOFFS_STARTED, ""),
            (AccountKind.APPROVALS_REQUIRED, ""),
            (AccountKind.KEYS_ROTATE, ""),
            (AccountKind.CREATED, SUPERVISOR),
            (AccountKind.CREATED, DEALER),
        ]
        assert users == sorted([DEALER, SUPERVISOR])
        assert f"{DESKS} sessions" in verify_database(database).line()
    finally:
        database.dispose()


@pytest.mark.postgres
def test_eight_desks_and_a_floor_start_at_once_on_an_empty_postgresql_room(
    room_url: str, tmp_path: Path
) -> None:
    start_the_room(room_url, tmp_path)
    one_room(room_url)


def test_eight_desks_and_a_floor_start_at_once_on_an_empty_sqlite_file(tmp_path: Path) -> None:
    room = tmp_path / "room.db"
    room.touch()  # the room's file, empty: a floor refuses a path with no file (a mistyped one)
    url = f"sqlite:///{room}"
    start_the_room(url, tmp_path)
    one_room(url)
