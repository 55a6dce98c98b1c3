"""Floor fixtures: the storage tests' databases (a fresh SQLite file, or a fresh schema on the real
PostgreSQL server, per test) and the card room's replay scripts."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "storage"))
sys.path.insert(0, str(Path(__file__).parents[1] / "room"))
sys.path.insert(0, str(Path(__file__).parent))

from ofc_test_databases import backend, database_url, postgres_url  # noqa: F401
