"""Service fixtures: every `database` test runs on SQLite and on real PostgreSQL.

Each test's database holds the test supervisor and dealer. They are made once a run (PIN hashing
is slow on purpose) in a database built through the migrations. On SQLite each test gets a copy of
that file; a module whose tests all start from one history (`database_copy(build)`) plays it once
a run on a copy too, and each test gets a copy of the result. On PostgreSQL each test gets a
schema built through the migrations (made for it, or one an earlier test left as it was built:
`SchemaPool`) whose rows are replaced by those of the accounts' schema or of the schema its
history was played on once (`PostgresHistories`); a user who is not a superuser cannot hold the
triggers off for that, so there each test migrates a fresh schema, takes the account rows and
plays its history itself, as do durable tests. A test that begins by opening a room with no
accounts takes `migrated_database_url`: one as the migrations leave it (the card-room tests' pool).
A new schema that only has to be current (the pools', the accounts', a history's, or a test's own
`database_url` opened to the newest revision) gets the statements the process's first migration
of an empty schema sent, replayed (tests/helpers/pooled_schemas.py's `RecordedMigration`).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import Connection

from ofc_desk.storage import append_only
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role
from tests.helpers import ddl_log
from tests.helpers.migrated_files import migrated_files, migrated_template  # noqa: F401 (fixtures)
from tests.helpers.ofc_test_databases import (  # noqa: F401 (backend, database_url and postgres_url are fixtures)
    backend,
    database_url,
    drop_schema,
    fresh_schema,
    is_durable,
    needs_server,
    postgres_url,
    sqlite_url,
)
from tests.helpers.pooled_schemas import (  # noqa: F401 (migrated_database_url and room_schemas are fixtures)
    STRUCTURE,
    copy_statements,
    is_superuser,
    migrated_anew,
    migrated_database_url,
    pooled_schema,
    reinstall_triggers,
    room_schemas,
    schema_of,
)
from tests.helpers.room_logins import libpq
from tests.helpers.shared_compilations import (  # noqa: F401 (fixtures)
    postgres_engines_share_compilations,
    shared_dialect,
    sqlite_engines_share_compilations,
)
from tests.helpers.table_helpers import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN, Build, DatabaseCopy


def _with_accounts(database: Database) -> None:
    accounts = [(SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN), (DEALER, Role.DEALER, DEALER_PIN)]
    create_accounts(database, accounts)


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
    with ExitStack() as cleanup:
        url = pooled_schema(postgres_url, cleanup)
        migrated_anew(url)
        database = Database(url)
        _with_accounts(database)
        database.dispose()
        yield schema_of(url)


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


_TRIGGERS = (
    "SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
    " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %(schema)s AND NOT t.tgisinternal"
)


def _triggers(connection: Connection, schema: str) -> int:
    """How many triggers of its own (the append-only ones) the schema's tables have."""
    return int(connection.exec_driver_sql(_TRIGGERS, {"schema": schema}).scalar_one())


