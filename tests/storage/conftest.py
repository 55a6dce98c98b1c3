"""Storage fixtures: `database_url` runs a test on SQLite and on PostgreSQL."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from ofc_test_databases import backend, database_url, postgres_url  # noqa: F401
