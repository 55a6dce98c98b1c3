"""Service fixtures: every `database` test runs on SQLite and on real PostgreSQL.

Each test's database holds the test supervisor and dealer. They are made once a run (PIN hashing
is slow on purpose) in a database built through the migrations. On SQLite each test gets a copy of
that file; a module whose tests all start from one history (`database_copy(build)`) plays it once
a run on a copy too, and each test gets a copy of the result. On PostgreSQL each test migrates a
fresh schema of its own, takes the account rows from that database, then plays its history.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import psycopg
import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "storage"))
sys.path.insert(0, str(Path(__file__).parent))

from ofc_test_databases import (  # noqa: F401 (backend, database_url and postgres_url are fixtures)
    backend,
    database_url,
    fresh_schema,
    is_durable,
    needs_server,
    postgres_url,
    sqlite_url,
)
from sqlalchemy import Connection
from sqlalchemy.engine import make_url
from table_helpers import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN, Build, DatabaseCopy

from ofc_desk.storage import append_only
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, create_user


def _with_accounts(database: Database) -> None:
    supervisor = create_user(database, SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN)
    create_user(database, DEALER, Role.DEALER, DEALER_PIN, approver=supervisor)


class SqliteTemplates:
    """This test process's SQLite files to copy: the one with the two accounts, built through the
    migrations, and one per `Build` made from a copy of it; each made on the first test to ask."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._files: dict[Build | None, Path] = {}

    def path(self, build: Build | None) -> Path:
        if build not in self._files:
            source = None if build is None else self.path(None)
            path = self.folder / f"template-{len(self._files)}.db"
            if source is not None:
                shutil.copyfile(source, path)
            database = Database(f"sqlite:///{path}")
            try:
                (build or _with_accounts)(database)
            finally:
                database.dispose()
            self._files[build] = path
        return self._files[build]


@pytest.fixture(scope="session")
def sqlite_templates(tmp_path_factory: pytest.TempPathFactory) -> SqliteTemplates:
    return SqliteTemplates(tmp_path_factory.mktemp("templates"))


@pytest.fixture(scope="session")
def postgres_accounts(postgres_url: str | None) -> Iterator[str | None]:  # noqa: F811
    """The schema holding the accounts on the PostgreSQL server; None without a server."""
    if postgres_url is None:
        yield None
        return
    with fresh_schema(postgres_url, durable=False) as url:
        database = Database(url)
        _with_accounts(database)
        database.dispose()
        yield _schema_of(url)


def _copy_accounts(connection: Connection, source: str) -> None:
    """The accounts chain of `source` in place of the one this schema's migration began (its
    mark of when sign-offs started): as the owner of the database, who alone may lift the
    append-only trigger to do so."""
    append_only.remove(connection, ("account_events",))
    connection.exec_driver_sql("DELETE FROM account_events")
    append_only.install(connection, ("account_events",))
    for table in ("account_events", "users"):  # the chain first: a user row follows it
        connection.exec_driver_sql(f'INSERT INTO {table} SELECT * FROM "{source}".{table}')
    connection.exec_driver_sql("SELECT setval(pg_get_serial_sequence('users', 'id'), max(id)) FROM users")


def _schema_of(url: str) -> str:
    return str(make_url(url).query["options"]).split("search_path=", 1)[1].split()[0]


def _triggers(connection: Connection, schema: str) -> int:
    """How many triggers of its own (the append-only ones) the schema's tables have."""
    query = (
        "SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
        " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %(schema)s AND NOT t.tgisinternal"
    )
    return int(connection.exec_driver_sql(query, {"schema": schema}).scalar_one())


class PostgresHistories:
    """This test process's PostgreSQL schemas holding each `Build`'s history, played once on a
    migrated schema with the accounts; a test's fresh migrated schema then takes their rows."""

    def __init__(self, server_url: str, accounts: str, cleanup: ExitStack) -> None:
        self.server_url, self.accounts, self.cleanup = server_url, accounts, cleanup
        self._schemas: dict[Build, tuple[str, int]] = {}

    def schema(self, build: Build) -> tuple[str, int]:
        """The schema holding `build`'s history, and how many append-only triggers it kept."""
        if build not in self._schemas:
            url = self.cleanup.enter_context(fresh_schema(self.server_url, durable=False))
            database = Database(url)
            try:
                with database.engine.begin() as connection:
                    _copy_accounts(connection, self.accounts)
                build(database)
                with database.engine.connect() as connection:
                    self._schemas[build] = (_schema_of(url), _triggers(connection, _schema_of(url)))
            finally:
                database.dispose()
        return self._schemas[build]