class SchemaPool:
    """This test process's PostgreSQL schemas built by the migrations and free for a test. A test
    that leaves its schema as the migrations built it (structure, triggers, grants: all but its
    rows) gives it back, and the next test's copy replaces every row of it: a schema made and
    migrated per test cost as much as the rest of a typical test. A schema no DDL command touched
    while a test had it (tests/helpers/ddl_log.py) is as the migrations built it, undigested. One
    whose append-only triggers the copy of a history lifted (as that history's were), and that no
    DDL command touched after the lift, goes to a pool of its own, for the next such copy: lifting
    and putting back two dozen triggers, and digesting the schema twice, cost as much as the rest
    of a tamper test."""

    def __init__(self, server_url: str, cleanup: ExitStack) -> None:
        self.server_url, self.cleanup = server_url, cleanup
        self._free: list[str] = []
        self._free_lifted: list[str] = []  # the migrations' structure but the append-only triggers
        self._pooled: set[str] = set()
        self._marks: dict[str, int] = {}  # where the DDL log stood when each schema was taken
        self._lifted_marks: dict[str, int] = {}  # where it stood once each schema's lift was done
        self._migrated: str | None = None
        self._catalog = psycopg.connect(libpq(server_url), autocommit=True)
        cleanup.callback(self._catalog.close)
        ddl_log.install(self._catalog)

    def take(self) -> str:
        """The URL of a free schema the migrations built (not durable)."""
        url = self._free.pop() if self._free else self._migrated_schema()
        self._marks[url] = ddl_log.mark(self._catalog)
        return url

    def take_lifted(self) -> str | None:
        """The URL of a free schema the migrations built whose append-only triggers (all of
        them: `append_only.remove_all`) are lifted; None when there is none."""
        if not self._free_lifted:
            return None
        url = self._free_lifted.pop()
        self._lifted_marks[url] = self._marks[url] = ddl_log.mark(self._catalog)
        return url

    def lifted(self, url: str) -> None:
        """Note that the triggers of the schema at `url` (taken as the migrations built it) were
        all lifted just now, and nothing else of its structure changed."""
        self._lifted_marks[url] = ddl_log.mark(self._catalog)

    def give_back(self, url: str) -> None:
        """Free the schema for the next test if its structure is the migrations' (its append-only
        triggers put back as the migrations leave them, if a test lifted them); else drop it. A
        schema whose triggers a copy lifted, untouched since, is free for the next lifted copy."""
        since_lifted = self._lifted_marks.pop(url, None)
        if since_lifted is not None and ddl_log.untouched_since(self._catalog, since_lifted, schema_of(url)):
            self._marks.pop(url, None)
            self._free_lifted.append(url)
            return
        if ddl_log.untouched_since(self._catalog, self._marks.pop(url, 0), schema_of(url)):
            self._free.append(url)
            return
        kept = self._structure(url) == self._migrated
        if not kept:
            reinstall_triggers(url)
            kept = self._structure(url) == self._migrated
        if kept:
            self._free.append(url)
        else:
            self.drop(url)

    def drop(self, url: str) -> None:
        if url in self._pooled:
            self._pooled.discard(url)
            drop_schema(url)

    def _migrated_schema(self) -> str:
        url = pooled_schema(self.server_url, self.cleanup)
        self._pooled.add(url)
        migrated_anew(url)
        if self._migrated is None:
            self._migrated = self._structure(url)
        return url

    def _structure(self, url: str) -> str:
        row = self._catalog.execute(STRUCTURE, {"schema": schema_of(url)}).fetchone()
        return str(row[0]) if row else ""


class PostgresHistories:
    """This test process's PostgreSQL schemas holding each `Build`'s history, played once on a
    migrated schema with the accounts; a test's fresh migrated schema then takes their rows."""

    def __init__(self, server_url: str, accounts: str, cleanup: ExitStack) -> None:
        self.server_url, self.accounts, self.cleanup = server_url, accounts, cleanup
        self._schemas: dict[Build | None, tuple[str, int]] = {}

    def schema(self, build: Build | None) -> tuple[str, int]:
        """The schema holding `build`'s history (None: just the accounts), and how many
        append-only triggers it kept."""
        if build is None:
            if None not in self._schemas:
                with psycopg.connect(libpq(self.server_url)) as connection:
                    row = connection.execute(_TRIGGERS, {"schema": self.accounts}).fetchone()
                self._schemas[None] = (self.accounts, int(row[0]) if row else 0)
        elif build not in self._schemas:
            url = pooled_schema(self.server_url, self.cleanup)
            migrated_anew(url)
            database = Database(url)
            try:
                with database.engine.begin() as connection:
                    _copy_accounts(connection, self.accounts)
                build(database)
                with database.engine.connect() as connection:
                    self._schemas[build] = (schema_of(url), _triggers(connection, schema_of(url)))
            finally:
                database.dispose()
        return self._schemas[build]


