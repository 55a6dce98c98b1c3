"""`ofc-desk db upgrade` and `db status`, and what a login that may not migrate is told: the owner
creates or migrates the schema and is told from which revision to which; anyone can ask where the
schema and the roles stand; a desk or floor on a schema it cannot use is told, in one sentence,
to ask the owner for `ofc-desk db upgrade`, never shown a permission error."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from ofc_desk import __version__
from ofc_desk.cli.main import main
from ofc_desk.storage.database import Database
from ofc_desk.storage.roles import RoomRoles, apply_roles, room_roles_sql
from ofc_desk.storage.roles_state import roles_state
from ofc_desk.storage.room_schema import RoomNotReady, newest_revision
from tests.helpers.migrated_files import MigratedTemplate
from tests.helpers.ofc_test_databases import backend, database_url  # noqa: F401 (fixtures)
from tests.helpers.pooled_schemas import migrated_database_url  # noqa: F401 (a fixture)
from tests.helpers.room_logins import as_login, libpq
from tests.helpers.room_scripts import table_script

NEWEST = newest_revision()
NEWEST_WORDS = f"revision {NEWEST}, the newest this OFC Desk ({__version__}) knows"
RunDb = Callable[..., tuple[int, list[str], str]]


def shown(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def owner_url(url: str) -> str:
    return make_url(url).set(username="OWNER").render_as_string(hide_password=True)


@pytest.fixture
def run_db(capsys: pytest.CaptureFixture[str]) -> RunDb:
    """`ofc-desk db WORDS...`: its exit status, standard output's lines and standard error."""

    def run(*words: str) -> tuple[int, list[str], str]:
        status = main(["db", *words])
        out, err = capsys.readouterr()
        return status, out.splitlines(), err

    return run


def apply(url: str, roles: RoomRoles) -> None:
    owner = Database(url, migrate=False)
    with owner.engine.connect() as connection:
        apply_roles(connection, room_roles_sql(connection, roles))
    owner.dispose()


def test_db_upgrade_makes_the_schema_then_finds_it_current(database_url: str, run_db: RunDb) -> None:  # noqa: F811
    status, lines, err = run_db("upgrade", "--db", database_url)
    assert (status, err) == (0, "")
    assert (
        lines[0]
        == f"ofc-desk db upgrade: {shown(database_url)} migrated from no OFC Desk tables to revision {NEWEST}"
    )
    status, lines, err = run_db("upgrade", "--db", database_url)
    assert (status, err) == (0, "")
    assert lines[0] == f"ofc-desk db upgrade: {shown(database_url)} is at {NEWEST_WORDS}: nothing to do"
    if database_url.startswith("postgresql"):  # roles never made for this new schema
        assert lines[1].startswith("ofc-desk db upgrade: roles: not ")
        assert f"`ofc-desk db roles --db {shown(database_url)} --apply`" in lines[1]
    else:
        assert len(lines) == 1


def test_db_upgrade_migrates_an_older_schema_and_says_from_which_revision(
    database_url: str,  # noqa: F811
    run_db: RunDb,
) -> None:
    Database(database_url, migrate=False).migrate("0005")
    status, lines, _ = run_db("upgrade", "--db", database_url)
    assert status == 0
    assert (
        lines[0]
        == f"ofc-desk db upgrade: {shown(database_url)} migrated from revision 0005 to revision {NEWEST}"
    )


def test_db_status_on_sqlite_says_the_schema_and_that_roles_do_not_apply(
    tmp_path: Path, run_db: RunDb
) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    assert run_db("status", "--db", url) == (
        2,
        [],
        f"ofc-desk db status: no database at {tmp_path / 'room.db'}\n",
    )
    (tmp_path / "room.db").touch()
    assert run_db("status", "--db", url) == (
        1,
        [
            f"database: {url}",
            f"schema: no OFC Desk tables yet: run `ofc-desk db upgrade --db {url}`",
            "roles: do not apply (SQLite has no roles)",
        ],
        "",
    )
    Database(url).dispose()
    assert run_db("status", "--db", url) == (
        0,
        [f"database: {url}", f"schema: {NEWEST_WORDS}", "roles: do not apply (SQLite has no roles)"],
        "",
    )


