"""A room made by each earlier revision (tests/fixtures/old_rooms: make.py says how) is upgraded
by `ofc-desk db upgrade`, then signs in as every role, finishes its open hand, verifies and
reports: on SQLite, and from the PostgreSQL dumps restored into a fresh database of the server,
where the desk and the floor log in as the room's roles."""

from __future__ import annotations

import csv
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from ofc_desk.cli.main import main
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.store.pool_ledger import room_pool
from ofc_desk.storage.account_changes import change_pin, set_up_first_key
from ofc_desk.storage.database import Database
from ofc_desk.storage.roles import RoomRoles
from ofc_desk.storage.room_schema import newest_revision
from ofc_desk.storage.schema_revision import shipped_migrations
from ofc_desk.storage.users import Role, SignInError, sign_in
from tests.fixtures.old_rooms.make import MADE_BY, POSTGRESQL, ROLE_PREFIX, postgresql_dump, sqlite_dump
from tests.fixtures.old_rooms.old_room import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN, room_script
from tests.helpers.ofc_test_databases import needs_server, postgres_url  # noqa: F401 (fixture)
from tests.helpers.room_logins import as_login, libpq

EXAMPLE = Path(__file__).parents[1] / "resources" / "examples" / "replay-pineapple-4-hands.json"
TABLE = "T778"
KEYED_FROM = "0006"
"""Accounts made before this revision are imported without keys (migration 0006)."""
LONG_PIN_SAID_FROM = "0008"
"""Accounts made before this revision do not say their PIN had a supervisor's length: after the
upgrade (migration 0012, keys rotate) such a supervisor's key counts as once sealed under a short
PIN."""
SIGN_IN_POLICY = "SELECT with_check FROM pg_policies WHERE policyname = 'ofc_desk_chained'"
DROPS = 6
"""The jackpot drops of the first hand and of the open one, once it is settled: 3 chips each."""


def _status(url: str, capsys: pytest.CaptureFixture[str], *roles: str) -> tuple[int, list[str]]:
    code = main(["--db", url, "db", "status", *roles])
    return code, capsys.readouterr().out.splitlines()


def _keys_after_the_upgrade(owner: Database, revision: str) -> None:
    """What a room upgraded from before keys does once (README, the owner's desk): the supervisor
    sets up their key, then approves the dealer's; from before PIN lengths were said, the
    supervisor takes a new key under their own approval."""
    if revision >= LONG_PIN_SAID_FROM:
        return
    if revision >= KEYED_FROM:
        # Nothing says the key was never sealed under a shorter PIN: the supervisor approves no
        # one until a new PIN of a supervisor's length (their own approval) gives a new key.
        with pytest.raises(SignInError, match="once sealed under a PIN shorter than 8 characters"):
            sign_in(owner, SUPERVISOR, SUPERVISOR_PIN, Role.SUPERVISOR)
        supervisor = sign_in(owner, SUPERVISOR, SUPERVISOR_PIN)
        change_pin(owner, SUPERVISOR, SUPERVISOR_PIN, SUPERVISOR_PIN, supervisor)
        return
    supervisor = set_up_first_key(owner, SUPERVISOR, SUPERVISOR_PIN, SUPERVISOR_PIN)
    change_pin(owner, DEALER, DEALER_PIN, DEALER_PIN, supervisor)


def _deals_verifies_and_reports(desk: Database, url: str, tmp_path: Path) -> None:
    """The open hand finished (the script resumed), the record verified, the hands reported."""
    output = run_replay(desk, room_script(EXAMPLE, open_actions=None), resume=True)
    assert [hand["number"] for hand in output["hands"]] == [1, 2]
    summary = verify_database(desk)
    assert summary.set_aside == ()
    hands = tmp_path / "hands.csv"
    assert main(["report", "--db", url, "--table", TABLE, "--csv-hands", str(hands)]) == 0
    with hands.open(encoding="utf-8", newline="") as read:
        assert len({row["hand"] for row in csv.DictReader(read)}) == 2
    assert room_pool(desk) == DROPS


