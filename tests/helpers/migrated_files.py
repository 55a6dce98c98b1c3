"""A new SQLite file migrated once a test process and copied wherever a test opens a new one.

`Database(url)` on a SQLite file that does not exist yet runs every migration from the first
(about half of a test that replays a script into a new file). The copy is the file those same
migrations built in this process, in this process's run: the same schema, the same rows (the
marks the migrations append to an empty record, at the time the template was made), and the
same `SchemaState` handed back as the migration from nothing reported. A test marked `durable`,
a migration to another revision than the newest, a read-only or in-memory database and a file
that already exists (even empty) run the migrations themselves; tests/storage (the migrations'
own tests) does not use this at all. Where a conftest imports `migrated_files`, a new (empty)
PostgreSQL schema migrated to the newest revision gets, likewise, the statements this process's
first such migration sent (tests/helpers/pooled_schemas.py's `RecordedMigration`).
"""

from __future__ import annotations

import shutil
import sqlite3
import threading
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from ofc_desk.storage import database as database_module
from ofc_desk.storage.database import Database
from ofc_desk.storage.room_schema import SchemaState
from tests.helpers.pooled_schemas import RECORDED_MIGRATION

MIGRATE_ANEW: Callable[[Database, str], SchemaState] = Database.migrate
"""The product's own `Database.migrate`, which builds the template and every other file."""


class MigratedTemplate:
    """This test process's new SQLite file as the migrations leave it, made on first use."""

    def __init__(self, folder: Path) -> None:
        self._path = folder / "migrated.db"
        self._before: SchemaState | None = None
        self._lock = threading.Lock()

    def migrate(self, database: Database, revision: str) -> SchemaState:
        """`Database.migrate`, with a new file copied from the template (threads that open the
        same new file together: the first copies it, the others find it current)."""
        with self._lock:
            path = new_file(database)
            if revision == "head" and path is not None:
                return self._copy(path)
        return MIGRATE_ANEW(database, revision)

    def copy(self, path: Path) -> None:
        """A new file at `path` as the migrations leave one: for a test whose first step opens
        it, which is not about migrating it (tests/helpers/pooled_schemas.py's
        `migrated_database_url`)."""
        with self._lock:
            self._copy(path)

    def _copy(self, path: Path) -> SchemaState:
        if self._before is None:
            self._before = self._build()
        shutil.copyfile(self._path, path)
        return self._before

    def _build(self) -> SchemaState:
        database = Database(f"sqlite:///{self._path}", migrate=False)
        try:
            before = MIGRATE_ANEW(database, "head")
        finally:
            database.dispose()
        with closing(sqlite3.connect(self._path)) as connection:  # the whole file, no WAL beside it
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return before


def new_file(database: Database) -> Path | None:
    """The SQLite file `database` would create on its first connection; None for anything else."""
    url = make_url(database.url)
    if database.read_only or url.get_backend_name() != "sqlite" or not url.database:
        return None
    if url.database == ":memory:" or url.database.startswith("file:"):
        return None
    path = Path(url.database)
    return path if not path.exists() and path.parent.is_dir() else None


_MIGRATED_TEMPLATE = pytest.StashKey[MigratedTemplate]()


@pytest.fixture(scope="session")
def migrated_template(
    pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory
) -> MigratedTemplate:
    """The process's one template. pytest makes a fixture of its own of this one in each conftest
    that imports it (four do), and each migrated a template of its own: one a process, kept on
    the run's config."""
    if _MIGRATED_TEMPLATE not in pytestconfig.stash:
        pytestconfig.stash[_MIGRATED_TEMPLATE] = MigratedTemplate(tmp_path_factory.mktemp("migrated"))
    return pytestconfig.stash[_MIGRATED_TEMPLATE]


@pytest.fixture(autouse=True)
def migrated_files(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, migrated_template: MigratedTemplate
) -> None:
    """Have this test's new SQLite files copied from the template, and its new PostgreSQL schemas
    given the recorded migration, instead of migrated anew (an autouse fixture where a conftest
    imports it)."""
    if request.node.get_closest_marker("durable"):
        return

    def migrate(database: Database, revision: str = "head") -> SchemaState:
        return migrated_template.migrate(database, revision)

    monkeypatch.setattr(Database, "migrate", migrate)
    monkeypatch.setattr(database_module, "upgrade", RECORDED_MIGRATION.upgrade)
