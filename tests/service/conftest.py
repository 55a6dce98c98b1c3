"""Service fixtures: every `database` test runs on SQLite and on real PostgreSQL.

Each test's database holds the test supervisor and dealer. They are made once a run (PIN hashing
is slow on purpose) in a database built through the migrations, and each test gets a copy of it:
on SQLite a copy of the file, on PostgreSQL a database made with that one as its template. A
module whose tests all start from the same history builds it once the same way, on a copy of that
database, and each of its tests gets a copy of the result (`database_copy(build)`).
"""

from __future__ import annotations

import shutil
import sys
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "storage"))
sys.path.insert(0, str(Path(__file__).parent))

from ofc_test_databases import (  # noqa: F401 (backend, database_url and postgres_url are fixtures)
    backend,
    copy_of_database,
    create_database,
    database_url,
    drop_database,
    is_durable,
    needs_server,
    on_database,
    postgres_url,
    sqlite_url,
)
from table_helpers import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN, Build, DatabaseCopy

from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, create_user


def _with_accounts(database: Database) -> None:
    supervisor = create_user(database, SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN)
    create_user(database, DEALER, Role.DEALER, DEALER_PIN, approver=supervisor)


class Templates:
    """This test process's databases to copy: the one with the two accounts, built through the
    migrations, and one per `Build` made from a copy of it; each made on the first test to ask."""

    def __init__(self, folder: Path, server_url: str | None) -> None:
        self.folder, self.server_url = folder, server_url
        self._files: dict[Build | None, Path] = {}
        self._databases: dict[Build | None, str] = {}
        self._made: list[str] = []

    def sqlite(self, build: Build | None) -> Path:
        if build not in self._files:
            source = None if build is None else self.sqlite(None)
            path = self.folder / f"template-{len(self._files)}.db"
            if source is not None:
                shutil.copyfile(source, path)
            _fill(f"sqlite:///{path}", build)
            self._files[build] = path
        return self._files[build]

    def postgres(self, server_url: str, build: Build | None) -> str:
        if build not in self._databases:
            # template0: nobody connects to it, so CREATE DATABASE never finds it in use.
            source = "template0" if build is None else self.postgres(server_url, None)
            name = f"ofc_test_template_{uuid.uuid4().hex[:12]}"
            create_database(server_url, name, source)
            self._made.append(name)
            _fill(on_database(server_url, name, durable=False), build)
            self._databases[build] = name
        return self._databases[build]

    def drop(self) -> None:
        if self.server_url is not None:
            for name in self._made:
                drop_database(self.server_url, name)


def _fill(url: str, build: Build | None) -> None:
    """The accounts (through the migrations, on an empty database), or `build` on their copy."""
    database = Database(url)
    try:
        (build or _with_accounts)(database)
    finally:
        database.dispose()


@pytest.fixture(scope="session")
def templates(tmp_path_factory: pytest.TempPathFactory, postgres_url: str | None) -> Iterator[Templates]:  # noqa: F811
    made = Templates(tmp_path_factory.mktemp("templates"), postgres_url)
    yield made
    made.drop()


@pytest.fixture
def database_copy(
    backend: str,  # noqa: F811 (the imported fixture)
    request: pytest.FixtureRequest,
    tmp_path: Path,
    templates: Templates,
    postgres_url: str | None,  # noqa: F811
) -> Iterator[DatabaseCopy]:
    """`database_copy(build)`: this test's database, a copy of the accounts' database after
    `build` (None: as the migrations and the accounts left it); closed and dropped afterwards."""
    server_url = needs_server(postgres_url) if backend == "postgresql" else None
    durable = is_durable(request)
    with ExitStack() as cleanup:

        def copy(build: Build | None) -> Database:
            if server_url is None:
                shutil.copyfile(templates.sqlite(build), tmp_path / "desk.db")
                url = sqlite_url(tmp_path)
            else:
                template = templates.postgres(server_url, build)
                url = cleanup.enter_context(copy_of_database(server_url, template, durable=durable))
            database = Database(url)  # what every start does: the migration check included
            cleanup.callback(database.dispose)
            return database

        yield copy


@pytest.fixture
def database(request: pytest.FixtureRequest, database_copy: DatabaseCopy) -> Database:
    # `database_url` is a place of its own (a fresh schema), not this copy.
    assert "database_url" not in request.fixturenames, "a test given `database` reads its URL as database.url"
    return database_copy(None)
