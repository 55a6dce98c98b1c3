"""PostgreSQL schemas the migrations built, reused between tests: what a schema's structure is
(`STRUCTURE`), copying one schema's rows into another (`copy_statements`), and the card-room
tests' pool (`RoomSchemaPool`). Migrating a schema costs the server's DDL (about 0.4 s), as much
as the rest of a typical test; emptying one a test used costs a few milliseconds. A new schema
that only has to be as the migrations leave it is migrated by the statements the process's first
such migration sent (`RecordedMigration`), not by Alembic again.

A schema is handed out again only when its structure (relations, columns, constraints, triggers,
functions, row policies, owners and every grant) is the migrations' again: anything a test changed
that the reset does not take back makes the pool drop the schema instead. A schema no DDL command
touched while a test had it (tests/helpers/ddl_log.py) has the migrations' structure still.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg
import pytest
from sqlalchemy import Connection, create_engine, event
from sqlalchemy.engine import make_url

from ofc_desk.storage import append_only
from ofc_desk.storage import database as database_module
from ofc_desk.storage.database import Database
from ofc_desk.storage.schema_revision import upgrade as run_the_migrations
from tests.helpers import ddl_log
from tests.helpers.ofc_test_databases import (
    drop_schema,
    dropped_with_the_run,
    fresh_schema,
    is_durable,
    needs_server,
    new_schema,
    sqlite_path,
    sqlite_url,
)
from tests.helpers.room_logins import libpq

if TYPE_CHECKING:  # migrated_files imports this module
    from tests.helpers.migrated_files import MigratedTemplate

# Everything about a schema's structure a test could change: the schema's owner and grants, its
# relations (tables, indexes, sequences) with their owners and grants, columns and their grants,
# constraints, triggers (a foreign key's named by its constraint: their own names hold an object
# id), functions, row policies, types and sequences' steps, the schema's name said as SCHEMA, so
# that two schemas the same migrations built have one structure. A grant given and
# taken back leaves an access list spelt out where there was none (NULL: the default), which
# means the same: each is compared as its default when it is one.
STRUCTURE = """
SELECT md5(coalesce(string_agg(replace(item, %(schema)s, 'SCHEMA'), ',' ORDER BY item), '')) FROM (
    SELECT format('%%s %%s %%s', nspname, nspowner::regrole, coalesce(nspacl, acldefault('n', nspowner)))
      AS item FROM pg_namespace WHERE nspname = %(schema)s
    UNION ALL
    SELECT format('%%s %%s %%s %%s %%s %%s %%s', c.relname, c.relkind, c.relowner::regrole, c.relrowsecurity,
                  c.relforcerowsecurity, c.reloptions,
                  coalesce(c.relacl,
                           acldefault(CASE c.relkind WHEN 'S' THEN 's' ELSE 'r' END::"char", c.relowner)))
      FROM pg_class c WHERE c.relnamespace = to_regnamespace(%(schema)s)
    UNION ALL
    SELECT format('%%s.%%s %%s %%s %%s %%s', c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
                  a.attnotnull, pg_get_expr(d.adbin, d.adrelid), a.attacl)
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE c.relnamespace = to_regnamespace(%(schema)s) AND a.attnum > 0 AND NOT a.attisdropped
    UNION ALL
    SELECT format('%%s %%s', conname, pg_get_constraintdef(oid))
      FROM pg_constraint WHERE connamespace = to_regnamespace(%(schema)s)
    UNION ALL
    SELECT format('%%s %%s %%s', c.relname,
                  CASE WHEN t.tgisinternal THEN format('%%s %%s', k.conname, t.tgfoid::regproc)
                       ELSE t.tgname END,
                  t.tgenabled)
      FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      LEFT JOIN pg_constraint k ON k.oid = t.tgconstraint
     WHERE c.relnamespace = to_regnamespace(%(schema)s)
    UNION ALL
    SELECT format('%%s %%s %%s %%s', proname, md5(prosrc), proowner::regrole,
                  coalesce(proacl, acldefault('f', proowner)))
      FROM pg_proc WHERE pronamespace = to_regnamespace(%(schema)s)
    UNION ALL
    SELECT format('%%s %%s %%s %%s', c.relname, p.polname, p.polcmd, pg_get_expr(p.polqual, p.polrelid))
      FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid
     WHERE c.relnamespace = to_regnamespace(%(schema)s)
    UNION ALL
    SELECT format('type %%s %%s', typname, typtype)
      FROM pg_type WHERE typnamespace = to_regnamespace(%(schema)s)
    UNION ALL
    SELECT format('%%s %%s %%s %%s', s.seqrelid::regclass, s.seqincrement, s.seqmin, s.seqmax)
      FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid
     WHERE c.relnamespace = to_regnamespace(%(schema)s)
) AS structure
"""

# Every role but the owner that holds a grant on the schema, its relations or their columns
# (PUBLIC as itself); of functions, those given to a role (every function's default gives PUBLIC
# EXECUTE).
_GRANTEES = """
SELECT DISTINCT CASE WHEN e.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(e.grantee::regrole::text) END
  FROM (SELECT nspacl AS acl, nspowner AS owner, true AS any_grantee
          FROM pg_namespace WHERE nspname = %(schema)s
        UNION ALL
        SELECT relacl, relowner, true FROM pg_class WHERE relnamespace = to_regnamespace(%(schema)s)
        UNION ALL
        SELECT a.attacl, c.relowner, true FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
         WHERE c.relnamespace = to_regnamespace(%(schema)s)
        UNION ALL
        SELECT proacl, proowner, false FROM pg_proc WHERE pronamespace = to_regnamespace(%(schema)s)
       ) AS acls, aclexplode(acls.acl) AS e
 WHERE e.grantee <> acls.owner AND (acls.any_grantee OR e.grantee <> 0)
