"""`Database`: one place that turns a URL into a migrated, durable SQLAlchemy engine.

Default: a SQLite file in the user's data folder, in WAL mode with `synchronous=FULL` so a commit
survives a power cut; foreign keys on. Any SQLAlchemy URL works, e.g. `postgresql+psycopg://…`.
Each call opens its own short session (`with database.session() as s:`) and hands plain or
detached objects out, so nothing holds a connection between a dealer's actions.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

APP_NAME = "ofc-desk"
DEFAULT_FILE = "ofc-desk.db"
MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATION_LOCK = 0x0FC0DE5C


def default_url() -> str:
    """The SQLite file in the user's data folder (created on first use)."""
    folder = Path(platformdirs.user_data_dir(APP_NAME))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / DEFAULT_FILE}"


class Database:
    def __init__(self, url: str | None = None, *, migrate: bool = True) -> None:
        self.url = url or default_url()
        self.engine: Engine = _create_engine(self.url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        if migrate:
            self.migrate()

    def migrate(self) -> None:
        """Bring the schema to the newest migration (safe to run on every start)."""
        config = _alembic_config()
        with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # Two desks starting together on a new card-room database: one migrates at a time.
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def schema_is_current(self) -> bool | None:
        """True at the newest migration, False at an older one, None when the database holds no
        OFC Desk schema at all: what a command that only reads checks instead of migrating."""
        with self.engine.connect() as connection:
            stored = MigrationContext.configure(connection).get_current_revision()
        if stored is None:
            return None
        return stored == ScriptDirectory.from_config(_alembic_config()).get_current_head()

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A short session; commit explicitly, anything else is rolled back on exit."""
        with self._sessions() as session:
            yield session

    def dispose(self) -> None:
        self.engine.dispose()


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def _create_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"timeout": 30})
    event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()