@pytest.fixture(scope="session")
def postgres_histories(
    postgres_url: str | None,  # noqa: F811
    postgres_accounts: str | None,
) -> Iterator[PostgresHistories | None]:
    """None without a server, or where this user may not set `session_replication_role` (only a
    superuser may): then each test plays its history itself."""
    if postgres_url is None or postgres_accounts is None:
        yield None
        return
    with psycopg.connect(make_url(postgres_url).set(drivername="postgresql").render_as_string(False)) as c:
        superuser = c.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()
    if not superuser or not superuser[0]:
        yield None
        return
    with ExitStack() as cleanup:
        yield PostgresHistories(postgres_url, postgres_accounts, cleanup)


def _copy_history(connection: Connection, source: str, kept_triggers: int) -> bool:
    """Every row of `source` (a schema the same migrations built) in place of this fresh schema's,
    and its sequences where `source`'s stand; its append-only triggers lifted if `source`'s were.
    The triggers (foreign keys' included) do not fire meanwhile (`session_replication_role`).
    False, changing nothing, when `source` kept some triggers but not all."""
    schema = str(connection.exec_driver_sql("SELECT current_schema()").scalar_one())
    lift = kept_triggers == 0
    if not lift and kept_triggers != _triggers(connection, schema):
        return False
    connection.exec_driver_sql("SET LOCAL session_replication_role = replica")
    tables = connection.exec_driver_sql(
        "SELECT tablename FROM pg_tables WHERE schemaname = %(schema)s", {"schema": source}
    ).scalars()
    for table in list(tables):
        connection.exec_driver_sql(f'DELETE FROM "{table}"')
        connection.exec_driver_sql(f'INSERT INTO "{table}" SELECT * FROM "{source}"."{table}"')
    sequences = connection.exec_driver_sql(
        "SELECT sequencename FROM pg_sequences WHERE schemaname = %(schema)s", {"schema": source}
    ).scalars()
    for sequence in list(sequences):
        connection.exec_driver_sql(
            f'SELECT setval(\'"{sequence}"\', last_value, is_called) FROM "{source}"."{sequence}"'
        )
    connection.exec_driver_sql("SET LOCAL session_replication_role = DEFAULT")
    if lift:
        append_only.remove_all(connection)
    return True


@pytest.fixture
def database_copy(
    backend: str,  # noqa: F811 (the imported fixture)
    request: pytest.FixtureRequest,
    tmp_path: Path,
    sqlite_templates: SqliteTemplates,
    postgres_url: str | None,  # noqa: F811
    postgres_accounts: str | None,
    postgres_histories: PostgresHistories | None,
) -> Iterator[DatabaseCopy]:
    """`database_copy(build)`: this test's database, the accounts' database after `build` (None:
    as the migrations and the accounts left it); closed (and its schema dropped) afterwards."""
    server_url = needs_server(postgres_url) if backend == "postgresql" else None
    durable = is_durable(request)
    with ExitStack() as cleanup:

        def copy(build: Build | None) -> Database:
            if server_url is None:
                shutil.copyfile(sqlite_templates.path(build), tmp_path / "desk.db")
                database = Database(sqlite_url(tmp_path))  # what every start does: the migration check
                cleanup.callback(database.dispose)
                return database
            database = Database(cleanup.enter_context(fresh_schema(server_url, durable=durable)))
            cleanup.callback(database.dispose)
            if build is not None and postgres_histories is not None:
                source, kept_triggers = postgres_histories.schema(build)
                with database.engine.begin() as connection:
                    if _copy_history(connection, source, kept_triggers):
                        return database
            with database.engine.begin() as connection:
                _copy_accounts(connection, str(postgres_accounts))
            if build is not None:
                build(database)
            return database

        yield copy


@pytest.fixture
def database(request: pytest.FixtureRequest, database_copy: DatabaseCopy) -> Database:
    # `database_url` is a place of its own (a fresh file or schema), not this copy.
    assert "database_url" not in request.fixturenames, "a test given `database` reads its URL as database.url"
    return database_copy(None)