@pytest.fixture(scope="session")
def postgres_superuser(postgres_url: str | None) -> bool:  # noqa: F811
    """Whether the tests' PostgreSQL user may set `session_replication_role` (only a superuser
    may), which copying rows between schemas here needs: without it, each test makes and migrates
    a schema and plays its history itself."""
    return postgres_url is not None and is_superuser(postgres_url)


@pytest.fixture(scope="session")
def postgres_histories(
    postgres_url: str | None,  # noqa: F811
    postgres_accounts: str | None,
    postgres_superuser: bool,
) -> Iterator[PostgresHistories | None]:
    if postgres_url is None or postgres_accounts is None or not postgres_superuser:
        yield None
        return
    with ExitStack() as cleanup:
        yield PostgresHistories(postgres_url, postgres_accounts, cleanup)


@pytest.fixture(scope="session")
def schema_pool(postgres_url: str | None, postgres_superuser: bool) -> Iterator[SchemaPool | None]:  # noqa: F811
    if postgres_url is None or not postgres_superuser:
        yield None
        return
    with ExitStack() as cleanup:
        yield SchemaPool(postgres_url, cleanup)


def _copy_history(connection: Connection, source: str, kept_triggers: int) -> bool:
    """Every row of `source` (a schema the same migrations built) in place of this fresh schema's,
    and its sequences where `source`'s stand; its append-only triggers lifted if `source`'s were.
    The triggers (foreign keys' included) do not fire meanwhile (`session_replication_role`).
    False, changing nothing, when `source` kept some triggers but not all."""
    schema = str(connection.exec_driver_sql("SELECT current_schema()").scalar_one())
    lift = kept_triggers == 0
    if not lift and kept_triggers != _triggers(connection, schema):
        return False
    connection.exec_driver_sql(_copy_statements(connection, source))
    if lift:
        append_only.remove_all(connection)
    return True


_COPIES: dict[str, str] = {}


def _copy_statements(connection: Connection, source: str) -> str:
    """`copy_statements` of `source`, spelt once a run."""
    if source not in _COPIES:
        tables = connection.exec_driver_sql(
            "SELECT tablename FROM pg_tables WHERE schemaname = %(schema)s", {"schema": source}
        ).scalars()
        sequences = connection.exec_driver_sql(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = %(schema)s", {"schema": source}
        ).scalars()
        _COPIES[source] = copy_statements(source, list(tables), list(sequences))
    return _COPIES[source]


def pooled_copy(
    schema_pool: SchemaPool, postgres_histories: PostgresHistories, build: Build | None, cleanup: ExitStack
) -> Database:
    """`build`'s history in a pooled schema: one whose triggers are lifted already, if its
    history's were and the pool has one, else one as the migrations built it."""
    source, kept_triggers = postgres_histories.schema(build)
    lifted_url = schema_pool.take_lifted() if kept_triggers == 0 else None
    url = lifted_url or schema_pool.take()
    cleanup.callback(schema_pool.give_back, url)  # after the database is closed
    database = Database(url)  # what every start does: the migration check included
    cleanup.callback(database.dispose)
    with database.engine.begin() as connection:
        connection.exec_driver_sql("SET LOCAL lock_timeout = '5s'")
        if lifted_url is not None:
            connection.exec_driver_sql(_copy_statements(connection, source))
            return database
        if not _copy_history(connection, source, kept_triggers):
            raise AssertionError(f"a pooled schema does not have the triggers {source} began with")
    if kept_triggers == 0:
        schema_pool.lifted(url)
    return database


@pytest.fixture
def database_copy(
    backend: str,  # noqa: F811 (the imported fixture)
    request: pytest.FixtureRequest,
    tmp_path: Path,
    sqlite_templates: SqliteTemplates,
    postgres_url: str | None,  # noqa: F811
    postgres_accounts: str | None,
    postgres_histories: PostgresHistories | None,
    schema_pool: SchemaPool | None,
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
            if schema_pool is not None and postgres_histories is not None and not durable:
                return pooled_copy(schema_pool, postgres_histories, build, cleanup)
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
