"""Storage fixtures: `database_url` runs a test on SQLite and on PostgreSQL."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from ofc_test_databases import BACKENDS, fresh_schema, postgres_server, sqlite_url


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
