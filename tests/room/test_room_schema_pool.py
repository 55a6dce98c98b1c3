"""The card-room tests' pool of migrated schemas (tests/helpers/pooled_schemas.py): a schema a test
used comes back to the next test as a fresh migration leaves one, with no grant, row policy or
row of the test before; one whose structure the reset cannot put back is never handed out again.
A new schema migrated by the statements a migration sent (`RecordedMigration`) is one the
migrations build."""

from __future__ import annotations

from contextlib import ExitStack

import psycopg
import pytest
from sqlalchemy import Connection

from ofc_desk.service.replays.replay import run_replay
from ofc_desk.storage.database import Database
from ofc_desk.storage.roles import RoomRoles
from ofc_desk.storage.schema_revision import upgrade
from tests.helpers import pooled_schemas
from tests.helpers.ofc_test_databases import fresh_schema, needs_server
from tests.helpers.pooled_schemas import (
    STRUCTURE,
    RecordedMigration,
    RoomSchemaPool,
    replayed_migrations,
    schema_of,
)
from tests.helpers.room_logins import as_login, libpq, owner_sets_up_the_room
from tests.helpers.room_scripts import table_script

pytestmark = pytest.mark.postgres

# Every grant on the schema, its relations, their columns and its functions to anyone but its
# owner (who made it: this user), but the one every function has by default: PUBLIC may run it.
GRANTS = """
SELECT format('%%s %%s on %%s', e.grantee::regrole, e.privilege_type, acl.what) FROM (
    SELECT nspname::text AS what, nspacl AS acl, false AS routine FROM pg_namespace WHERE nspname = %(schema)s
    UNION ALL
    SELECT relname, relacl, false FROM pg_class WHERE relnamespace = to_regnamespace(%(schema)s)
    UNION ALL
    SELECT c.relname || '.' || a.attname, a.attacl, false
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     WHERE c.relnamespace = to_regnamespace(%(schema)s)
    UNION ALL
    SELECT proname, proacl, true FROM pg_proc WHERE pronamespace = to_regnamespace(%(schema)s)
) AS acl, aclexplode(acl.acl) AS e
 WHERE e.grantee <> to_regrole(current_user)
   AND NOT (acl.routine AND e.grantee = 0 AND e.privilege_type = 'EXECUTE')
"""
POLICIES = (
    "SELECT c.relname, c.relrowsecurity, p.polname"
    " FROM pg_class c LEFT JOIN pg_policy p ON p.polrelid = c.oid"
    " WHERE c.relnamespace = to_regnamespace(%(schema)s) AND (c.relrowsecurity OR p.polname IS NOT NULL)"
)
TABLES = "SELECT tablename FROM pg_tables WHERE schemaname = %(schema)s ORDER BY tablename"
SEQUENCES = "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = %(schema)s ORDER BY 1"


@pytest.fixture
def pool(room_schemas: RoomSchemaPool | None) -> RoomSchemaPool:
    if room_schemas is None:
        pytest.skip("no pool: it copies rows with the triggers held off, which only a superuser may")
    return room_schemas


def _catalog(url: str, query: str) -> list[tuple[object, ...]]:
    with psycopg.connect(libpq(url)) as connection:
        return connection.execute(query, {"schema": schema_of(url)}).fetchall()


def _rows(url: str) -> dict[str, list[tuple[object, ...]]]:
    """Every table's rows, and every sequence's last value."""
    with psycopg.connect(libpq(url)) as connection:
        tables = [str(row[0]) for row in connection.execute(TABLES, {"schema": schema_of(url)})]
        rows = {
            table: connection.execute(f'SELECT * FROM "{table}" ORDER BY 1').fetchall() for table in tables
        }
        rows["sequences"] = connection.execute(SEQUENCES, {"schema": schema_of(url)}).fetchall()
    return rows


def _play_a_table_at_the_table_role(url: str, roles: RoomRoles) -> None:
    owner_sets_up_the_room(url, roles)
    desk = Database(as_login(url, roles.table))
    try:
        run_replay(desk, table_script("T1", 1, extras=False, close=False), resume=False)
    finally:
        desk.dispose()


def test_a_schema_given_back_has_no_grant_policy_or_row_of_the_test_before(
    pool: RoomSchemaPool, roles: RoomRoles
) -> None:
    url = pool.take()
    migrated = _rows(url)
    assert _catalog(url, GRANTS) == [] and _catalog(url, POLICIES) == []
    _play_a_table_at_the_table_role(url, roles)
    assert _catalog(url, GRANTS) != [] and _catalog(url, POLICIES) != []
    assert _rows(url) != migrated
    pool.give_back(url)

    assert pool.take() == url
    assert _catalog(url, GRANTS) == []
    assert _catalog(url, POLICIES) == []
    assert _rows(url) == _rows(pool.template_url)
    assert {table: len(rows) for table, rows in _rows(url).items()} == {
        table: len(rows) for table, rows in migrated.items()
    }
    assert pool.structure(schema_of(url)) == pool.structure(pool.template)
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied for schema"):
        _catalog(as_login(url, roles.table), f'SELECT count(*) FROM "{schema_of(url)}".events')
    pool.give_back(url)


def test_a_schema_whose_structure_a_test_changed_is_not_handed_out_again(pool: RoomSchemaPool) -> None:
    url = pool.take()
    with psycopg.connect(libpq(url), autocommit=True) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    pool.give_back(url)
    other = pool.take()
    assert other != url
    pool.give_back(other)
    assert pool.take() == other
    pool.give_back(other)


def test_a_schema_migrated_by_the_recorded_statements_is_one_the_migrations_build(
    postgres_url: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    alembic_runs: list[str] = []

    def counted(connection: Connection, revision: str) -> None:
        alembic_runs.append(revision)
        upgrade(connection, revision)

    monkeypatch.setattr(pooled_schemas, "run_the_migrations", counted)
    server, recording = needs_server(postgres_url), RecordedMigration()
    with ExitStack() as schemas:
        by_alembic, recorded, replayed, older = (
            schemas.enter_context(fresh_schema(server, durable=False)) for _ in range(4)
        )
        Database(by_alembic).dispose()  # the product's own migration, not patched
        with replayed_migrations(recording):
            for url in (recorded, replayed):
                Database(url).dispose()
            assert alembic_runs == ["head"]  # the first recorded, the second replayed
            old = Database(older, migrate=False)
            old.migrate("0013")
            old.migrate()  # a schema that holds tables: Alembic's
            old.dispose()
        assert alembic_runs == ["head", "0013", "head"]
        structures = {_catalog(url, STRUCTURE)[0] for url in (by_alembic, recorded, replayed, older)}
        assert len(structures) == 1
        assert _rows(replayed) == _rows(recorded)  # the same statements: the same rows and times
        assert {table: len(rows) for table, rows in _rows(by_alembic).items()} == {
            table: len(rows) for table, rows in _rows(replayed).items()
        }
