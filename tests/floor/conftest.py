"""Floor fixtures: the storage tests' databases (a fresh SQLite file, or a fresh schema on the real
PostgreSQL server, per test; `migrated_database_url` one as the migrations leave it, for a test
that begins by opening it), rooms of replayed tables copied for each test (`played_room`), the card
room's replay scripts, and English set back after a test in another language. A new SQLite file is
a copy of one the migrations built once a process (tests/helpers/migrated_files.py), and the SQLite
engines share their compiled statements, as the PostgreSQL engines of a URL an earlier engine
connected to (a pooled schema's) share that engine's (tests/helpers/shared_compilations.py): the
floor reads rooms, the migrations are tests/storage's."""

from __future__ import annotations

from tests.helpers.migrated_files import migrated_files, migrated_template  # noqa: F401 (fixtures)
from tests.helpers.ofc_test_databases import backend, database_url, postgres_url  # noqa: F401
from tests.helpers.played_rooms import played_room, played_rooms  # noqa: F401 (fixtures)
from tests.helpers.pooled_schemas import migrated_database_url, room_schemas  # noqa: F401
from tests.helpers.qt_languages import english_after  # noqa: F401
from tests.helpers.shared_compilations import (  # noqa: F401 (fixtures)
    postgres_engines_share_compilations,
    shared_dialect,
    sqlite_engines_share_compilations,
)
