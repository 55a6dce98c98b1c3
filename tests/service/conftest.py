"""Service fixtures: every `database` test runs on SQLite and on real PostgreSQL."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "storage"))
sys.path.insert(0, str(Path(__file__).parent))

from ofc_test_databases import database_url, postgres_url  # noqa: F401
from table_helpers import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN

from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, create_user


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:  # noqa: F811 (the imported fixture)
    db = Database(database_url)
    supervisor = create_user(db, SUPERVISOR, Role.SUPERVISOR, SUPERVISOR_PIN)
    create_user(db, DEALER, Role.DEALER, DEALER_PIN, approver=supervisor)
    yield db
    db.dispose()
