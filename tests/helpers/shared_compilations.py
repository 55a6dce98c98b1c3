"""The SQLite engines a test process makes share one dialect and one cache of compiled statements.

SQLAlchemy keeps the statements it has compiled in a cache of each engine, keyed by the engine's
dialect object, and every `Database` makes its own engine: a test's engine compiled afresh each
statement the tests before it had compiled already (about a fifth of a service test's CPU). Every
new SQLite engine here takes, from its making, the dialect of the first SQLite engine of the
process once that one has connected (and so read what the SQLite library supports), and that
engine's cache: the same SQL, compiled once a process. Each engine keeps its own pool and its
own connection set-up (WAL, `synchronous`, foreign keys), and runs every statement as before.
PostgreSQL engines are left as they are (a dialect there reads its server and schema).
"""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy
from sqlalchemy import Engine, event
from sqlalchemy.engine import Dialect

from ofc_desk.storage import connections

COMPILED_STATEMENTS_KEPT = 5000
"""The shared cache's size: every test's statements, where an engine keeps SQLAlchemy's 500."""


class SharedDialect:
    """The first SQLite engine's dialect and compiled statements, once it has connected."""

    def __init__(self) -> None:
        self.dialect: Dialect | None = None
        self.cache: Any = None

    def create_engine(self, url: Any, **options: Any) -> Engine:
        engine = sqlalchemy.create_engine(url, **options)
        if engine.dialect.name != "sqlite":
            return engine
        if self.dialect is None:
            event.listen(engine.pool, "connect", lambda *_: self._adopt(engine), once=True)
        elif type(self.dialect) is type(engine.dialect):
            engine.dialect, engine._compiled_cache = self.dialect, self.cache
        return engine

    def _adopt(self, engine: Engine) -> None:
        """Called after SQLAlchemy's own first-connection set-up, which initialises the dialect."""
        if self.dialect is None:
            engine._compiled_cache = sqlalchemy.util.LRUCache(COMPILED_STATEMENTS_KEPT)
            self.dialect, self.cache = engine.dialect, engine._compiled_cache


@pytest.fixture(scope="session")
def shared_dialect() -> SharedDialect:
    return SharedDialect()


@pytest.fixture(autouse=True)
def sqlite_engines_share_compilations(monkeypatch: pytest.MonkeyPatch, shared_dialect: SharedDialect) -> None:
    """Have this test's SQLite engines share the process's dialect and compiled statements (an
    autouse fixture where a conftest imports it)."""
    monkeypatch.setattr(connections, "create_engine", shared_dialect.create_engine)
