"""The engines a test process makes share dialects and caches of compiled statements.

SQLAlchemy keeps the statements it has compiled in a cache of each engine, keyed by the engine's
dialect object, and every `Database` makes its own engine: a test's engine compiled afresh each
statement the tests before it had compiled already (about a fifth of a service test's CPU). Every
new SQLite engine here takes, from its making, the dialect of the first SQLite engine of the
process once that one has connected (and so read what the SQLite library supports), and that
engine's cache: the same SQL, compiled once a process. Each engine keeps its own pool and its
own connection set-up (WAL, `synchronous`, foreign keys), and runs every statement as before.

Where a conftest also takes `postgres_engines_share_compilations`, a PostgreSQL engine made for a
URL an earlier engine connected to (a pooled schema's, handed to one test after another) takes
that engine's dialect, which read that server and schema when it connected, and its cache: it
neither reads them again on its first connection nor compiles again what the earlier engines
compiled. It keeps its own pool, and its connections are set up as that dialect's are (libpq's
timeouts included). A dialect event one engine listens for is then every later engine's of its
URL (the product listens for one, the same function for each engine).
"""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy
from sqlalchemy import Engine, event
from sqlalchemy.engine import Dialect, make_url

from ofc_desk.storage import connections

COMPILED_STATEMENTS_KEPT = 5000
"""The shared cache's size: every test's statements, where an engine keeps SQLAlchemy's 500."""
POSTGRES_URLS_KEPT = 8
"""The PostgreSQL URLs whose dialects are kept: a pool hands out a few schemas again and again;
a fresh schema's URL is not seen after its test."""


class SharedPostgresDialect:
    """The dialect and compiled statements of the first engine that connected to one URL, with
    the options the engines for it are made with."""

    def __init__(self, engine: Engine, options: dict[str, Any]) -> None:
        engine._compiled_cache = sqlalchemy.util.LRUCache(COMPILED_STATEMENTS_KEPT)
        self.dialect, self.cache, self.options = engine.dialect, engine._compiled_cache, options

    def engine(self, url: str) -> Engine:
        """A new engine for the URL with this dialect: no first-connection reading of the server
        (`_initialize=False`); the connection set-up SQLAlchemy would give it, given here."""
        engine = sqlalchemy.create_engine(url, _initialize=False, **self.options)
        own = engine.dialect  # the one its pool's connect function dispatches `do_connect` to
        event.listen(own, "do_connect", self._connect_as_shared)
        set_up = self.dialect.on_connect_url(engine.url)
        if set_up is not None:
            event.listen(engine.pool, "connect", lambda dbapi_connection, _record: set_up(dbapi_connection))
        isolation = self.dialect._builtin_onconnect()
        if isolation is not None:
            event.listen(engine.pool, "connect", isolation)
        engine.dialect, engine.pool._dialect, engine._compiled_cache = self.dialect, self.dialect, self.cache
        return engine

    def _connect_as_shared(
        self, _own: Dialect, record: Any, cargs: list[Any], cparams: dict[str, Any]
    ) -> Any:
        """The shared dialect's `do_connect` listeners (libpq's timeouts), as for its own engine,
        each once: every engine made for the URL listens with the same function again, on this
        dialect (a run's hundredth engine called it a hundred times a connection)."""
        for listener in dict.fromkeys(self.dialect.dispatch.do_connect):
            made = listener(self.dialect, record, cargs, cparams)
            if made is not None:
                return made
        return None


class SharedDialect:
    """The first SQLite engine's dialect and compiled statements, once it has connected; and,
    while `postgres` is set, each recent PostgreSQL URL's."""

    def __init__(self) -> None:
        self.dialect: Dialect | None = None
        self.cache: Any = None
        self.postgres = False
        self._postgres: Any = sqlalchemy.util.LRUCache(POSTGRES_URLS_KEPT)

    def create_engine(self, url: Any, **options: Any) -> Engine:
        if self.postgres and make_url(url).get_backend_name() == "postgresql":
            return self._postgres_engine(str(url), options)
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

    def _postgres_engine(self, url: str, options: dict[str, Any]) -> Engine:
        shared = self._postgres.get(url)
        if shared is not None and shared.options == options:
            return shared.engine(url)  # type: ignore[no-any-return]
        engine = sqlalchemy.create_engine(url, **options)

        def adopt(*_: Any) -> None:  # after SQLAlchemy's first-connection set-up
            self._postgres[url] = SharedPostgresDialect(engine, dict(options))

        event.listen(engine.pool, "connect", adopt, once=True)
        return engine


_SHARED_DIALECT = pytest.StashKey[SharedDialect]()


@pytest.fixture(scope="session")
def shared_dialect(pytestconfig: pytest.Config) -> SharedDialect:
    """The process's one `SharedDialect`. pytest makes a fixture of its own of this one in each
    conftest that imports it (six do), and each compiled again every statement the folders run
    before it had compiled: one a process, kept on the run's config."""
    if _SHARED_DIALECT not in pytestconfig.stash:
        pytestconfig.stash[_SHARED_DIALECT] = SharedDialect()
    return pytestconfig.stash[_SHARED_DIALECT]


@pytest.fixture(autouse=True)
def sqlite_engines_share_compilations(monkeypatch: pytest.MonkeyPatch, shared_dialect: SharedDialect) -> None:
    """Have this test's SQLite engines share the process's dialect and compiled statements (an
    autouse fixture where a conftest imports it)."""
    monkeypatch.setattr(connections, "create_engine", shared_dialect.create_engine)


@pytest.fixture(autouse=True)
def postgres_engines_share_compilations(
    monkeypatch: pytest.MonkeyPatch, shared_dialect: SharedDialect, sqlite_engines_share_compilations: None
) -> None:
    """Have this test's PostgreSQL engines share a dialect and compiled statements with the
    earlier engines for the same URL (an autouse fixture where a conftest imports it)."""
    monkeypatch.setattr(shared_dialect, "postgres", True)
