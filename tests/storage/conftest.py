"""Storage fixtures: `database_url` runs a test on SQLite and on PostgreSQL."""

from tests.helpers.ofc_test_databases import backend, database_url, postgres_url  # noqa: F401
