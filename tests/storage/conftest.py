"""Storage fixtures: `database_url` runs a test on SQLite and on PostgreSQL; `migrated_database_url`
is one as the migrations leave it, for a test that begins by opening it."""

from tests.helpers.ofc_test_databases import backend, database_url, postgres_url  # noqa: F401
from tests.helpers.pooled_schemas import migrated_database_url, room_schemas  # noqa: F401
