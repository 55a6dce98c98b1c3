"""A throw-away PostgreSQL server a test may stop, start and cut connections on: `initdb` and
`pg_ctl` from the installed binaries, in a temp folder, on a free loopback port (as the `postgres`
user when run as root, since initdb refuses root). Never the shared server. The benchmark of a
desk's reconnect time (benchmarks/reconnect_bench.py) uses it too."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

NO_BINARIES = "no PostgreSQL binaries are installed (/usr/lib/postgresql/*/bin/initdb)"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def binaries() -> str | None:
    """The newest installed PostgreSQL's bin folder, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    return found[-1] if found and os.path.exists(os.path.join(found[-1], "initdb")) else None


class StoppableServer:
    """One private server: `url` answers while it runs."""

    def __init__(self, bin_dir: str) -> None:
        self.bin_dir = bin_dir
        self.port = _free_port()
        self.folder = tempfile.mkdtemp(prefix="ofc-desk-faults-pg-")
        self._prefix: list[str] = []
        if os.geteuid() == 0:  # initdb refuses to run as root
            owner = pwd.getpwnam("postgres")
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
            self._prefix = ["runuser", "-u", "postgres", "--"]
        self.data = os.path.join(self.folder, "data")
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        self.running = False
        self._run(f"{bin_dir}/initdb", "-D", self.data, "-U", "postgres", "--auth=trust")

    def _run(self, *args: str) -> None:
        subprocess.run(self._prefix + list(args), check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off"
        log = os.path.join(self.folder, "log")
        self._run(f"{self.bin_dir}/pg_ctl", "-D", self.data, "-o", options, "-w", "start", "-l", log)
        self.running = True

    def stop(self) -> None:
        """A fast shutdown: every session is ended, as when a room's server is restarted."""
        self._run(f"{self.bin_dir}/pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop")
        self.running = False

    def terminate(self, pids: list[int]) -> None:
        """pg_terminate_backend as the superuser, then wait until the server has dropped them (it
        only signals), so that nothing sent next slips through on an old connection."""
        with psycopg.connect(self.libpq(), autocommit=True) as admin:
            for pid in pids:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = ANY(%s)", (pids,)).fetchone():
                admin.execute("SELECT pg_sleep(0.01)")

    def libpq(self) -> str:
        return self.url.replace("postgresql+psycopg://", "postgresql://", 1)

    def remove(self) -> None:
        if self.running:
            self._run(f"{self.bin_dir}/pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
            self.running = False
        shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def stoppable_server() -> Iterator[StoppableServer | None]:
    """A running private server, removed afterwards; None when no binaries are installed."""
    bin_dir = binaries()
    if bin_dir is None:
        yield None
        return
    server = StoppableServer(bin_dir)
    try:
        server.start()
        yield server
    finally:
        server.remove()
