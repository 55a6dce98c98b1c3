"""Service fixtures: every `database` test runs on SQLite and on real PostgreSQL.

Each test's database holds the test supervisor and dealer. They are made once a run (PIN hashing
is slow on purpose) in a database built through the migrations: on SQLite that file is copied per
test; on PostgreSQL each test's fresh schema is migrated, then given the same account rows.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "storage"))
sys.path.insert(0, str(Path(__file__).parent))

from ofc_test_databases import database_url, fresh_schema, postgres_url  # noqa: F401
from sqlalchemy import Connection
from sqlalchemy.engine import make_url
from table_helpers import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN

from ofc_desk.storage import append_only
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


@pytest.fixture(scope="session")
def postgres_accounts(postgres_url: str | None) -> Iterator[str | None]:  # noqa: F811
    """The schema holding the accounts on the PostgreSQL server; None without a server."""
    if postgres_url is None:
        yield None
        return
    with fresh_schema(postgres_url, durable=False) as url:
        _with_accounts(Database(url)).dispose()
        yield str(make_url(url).query["options"]).split("search_path=", 1)[1].split()[0]


def _copy_accounts(connection: Connection, source: str) -> None:
    """The accounts chain of `source` in place of the one this schema's migration began (its
    mark of when sign-offs started): as the owner of the database, who alone may lift the
    append-only trigger to do so."""
    append_only.remove(connection, ("account_events",))
    connection.exec_driver_sql("DELETE FROM account_events")
    append_only.install(connection, ("account_events",))
    for table in ("account_events", "users"):  # the chain first: a user row follows it
        connection.exec_driver_sql(f'INSERT INTO {table} SELECT * FROM "{source}".{table}')
    connection.exec_driver_sql("SELECT setval(pg_get_serial_sequence('users', 'id'), max(id)) FROM users")


@pytest.fixture
def database(
    database_url: str,  # noqa: F811 (the imported fixture)
    sqlite_with_accounts: Path,
    postgres_accounts: str | None,
) -> Iterator[Database]:
    if database_url.startswith("sqlite"):
        shutil.copyfile(sqlite_with_accounts, str(make_url(database_url).database))
        db = Database(database_url)
    else:
        db = Database(database_url)
        with db.engine.begin() as connection:
            _copy_accounts(connection, str(postgres_accounts))
    yield db
    db.dispose()
