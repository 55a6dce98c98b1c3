"""Floor fixtures: the storage tests' databases (a fresh SQLite file, or a fresh schema on the real
PostgreSQL server, per test) and the card room's replay scripts."""

from __future__ import annotations

from tests.helpers.ofc_test_databases import backend, database_url, postgres_url  # noqa: F401
