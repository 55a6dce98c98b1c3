"""Card-room fixtures on the real PostgreSQL server (these tests are about PostgreSQL's roles,
grants and many writers, so they have no SQLite run): a fresh schema not yet migrated
(`room_url`, for the tests of migrating or upgrading one), or one as the migrations leave it
(`migrated_room_url`: reused between the tests of this process, tests/helpers/pooled_schemas.py).

The engines of a URL an earlier engine connected to (a pooled schema's, handed from test to test)
share its dialect and compiled statements, and the SQLite engines theirs
(tests/helpers/shared_compilations.py): each `Database` compiled every statement afresh, a sixth of
the PostgreSQL fault tests' CPU. A fixture that only needs a new SQLite file as the migrations
leave it copies the process's (`migrated_template`, tests/helpers/migrated_files.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ofc_desk.storage.roles import RoomRoles
from tests.helpers.migrated_files import migrated_template  # noqa: F401 (a fixture)
from tests.helpers.ofc_test_databases import fresh_schema, is_durable, needs_server, postgres_url  # noqa: F401
from tests.helpers.pooled_schemas import RoomSchemaPool, migrated_schema, room_schemas  # noqa: F401
from tests.helpers.room_logins import own_roles
from tests.helpers.shared_compilations import (  # noqa: F401 (fixtures)
    postgres_engines_share_compilations,
    shared_dialect,
    sqlite_engines_share_compilations,
)


@pytest.fixture
def room_url(request: pytest.FixtureRequest, postgres_url: str | None) -> Iterator[str]:  # noqa: F811
    """The owner's URL of a fresh card-room schema (not yet migrated); its commits wait for the
    disk only in a test marked `durable` (tests/conftest.py)."""
    with fresh_schema(needs_server(postgres_url), durable=is_durable(request)) as url:
        yield url


@pytest.fixture
def migrated_room_url(
    request: pytest.FixtureRequest,
    postgres_url: str | None,  # noqa: F811
    room_schemas: RoomSchemaPool | None,  # noqa: F811
) -> Iterator[str]:
    """The owner's URL of a card-room schema as the migrations leave it (their rows, no grant,
    no role's policy): one an earlier test gave back and the pool reset, or, in a durable test
    or without a pool, a fresh one migrated for the test."""
    with migrated_schema(request, postgres_url, room_schemas) as url:
        yield url


@pytest.fixture
def roles(postgres_url: str | None) -> Iterator[RoomRoles]:  # noqa: F811
    """The room's two roles under names of the test's own (roles are cluster-wide), dropped
    afterwards with every grant they hold in this process's database."""
    with own_roles(needs_server(postgres_url)) as names:
        yield names