def test_db_honours_the_database_named_before_the_command_as_verify_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], migrated_template: MigratedTemplate
) -> None:
    migrated_template.copy(tmp_path / "room.db")  # a room at the newest migration
    url = f"sqlite:///{tmp_path / 'room.db'}"
    assert main(["--db", url, "db", "status"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [f"database: {url}", f"schema: {NEWEST_WORDS}"]
    assert main(["db", "status"]) == 2
    assert capsys.readouterr().err == "ofc-desk db status: which database? Give its URL with --db URL\n"


def test_db_roles_help_says_the_roles_are_bound_to_the_rooms_database_and_named_by_roles(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["db", "roles", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "With --roles NAME they are NAME_table and NAME_floor" in said
    assert "CONNECT on it is taken from PUBLIC and given only to them and the owner" in said


def test_a_schema_newer_than_this_desk_is_said_and_never_touched(
    migrated_database_url: str,  # noqa: F811
    run_db: RunDb,
) -> None:
    database = Database(migrated_database_url)
    with database.engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    database.dispose()
    newer = f"revision 0099, newer than this OFC Desk ({__version__}), which knows up to {NEWEST}"
    with pytest.raises(RoomNotReady) as refused:
        Database(migrated_database_url)
    assert str(refused.value) == f"the room's schema is at {newer}: install the newer OFC Desk here"
    status, lines, _ = run_db("status", "--db", migrated_database_url)
    assert status == 1
    assert lines[1] == f"schema: {newer}: install the newer OFC Desk here"


@pytest.mark.postgres
def test_the_roles_are_current_once_applied_and_not_after_an_upgrade_adds_tables(
    room_url: str,
    roles: RoomRoles,
) -> None:
    owner = Database(room_url, migrate=False)
    owner.migrate("0005")

    def state() -> tuple[bool, bool, str]:
        with owner.engine.connect() as connection:
            found = roles_state(connection, roles)
        return found.made, found.current, found.words

    assert state() == (False, False, f"not made yet ({roles.table} and {roles.floor})")
    apply(room_url, roles)
    current = f"current ({roles.table} and {roles.floor} have exactly the grants of this OFC Desk)"
    assert state() == (True, True, current)
    # 0006 adds account_events and signatures, 0009 jackpot_moves, 0011 desk_holds, 0013 entry_marks
    owner.migrate()
    made, is_current, words = state()
    assert (made, is_current) == (True, False)
    assert words.startswith(
        f"not current: {roles.floor} lacks SELECT on table account_events;"
        f" {roles.floor} lacks SELECT on table desk_holds;"
        f" {roles.floor} lacks SELECT on table entry_marks; and "  # the first three said
    )
    apply(room_url, roles)
    assert state() == (True, True, current)
    with owner.engine.begin() as connection:
        connection.execute(text(f"GRANT DELETE ON events TO {roles.table}"))
        connection.execute(text("ALTER TABLE events DISABLE ROW LEVEL SECURITY"))
    assert state() == (
        True,
        False,
        f"not current: {roles.table} has DELETE on table events, which it must not;"
        " row-level security is off on events",
    )
    owner.dispose()


@pytest.mark.postgres
def test_a_desk_and_a_floor_on_an_older_schema_are_told_to_ask_the_owner_for_the_upgrade(
    room_url: str,
    roles: RoomRoles,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    Database(room_url, migrate=False).migrate("0006")
    apply(room_url, roles)
    desk_url = as_login(room_url, roles.table)
    older = (
        f"the room's schema is at revision 0006 and this OFC Desk ({__version__}) needs {NEWEST}, and the"
        f" login {roles.table} may not change it: ask the room's owner to run"
        f" `ofc-desk db upgrade --db {owner_url(room_url)}`"
    )
    with pytest.raises(RoomNotReady) as refused:
        Database(desk_url)
    assert str(refused.value) == older
    script = tmp_path / "t1.json"
    script.write_text(json.dumps(table_script("T1", 1, extras=False, close=False)), encoding="utf-8")
    assert main(["replay", str(script), "--db", desk_url]) == 2
    assert capsys.readouterr().err == f"database: {older}\n"


@pytest.mark.postgres
def test_a_login_the_roles_were_not_given_to_is_told_what_the_owner_must_do(migrated_room_url: str) -> None:
    Database(migrated_room_url).dispose()
    stranger = f"ofc_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(libpq(migrated_room_url), autocommit=True) as connection:
        connection.execute(f"CREATE ROLE {stranger} LOGIN")
        # It may connect (applied roles take CONNECT on the database from PUBLIC), but holds no grant.
        connection.execute(f"GRANT CONNECT ON DATABASE {connection.info.dbname} TO {stranger}")
    try:
        with pytest.raises(RoomNotReady) as refused:
            Database(as_login(migrated_room_url, stranger))
    finally:
        with psycopg.connect(libpq(migrated_room_url), autocommit=True) as connection:
            connection.execute(f"DROP OWNED BY {stranger}")
            connection.execute(f"DROP ROLE {stranger}")
    assert str(refused.value) == (
        f"the login {stranger} may not read the room's tables: the room's owner applies the roles"
        " (`ofc-desk db roles --db URL --apply`) and makes this login a member of ofc_desk_table"
        " (a desk) or ofc_desk_floor (the floor)"
    )


@pytest.mark.postgres
def test_a_desk_on_a_room_without_accounts_is_told_the_owner_makes_them(
    migrated_room_url: str, roles: RoomRoles, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Database(migrated_room_url).dispose()
    apply(migrated_room_url, roles)
    script = tmp_path / "t1.json"
    script.write_text(json.dumps(table_script("T1", 1, extras=False, close=False)), encoding="utf-8")
    assert main(["replay", str(script), "--db", as_login(migrated_room_url, roles.table)]) == 2
    assert capsys.readouterr().err == (
        "this desk's database login records tables, not accounts: the room's owner sets up and changes"
        " accounts (start ofc-desk once with the owner's login)\n"
    )
    owner = Database(migrated_room_url)
    try:
        with owner.engine.connect() as connection:
            assert connection.scalar(text("SELECT count(*) FROM account_events")) == 3  # the migrations'
            assert connection.scalar(text("SELECT count(*) FROM table_sessions")) == 0
    finally:
        owner.dispose()