"""
_POLICIES = """
SELECT format('DROP POLICY %%I ON %%I', p.polname, c.relname)
  FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid WHERE c.relnamespace = to_regnamespace(%(schema)s)
"""
_ROW_SECURITY = """
SELECT format('ALTER TABLE %%I DISABLE ROW LEVEL SECURITY, NO FORCE ROW LEVEL SECURITY', relname)
  FROM pg_class WHERE relnamespace = to_regnamespace(%(schema)s) AND (relrowsecurity OR relforcerowsecurity)
"""
_TRIGGERS = """
SELECT c.relname, t.tgname, t.tgenabled FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
 WHERE c.relnamespace = to_regnamespace(%(schema)s) AND NOT t.tgisinternal
"""
_RELATIONS = "SELECT count(*) FROM pg_class WHERE relnamespace = to_regnamespace(current_schema())"
_FUNCTIONS = (
    "SELECT proname, oid::regprocedure::text FROM pg_proc WHERE pronamespace = to_regnamespace(%(schema)s)"
)


def pooled_schema(server_url: str, cleanup: ExitStack) -> str:
    """A new schema (not durable) kept to the run's end: dropped then by `cleanup`, unless it lies
    in the process's own database, which the run's end drops whole just after (each schema's
    `DROP SCHEMA` first would be work for nothing; a process that dies early drops neither)."""
    url = new_schema(server_url, durable=False)
    if not dropped_with_the_run(url):
        cleanup.callback(drop_schema, url)
    return url


def schema_of(url: str) -> str:
    """The schema a test URL's connections work in (its `search_path`)."""
    return str(make_url(url).query["options"]).split("search_path=", 1)[1].split()[0]


def copy_statements(source: str, tables: list[str], sequences: list[str]) -> str:
    """The statements that put the rows of `source`'s `tables` and its `sequences` in place of
    those of the schema they run in (one the same migrations built), as one text: sent at once,
    without parameters, they cost one round trip instead of one each. No trigger fires meanwhile,
    foreign keys' included (`session_replication_role`, which only a superuser may set)."""
    return "; ".join(
        [
            "SET LOCAL session_replication_role = replica",
            *(
                f'DELETE FROM "{table}"; INSERT INTO "{table}" SELECT * FROM "{source}"."{table}"'
                for table in tables
            ),
            *(
                f'SELECT setval(\'"{sequence}"\', last_value, is_called) FROM "{source}"."{sequence}"'
                for sequence in sequences
            ),
            "SET LOCAL session_replication_role = DEFAULT",
        ]
    )


