"""Service fixtures: every `database` test runs on SQLite and on real PostgreSQL.

Each test's database holds the test supervisor and dealer. On SQLite they are made once a run (PIN
hashing is slow on purpose) in a file built through the migrations, copied per test; on
PostgreSQL each test's fresh schema is migrated and given them afresh.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "storage"))
sys.path.insert(0, str(Path(__file__).parent))

from ofc_test_databases import database_url, postgres_url  # noqa: F401
from sqlalchemy.engine import make_url
from table_helpers import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN

from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, create_user


def _with_accounts(database: Database) -> Database:
    supervisor = create_user(database, SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN)
    create_user(database, DEALER, Role.DEALER, DEALER_PIN, approver=supervisor)
    return database


@pytest.fixture(scope="session")
def sqlite_with_accounts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("accounts") / "desk.db"
    _with_accounts(Database(f"sqlite:///{path}")).dispose()
    return path


@pytest.fixture
def database(
    database_url: str,  # noqa: F811 (the imported fixture)
    sqlite_with_accounts: Path,
) -> Iterator[Database]:
    if database_url.startswith("sqlite"):
        shutil.copyfile(sqlite_with_accounts, str(make_url(database_url).database))
        db = Database(database_url)
    else:
        db = _with_accounts(Database(database_url))
    yield db
    db.dispose()
