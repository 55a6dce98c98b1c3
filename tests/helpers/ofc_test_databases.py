"""Test databases for storage and service tests: a fresh SQLite file, or a fresh schema on a real
PostgreSQL server, per test. The schemas are made in a database of the test process's own
(`postgres_url`), dropped at the end of the run.

PostgreSQL: `OFC_DESK_TEST_POSTGRES_URL` if set, else postgresql+psycopg://postgres@127.0.0.1:5432/test;
if neither answers, a throw-away server from the installed binaries (initdb + pg_ctl in a temp dir
on a free loopback port), stopped at the end. Without binaries the PostgreSQL runs are skipped,
saying why.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from sqlalchemy.engine import make_url

DEFAULT_POSTGRES_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def _answers(url: str) -> bool:
    try:
        with psycopg.connect(_libpq(url), connect_timeout=3):
            return True
    except psycopg.Error:
        return False


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def throwaway_server() -> Iterator[str | None]:
    """A private PostgreSQL server from the installed binaries, or None with nothing installed."""
    binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not binaries or not os.path.exists(os.path.join(binaries[-1], "initdb")):
        yield None
        return
    bin_dir, port = binaries[-1], _free_port()
    folder = tempfile.mkdtemp(prefix="ofc-desk-pg-")
    prefix: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        owner = pwd.getpwnam("postgres")
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    data = os.path.join(folder, "data")

    def run(*args: str) -> None:
        subprocess.run(prefix + list(args), check=True, capture_output=True, timeout=120)

    run(f"{bin_dir}/initdb", "-D", data, "-U", "postgres", "--auth=trust")
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder}"
    run(f"{bin_dir}/pg_ctl", "-D", data, "-o", options, "-w", "start", "-l", f"{folder}/log")
    try:
        url = f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
        yield url
    finally:
        run(f"{bin_dir}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def postgres_server() -> Iterator[str | None]:
    """The URL of a PostgreSQL server the tests may use, or None (skip)."""
    configured = os.environ.get("OFC_DESK_TEST_POSTGRES_URL")
    for url in filter(None, [configured, DEFAULT_POSTGRES_URL]):
        if _answers(url):
            yield url
            return
    with throwaway_server() as started:
        yield started


@contextmanager
def fresh_schema(server_url: str, *, durable: bool = True) -> Iterator[str]:
    """A new schema on the server (`new_schema`), dropped afterwards."""
    url = new_schema(server_url, durable=durable)
    try:
        yield url
    finally:
        drop_schema(url)


def new_schema(server_url: str, *, durable: bool = True) -> str:
    """A new schema on the server; the URL points every connection's search_path at it. Not
    `durable`: commits return before the server's log reaches the disk (as SQLite's
    `synchronous=OFF` in tests/conftest.py). The URL names `synchronous_commit` only where the
    database's default is not the one wanted (`own_database` makes it off)."""
    schema = f"ofc_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(_libpq(server_url), autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
        default = connection.execute("SHOW synchronous_commit").fetchone()
    wanted = "on" if durable else "off"
    separator = "&" if "?" in server_url else "?"
    options = f"-csearch_path={schema}"
    if default is None or default[0] != wanted:
        options += f" -csynchronous_commit={wanted}"
    return f"{server_url}{separator}options={quote(options)}"


def drop_schema(url: str) -> None:
    """Drop the schema a `new_schema` URL works in, and all it holds, if it is still there."""
    schema = str(make_url(url).query["options"]).split("search_path=", 1)[1].split()[0]
    server_url = make_url(url).difference_update_query(["options"]).render_as_string(hide_password=False)
    with psycopg.connect(_libpq(server_url), autocommit=True) as connection:
        connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def dropped_with_the_run(url: str) -> bool:
    """Whether the URL's database is one `own_database` made, which the run's end drops whole
    (with every schema in it: dropping them one by one first is work for nothing)."""
    return make_url(url).database in _OWN_DATABASES


def sqlite_path(folder: Path) -> Path:
    """The SQLite file of a test's `database_url`, in its folder."""
    return folder / "desk.db"


def sqlite_url(folder: Path) -> str:
    return f"sqlite:///{sqlite_path(folder)}"


_OWN_DATABASES: set[str] = set()
"""The databases `own_database` made in this process and has not dropped yet."""


@contextmanager
def own_database(server_url: str) -> Iterator[str]:
    """A new database on the server for one test process, where commits do not wait for the disk
    unless a connection asks (`fresh_schema`); dropped afterwards. Its own database keeps the
    process's migrations off the lock that every migration of a database takes (the other
    workers' and other runs' in the shared one), and the floor tests' cut connections off theirs.
    A server that will not let this user create databases is used as it is."""
    name = f"ofc_test_run_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(_libpq(server_url), autocommit=True) as connection:
        try:
            connection.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        except psycopg.errors.InsufficientPrivilege:
            yield server_url
            return
        connection.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    _OWN_DATABASES.add(name)
    try:
        yield make_url(server_url).set(database=name).render_as_string(hide_password=False)
    finally:
        _OWN_DATABASES.discard(name)
        with psycopg.connect(_libpq(server_url), autocommit=True) as connection:
            connection.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


_OWN_DATABASE = pytest.StashKey[str | None]()


@pytest.fixture(scope="session")
def postgres_url(pytestconfig: pytest.Config) -> str | None:
    """This test process's own database on the PostgreSQL server (`own_database`), or None: one a
    process, dropped when pytest ends. pytest makes a fixture of its own of this one in each
    conftest that imports it (five do), and each made and dropped a database of its own, whose
    DROP DATABASE waits for a checkpoint of the whole server."""
    if _OWN_DATABASE not in pytestconfig.stash:
        made = ExitStack()
        pytestconfig.add_cleanup(made.close)
        server_url = made.enter_context(postgres_server())
        own = None if server_url is None else made.enter_context(own_database(server_url))
        pytestconfig.stash[_OWN_DATABASE] = own
    return pytestconfig.stash[_OWN_DATABASE]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Which database a test runs on: each test using it, or a fixture that does, runs on both."""
    return str(request.param)


def needs_server(postgres_url: str | None) -> str:
    if postgres_url is None:
        pytest.skip("no PostgreSQL server answers and no PostgreSQL binaries are installed")
    return postgres_url


def is_durable(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("durable") is not None


@pytest.fixture
def database_url(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, postgres_url: str | None
) -> Iterator[str]:
    """A fresh SQLite file, or a fresh schema on the PostgreSQL server, for one test."""
    if backend == "sqlite":
        yield sqlite_url(tmp_path)
        return
    with fresh_schema(needs_server(postgres_url), durable=is_durable(request)) as url:
        yield url
