"""Floor fixtures: the storage tests' databases (a fresh SQLite file, or a fresh schema on the real
PostgreSQL server, per test; `migrated_database_url` one as the migrations leave it, for a test
that begins by opening it), the card room's replay scripts, and English set back after a test in
another language."""

from __future__ import annotations

from tests.helpers.ofc_test_databases import backend, database_url, postgres_url  # noqa: F401
from tests.helpers.pooled_schemas import migrated_database_url, room_schemas  # noqa: F401
from tests.helpers.qt_languages import english_after  # noqa: F401
