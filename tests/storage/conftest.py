"""Storage fixtures: `database_url` runs a test on SQLite and on PostgreSQL; `migrated_database_url`
is one as the migrations leave it, for a test that begins by opening it. The SQLite engines share
their compiled statements, and the PostgreSQL engines of a URL an earlier engine connected to (a
pooled schema's) that engine's (tests/helpers/shared_compilations.py); every new file is migrated
anew here, the migrations being this layer's own to test, but `migrated_database_url`'s, a copy of
the file migrated once a process (tests/helpers/migrated_files.py), for tests that only open one."""

from tests.helpers.migrated_files import migrated_template  # noqa: F401 (migrated_database_url's)
from tests.helpers.ofc_test_databases import backend, database_url, postgres_url  # noqa: F401
from tests.helpers.pooled_schemas import migrated_database_url, room_schemas  # noqa: F401
from tests.helpers.shared_compilations import (  # noqa: F401 (fixtures)
    postgres_engines_share_compilations,
    shared_dialect,
    sqlite_engines_share_compilations,
)