def is_superuser(server_url: str) -> bool:
    with psycopg.connect(libpq(server_url)) as connection:
        row = connection.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()
    return bool(row and row[0])


def reinstall_triggers(url: str) -> None:
    """Every append-only trigger as the migrations leave them: what a test playing the owner of
    the database most often changes of a schema's structure."""
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            append_only.remove_all(connection)
            append_only.install_all(connection)
    finally:
        engine.dispose()


@dataclass(frozen=True)
class Sent:
    """One statement a migration sent, as SQLAlchemy handed it to the driver."""

    statement: str
    parameters: Any  # a mapping, or a list of them for an executemany, as SQLAlchemy passed it


class RecordedMigration:
    """This process's migration of an empty PostgreSQL schema to the newest revision, run by
    Alembic and recorded the first time, its statements replayed after (a schema's start then
    costs the test process 41 ms of CPU instead of 96 ms: Alembic's revision map and each step's
    DDL rendered; docs/testing.md). A replay sends the same statements with the same
    parameters in the same order, on its own connection, in the transaction `Database.migrate`
    opened (its lock, the state it read and its words for a refused statement all the product's
    own): the server runs the same DDL and inserts, and the schema holds the same relations,
    triggers, functions and rows (the marks the migrations append to an empty record, stamped
    when the recording ran, as the SQLite template's: tests/helpers/migrated_files.py). No
    migration names its schema (each works in its connection's `search_path`); each replay is
    checked anyway, its structure's digest (`STRUCTURE`, read in the same transaction) against
    the recording's, and fails if they differ."""

    def __init__(self) -> None:
        self._sent: list[Sent] | None = None
        self._structure = ""

    def upgrade(self, connection: Connection, revision: str) -> None:
        """`schema_revision.upgrade`, replayed where the schema is an empty PostgreSQL one and
        `revision` the newest; anything else migrated by Alembic."""
        if revision != "head" or connection.dialect.name != "postgresql" or not _empty(connection):
            run_the_migrations(connection, revision)
        elif self._sent is None:
            self._record(connection)
        else:
            self._replay(connection)

    def _record(self, connection: Connection) -> None:
        sent: list[Sent] = []

        def note(*args: Any) -> None:  # connection, cursor, statement, parameters, context, many
            sent.append(Sent(args[2], args[3]))

        event.listen(connection, "before_cursor_execute", note)
        try:
            run_the_migrations(connection, "head")
        finally:
            event.remove(connection, "before_cursor_execute", note)
        self._structure = _structure_of(connection)
        self._sent = sent

    def _replay(self, connection: Connection) -> None:
        for each in self._sent or []:
            connection.exec_driver_sql(each.statement, each.parameters)
        replayed = _structure_of(connection)
        if replayed != self._structure:
            raise AssertionError(
                f"a replayed migration built {replayed}, not the migrations' {self._structure}"
            )


def _empty(connection: Connection) -> bool:
    """Whether the connection's schema holds no relation at all (no table, sequence or index)."""
    return int(connection.exec_driver_sql(_RELATIONS).scalar_one()) == 0


def _structure_of(connection: Connection) -> str:
    schema = str(connection.exec_driver_sql("SELECT current_schema()").scalar_one())
    return str(connection.exec_driver_sql(STRUCTURE, {"schema": schema}).scalar_one())


RECORDED_MIGRATION = RecordedMigration()
"""The test process's one recording."""


