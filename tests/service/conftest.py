"""Service fixtures: every `database` test runs on SQLite and on real PostgreSQL."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "storage"))
sys.path.insert(0, str(Path(__file__).parent))

from ofc_test_databases import BACKENDS, fresh_schema, postgres_server, sqlite_url
from table_helpers import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN

from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, create_user


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str | None]:
    with postgres_server() as url:
        yield url


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path, postgres_url: str | None) -> Iterator[str]:
    if request.param == "sqlite":
        yield sqlite_url(tmp_path)
        return
    if postgres_url is None:
        pytest.skip("no PostgreSQL server answers and no PostgreSQL binaries are installed")
    with fresh_schema(postgres_url) as url:
        yield url


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    db = Database(database_url)
    create_user(db, SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN)
    create_user(db, DEALER, Role.DEALER, DEALER_PIN)
    yield db
    db.dispose()