@pytest.mark.parametrize("revision", MADE_BY)
def test_a_sqlite_room_of_each_earlier_schema_upgrades_and_plays_on(
    revision: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "room.db"
    with sqlite3.connect(path) as connection:
        connection.executescript(sqlite_dump(revision).read_text(encoding="utf-8"))
    connection.close()
    url = f"sqlite:///{path}"
    code, lines = _status(url, capsys)
    pending = sorted(
        script.revision for script in shipped_migrations().walk_revisions() if script.revision > revision
    )
    migrations = "migration" if len(pending) == 1 else "migrations"
    older = (
        f"revision {revision}, older than this OFC Desk's {newest_revision()}"
        f" ({len(pending)} {migrations} to run: {', '.join(pending)})"
    )
    assert (code, lines[1]) == (1, f"schema: {older}: run `ofc-desk db upgrade --db {url}`")
    assert main(["db", "upgrade", "--db", url]) == 0
    assert f"migrated from revision {revision} to revision {newest_revision()}" in capsys.readouterr().out
    assert _status(url, capsys)[0] == 0
    database = Database(url)
    try:
        _keys_after_the_upgrade(database, revision)
        assert sign_in(database, DEALER, DEALER_PIN, Role.DEALER).key is not None
        assert sign_in(database, SUPERVISOR, SUPERVISOR_PIN, Role.SUPERVISOR).key is not None
        _deals_verifies_and_reports(database, url, tmp_path)
    finally:
        database.dispose()


Dropper = Callable[[str, str, RoomRoles], None]


@pytest.fixture(scope="module")
def drop_in_the_background() -> Iterator[Dropper]:
    """Drops a restored room's database and roles in a thread of its own, all awaited when the
    module's tests are done. PostgreSQL's DROP DATABASE waits for a checkpoint of the whole server
    (55 s a drop on a loaded day): the next test need not wait for it too."""
    threads: list[threading.Thread] = []
    failures: list[BaseException] = []

    def drop(admin: str, name: str, roles: RoomRoles) -> None:
        def run() -> None:
            try:
                _drop(admin, name, roles)
            except BaseException as failure:  # said when the module ends, not lost in the thread
                failures.append(failure)

        threads.append(threading.Thread(target=run, name=f"drop {name}"))
        threads[-1].start()

    yield drop
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]


def _drop(admin: str, name: str, roles: RoomRoles) -> None:
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE {name} WITH (FORCE)")
        for role in (roles.table, roles.floor):
            connection.execute(f"DROP ROLE {role}")


@pytest.fixture
def restored(
    request: pytest.FixtureRequest,
    postgres_url: str | None,  # noqa: F811
    drop_in_the_background: Dropper,
) -> Iterator[tuple[str, RoomRoles]]:
    """The dump of `request.param`'s revision in a new database of the server (its superuser the
    owner), under roles named for this test: (the owner's URL, the roles)."""
    server = make_url(needs_server(postgres_url))
    unique = f"ofc_test_{uuid.uuid4().hex[:10]}"
    roles, name = RoomRoles(f"{unique}_table", f"{unique}_floor"), f"{unique}_room"
    admin = libpq(server.render_as_string(hide_password=False))
    url = server.set(database=name).render_as_string(hide_password=False)
    dump = postgresql_dump(request.param).read_text(encoding="utf-8").replace(f"{ROLE_PREFIX}_", f"{unique}_")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        for role in (roles.table, roles.floor):
            connection.execute(f"CREATE ROLE {role} LOGIN")
    try:
        with psycopg.connect(libpq(url), autocommit=True) as connection:
            connection.execute(dump.encode("utf-8"))
        yield url, roles
    finally:
        drop_in_the_background(admin, name, roles)


@pytest.mark.postgres
@pytest.mark.parametrize("restored", POSTGRESQL, indirect=True)
def test_a_postgresql_room_of_an_earlier_schema_upgrades_and_signs_in_as_every_role(
    restored: tuple[str, RoomRoles], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, a room whose PIN checks began before migration 0008 refused every login of its
    roles after the upgrade (the row policy took an unchained check for the chain's head)."""
    url, roles = restored
    named = ["--roles", roles.table.removesuffix("_table")]
    owner = Database(url, migrate=False)
    try:
        revision = owner.schema_state().revision
        assert revision is not None and revision in POSTGRESQL
        code, lines = _status(url, capsys, *named)
        assert code == 1 and lines[1].startswith(f"schema: revision {revision}, older than")
        assert main(["db", "upgrade", "--db", url, *named]) == 0
        capsys.readouterr()
        with owner.engine.connect() as connection:  # 0009's roles made it: migration 0010 mends it
            policies = connection.scalars(text(SIGN_IN_POLICY)).all()
        assert len(policies) == (1 if revision == "0009" else 0)
        assert all("<> ''" in check for check in policies)
        code, lines = _status(url, capsys, *named)
        assert code == 1 and lines[2].startswith("roles: not current: ")
        assert main(["db", "roles", "--db", url, *named, "--apply"]) == 0
        assert _status(url, capsys, *named)[0] == 0
        _keys_after_the_upgrade(owner, revision)
    finally:
        owner.dispose()
    floor = Database(as_login(url, roles.floor))
    desk = Database(as_login(url, roles.table))
    try:
        assert sign_in(floor, SUPERVISOR, SUPERVISOR_PIN, Role.SUPERVISOR).key is not None
        assert sign_in(desk, DEALER, DEALER_PIN, Role.DEALER).key is not None
        _deals_verifies_and_reports(desk, as_login(url, roles.table), tmp_path)
    finally:
        floor.dispose()
        desk.dispose()