@contextmanager
def replayed_migrations(recording: RecordedMigration = RECORDED_MIGRATION) -> Iterator[None]:
    """Every `Database` that migrates an empty PostgreSQL schema to the newest revision meanwhile
    does it by `recording` (the process's unless told)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(database_module, "upgrade", recording.upgrade)
        yield


def migrated_anew(url: str) -> None:
    """Bring the new schema at `url` to the newest migration, by the recording."""
    with replayed_migrations():
        Database(url).dispose()


class RoomSchemaPool:
    """This test process's card-room schemas built by the migrations, for the tests that begin
    with one. A test gives its schema back; the pool takes back what the test did (every grant to
    anyone but the owner, the roles' row policies, row-level security, commit-check triggers and
    functions; every row and sequence replaced by those of a schema the migrations built and no
    test touches) and hands it out again if its structure is the migrations' once more, else drops
    it. The tests' roles themselves are dropped by the `roles` fixture (they are the server's).
    `template_rows`, if given, adds rows to that template once (the fault tests' accounts, whose
    PINs cost a scrypt each): every schema handed out, a new one too, then begins with them."""

    def __init__(
        self, server_url: str, cleanup: ExitStack, template_rows: Callable[[Database], None] | None = None
    ) -> None:
        self.server_url, self.cleanup = server_url, cleanup
        self._free: list[str] = []
        self._pooled: set[str] = set()
        self._catalog = psycopg.connect(libpq(server_url), autocommit=True)
        cleanup.callback(self._catalog.close)
        ddl_log.install(self._catalog)
        self._marks: dict[str, int] = {}  # where the DDL log stood when each schema was taken
        self.template_url = self._migrated_schema()  # the rows' source, never handed out
        self._own_rows = template_rows is not None
        if template_rows is not None:
            template = Database(self.template_url)
            template_rows(template)
            template.dispose()
        self.template = schema_of(self.template_url)
        self._structure = self.structure(self.template)
        self._triggers = set(self._catalog.execute(_TRIGGERS, {"schema": self.template}).fetchall())
        self._functions = {name for name, _ in self._catalog.execute(_FUNCTIONS, {"schema": self.template})}
        named = {"schema": self.template}
        tables = self._catalog.execute("SELECT tablename FROM pg_tables WHERE schemaname = %(schema)s", named)
        sequences = self._catalog.execute(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = %(schema)s", named
        )
        self._copy = copy_statements(
            self.template, [str(t) for (t,) in tables], [str(s) for (s,) in sequences]
        )

    def take(self) -> str:
        """The owner's URL of a schema as the migrations leave it, with the template's own rows if
        it has any (not durable)."""
        if self._free:
            url = self._free.pop()
        else:
            url = self._migrated_schema()
            if self._own_rows:
                self._reset(url, untouched=True)  # the template's rows, as a given-back schema has
        self._marks[url] = ddl_log.mark(self._catalog)
        return url

    def give_back(self, url: str) -> None:
        """Reset the schema for the next test; drop it if the reset cannot make it the migrations'.
        A schema no DDL touched since it was taken (tests/helpers/ddl_log.py) has only its rows
        to reset: its structure is the migrations' still."""
        self._reconnect_if_dropped()
        untouched = ddl_log.untouched_since(self._catalog, self._marks.pop(url, 0), schema_of(url))
        try:
            self._reset(url, untouched)
        except psycopg.Error:  # a lock still held by a test's connection, a grant of a stranger's
            self._drop(url)
            return
        if untouched or self.structure(schema_of(url)) == self._structure:
            self._free.append(url)
        else:
            self._drop(url)

    def _reconnect_if_dropped(self) -> None:
        """The catalog connection again, if the server dropped it (the fault tests stop theirs)."""
        try:
            self._catalog.execute("SELECT 1")
        except psycopg.OperationalError:
            self._catalog = psycopg.connect(libpq(self.server_url), autocommit=True)
            self.cleanup.callback(self._catalog.close)

    def structure(self, schema: str) -> str:
        row = self._catalog.execute(STRUCTURE, {"schema": schema}).fetchone()
        return str(row[0]) if row else ""

    def _migrated_schema(self) -> str:
        url = pooled_schema(self.server_url, self.cleanup)
        self._pooled.add(url)
        migrated_anew(url)
        return url

    def _drop(self, url: str) -> None:
        if url in self._pooled:
            self._pooled.discard(url)
            drop_schema(url)

    def _reset(self, url: str, untouched: bool) -> None:
        """The template's rows in the schema; first, unless no DDL `touched` it, what a test may
        have added to its structure taken back."""
        schema = schema_of(url)
        triggers = self._triggers if untouched else set(self._catalog.execute(_TRIGGERS, {"schema": schema}))
        with psycopg.connect(libpq(url)) as connection:  # one transaction: all of it or none
            connection.execute("SET LOCAL lock_timeout = '5s'")
            for statement in [] if untouched else self._undoing(schema, triggers):
                connection.execute(statement)  # spelt from the catalog
            connection.execute(self._copy)
        if not self._triggers <= triggers:  # an append-only trigger lifted or held off
            reinstall_triggers(url)

    def _undoing(self, schema: str, triggers: set[tuple[str, str, str]]) -> list[str]:
        """The statements that take back what a test may have added to the migrations' schema."""
        named = {"schema": schema}
        statements = []
        for grantee in (str(row[0]) for row in self._catalog.execute(_GRANTEES, named)):
            kinds = ["SCHEMA", "ALL TABLES IN SCHEMA", "ALL SEQUENCES IN SCHEMA"]
            kinds += [] if grantee == "PUBLIC" else ["ALL FUNCTIONS IN SCHEMA"]
            statements += [f'REVOKE ALL ON {kind} "{schema}" FROM {grantee} CASCADE' for kind in kinds]
        statements += [str(row[0]) for row in self._catalog.execute(_POLICIES, named)]
        statements += [str(row[0]) for row in self._catalog.execute(_ROW_SECURITY, named)]
        statements += [f'DROP TRIGGER "{name}" ON "{table}"' for table, name, _ in triggers - self._triggers]
        statements += [
            f"DROP FUNCTION {signature}"
            for name, signature in self._catalog.execute(_FUNCTIONS, named)
            if name not in self._functions
        ]
        return statements


