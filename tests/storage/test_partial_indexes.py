"""The models' partial indexes (one open session per table, a name's PIN checks) say their WHERE
in the terms of the database opened, and only then: naming `postgresql_where` at import made every
desk on SQLite load SQLAlchemy's PostgreSQL dialect (issue 39: ready to type)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sqlalchemy import Index

from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Base
from tests.helpers.migrated_files import MigratedTemplate

PARTIAL: dict[str, str] = {
    "uq_table_sessions_open_table": "closed_at IS NULL",
    "ix_sign_in_checks": "outcome <> 'waiting'",
}
"""Each partial index and its WHERE, as the migrations (0003, 0008) made them."""


def partial_indexes() -> dict[str, Index]:
    tables = Base.metadata.tables
    indexes = [*tables["table_sessions"].indexes, *tables["sign_in_attempts"].indexes]
    return {index.name: index for index in indexes if index.name in PARTIAL}


def test_each_database_gives_the_partial_indexes_its_where(migrated_database_url: str) -> None:
    """On a database as the migrations leave it (what the indexes say is the models', not the
    migrations')."""
    database = Database(migrated_database_url)
    try:
        dialect = database.engine.dialect.name
        wheres = {
            name: str(index.dialect_options[dialect]["where"]) for name, index in partial_indexes().items()
        }
    finally:
        database.dispose()
    assert wheres == PARTIAL


def test_a_desk_on_sqlite_loads_no_postgresql_dialect(
    tmp_path: Path, migrated_template: MigratedTemplate
) -> None:
    """A desk's database already at the newest migration (the migrations' own indexes name both):
    a copy of the process's migrated file."""
    migrated_template.copy(tmp_path / "desk.db")
    url = f"sqlite:///{tmp_path / 'desk.db'}"
    probe = (
        "import sys\n"
        "from ofc_desk.storage.database import Database\n"
        "from ofc_desk.storage.models import TableSession\n"
        f"database = Database({url!r})\n"
        "index = next(i for i in TableSession.__table__.indexes if i.name.startswith('uq_'))\n"
        "print(index.dialect_options['sqlite']['where'])\n"
        "print(sorted(name for name in sys.modules if name.startswith('sqlalchemy.dialects.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    where, dialects = done.stdout.splitlines()
    assert where == "closed_at IS NULL"
    assert "'sqlalchemy.dialects.sqlite'" in dialects
    assert "postgresql" not in dialects


def test_models_loaded_after_a_database_opened_get_its_where(
    tmp_path: Path, migrated_template: MigratedTemplate
) -> None:
    """Opening a database loads neither SQLAlchemy's ORM nor the models (a floor's first listing
    reads without them, issue 39); models loaded afterwards still get that database's WHERE. The
    database is a copy of the process's migrated file, at the newest migration as a desk's is."""
    migrated_template.copy(tmp_path / "desk.db")
    url = f"sqlite:///{tmp_path / 'desk.db'}"
    probe = (
        "import sys\n"
        "from ofc_desk.storage.database import Database\n"
        f"database = Database({url!r})\n"
        "loaded = [name for name in ('sqlalchemy.orm', 'ofc_desk.storage.models') if name in sys.modules]\n"
        "print(loaded)\n"
        "from ofc_desk.storage.models import TableSession\n"
        "index = next(i for i in TableSession.__table__.indexes if i.name.startswith('uq_'))\n"
        "print(index.dialect_options['sqlite']['where'])\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded, where = done.stdout.splitlines()
    assert loaded == "[]"
    assert where == "closed_at IS NULL"
