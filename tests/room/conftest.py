"""Card-room fixtures: a fresh schema on the real PostgreSQL server per test (these tests are
about PostgreSQL's roles, grants and many writers, so they have no SQLite run)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest

from ofc_desk.storage.roles import RoomRoles
from tests.helpers.ofc_test_databases import fresh_schema, is_durable, needs_server, postgres_url  # noqa: F401
from tests.helpers.room_logins import libpq


@pytest.fixture
def room_url(request: pytest.FixtureRequest, postgres_url: str | None) -> Iterator[str]:  # noqa: F811
    """The owner's URL of a fresh card-room schema (not yet migrated); its commits wait for the
    disk only in a test marked `durable` (tests/conftest.py)."""
    with fresh_schema(needs_server(postgres_url), durable=is_durable(request)) as url:
        yield url


@pytest.fixture
def roles(room_url: str) -> Iterator[RoomRoles]:
    """The room's two roles under names of the test's own (roles are cluster-wide), dropped
    afterwards."""
    unique = f"ofc_test_{uuid.uuid4().hex[:10]}"
    names = RoomRoles(f"{unique}_table", f"{unique}_floor")
    yield names
    with psycopg.connect(libpq(room_url), autocommit=True) as connection:
        for name in (names.table, names.floor):
            if connection.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (name,)).fetchone():
                connection.execute(f"DROP OWNED BY {name}")
                connection.execute(f"DROP ROLE {name}")