_ROOM_SCHEMAS = pytest.StashKey[RoomSchemaPool | None]()


@pytest.fixture(scope="session")
def room_schemas(pytestconfig: pytest.Config, postgres_url: str | None) -> RoomSchemaPool | None:
    """This process's pool of migrated schemas, one however many conftests import the fixture
    (as `postgres_url`); None where resetting one cannot be done (no server, or a user who is not
    a superuser: the reset copies rows with the triggers held off)."""
    if _ROOM_SCHEMAS not in pytestconfig.stash:
        pool = None
        if postgres_url is not None and is_superuser(postgres_url):
            cleanup = ExitStack()
            pytestconfig.add_cleanup(cleanup.close)  # before the database is dropped
            pool = RoomSchemaPool(postgres_url, cleanup)
        pytestconfig.stash[_ROOM_SCHEMAS] = pool
    return pytestconfig.stash[_ROOM_SCHEMAS]


@contextmanager
def migrated_schema(
    request: pytest.FixtureRequest, postgres_url: str | None, room_schemas: RoomSchemaPool | None
) -> Iterator[str]:
    """The owner's URL of a schema as the migrations leave it: one the pool reset after an
    earlier test, or, in a durable test or without a pool, a fresh one migrated for the test."""
    server_url = needs_server(postgres_url)
    if room_schemas is None or is_durable(request):
        with fresh_schema(server_url, durable=is_durable(request)) as url:
            Database(url).dispose()
            yield url
        return
    url = room_schemas.take()
    yield url
    room_schemas.give_back(url)


@pytest.fixture
def migrated_database_url(
    backend: str,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    postgres_url: str | None,
    room_schemas: RoomSchemaPool | None,
    migrated_template: MigratedTemplate,
) -> Iterator[str]:
    """`database_url` as the migrations leave it, for a test whose first step is to open it (and
    so migrate it): a copy of the process's migrated SQLite file (tests/helpers/migrated_files.py),
    or a pooled PostgreSQL schema (`migrated_schema`), where migrating a fresh one cost about a
    third of a CPU-second."""
    if backend == "sqlite":
        migrated_template.copy(sqlite_path(tmp_path))
        yield sqlite_url(tmp_path)
        return
    with migrated_schema(request, postgres_url, room_schemas) as url:
        yield url
