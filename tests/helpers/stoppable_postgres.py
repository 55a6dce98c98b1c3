"""A throw-away PostgreSQL server a test may stop, start and cut connections on: `initdb` from the
installed binaries, in a temp folder (in memory, /dev/shm, where there is room: nothing here tests
the disk, and a data folder's 1,400 files cost seconds to make and remove on a slow one), on a free
loopback port (as the `postgres` user when run as root, since initdb refuses root). Never the
shared server. The benchmark of a desk's reconnect time (benchmarks/reconnect_bench.py) uses it too.

The postmaster is this process's child, started and stopped as `pg_ctl start -w` and `pg_ctl stop
-m fast -w` do it (a session of its own; SIGINT, a fast shutdown), but waited for without pg_ctl's
tenth-of-a-second polls: a start is over when the postmaster's pid file says it is ready, a stop when
the postmaster has exited."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

NO_BINARIES = "no PostgreSQL binaries are installed (/usr/lib/postgresql/*/bin/initdb)"
IN_MEMORY = Path("/dev/shm")
ROOM_IN_MEMORY = 1 << 30
"""The free space the data folder needs to be put in memory (a container's /dev/shm may be 64 MB)."""
START_SECONDS = 60
"""How long a start may take, as `pg_ctl -w` waits by default."""
_READY_LINE = 7
"""The postmaster's status in its pid file (LOCK_FILE_LINE_PM_STATUS, counted from 0)."""
_POLL_SECONDS = 0.002


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def binaries() -> str | None:
    """The newest installed PostgreSQL's bin folder, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    return found[-1] if found and os.path.exists(os.path.join(found[-1], "initdb")) else None


def _quick_parent() -> str | None:
    """Where the server's folder goes: in memory when there is room there, else the temp folder."""
    roomy = IN_MEMORY.is_dir() and os.access(IN_MEMORY, os.W_OK)
    return str(IN_MEMORY) if roomy and shutil.disk_usage(IN_MEMORY).free >= ROOM_IN_MEMORY else None


class StoppableServer:
    """One private server: `url` answers while it runs."""

    def __init__(self, bin_dir: str) -> None:
        self.bin_dir = bin_dir
        self.port = _free_port()
        self.folder = tempfile.mkdtemp(prefix="ofc-desk-faults-pg-", dir=_quick_parent())
        self._prefix: list[str] = []
        self._owner: pwd.struct_passwd | None = None
        if os.geteuid() == 0:  # initdb and postgres refuse to run as root
            self._owner = pwd.getpwnam("postgres")
            os.chown(self.folder, self._owner.pw_uid, self._owner.pw_gid)
            self._prefix = ["runuser", "-u", "postgres", "--"]
        self.data = os.path.join(self.folder, "data")
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        self._postmaster: subprocess.Popen[bytes] | None = None
        command = [f"{bin_dir}/initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "--no-sync"]
        subprocess.run(self._prefix + command, check=True, capture_output=True, timeout=120)

    @property
    def running(self) -> bool:
        return self._postmaster is not None

    def start(self) -> None:
        """Starts the postmaster and returns once it accepts connections."""
        command = [f"{self.bin_dir}/postgres", "-D", self.data, "-p", str(self.port), "-k", self.folder]
        command += ["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"]
        owner = self._owner
        with open(os.path.join(self.folder, "log"), "ab") as log:
            postmaster = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
                user=None if owner is None else owner.pw_uid,
                group=None if owner is None else owner.pw_gid,
                extra_groups=None if owner is None else [],
            )
        self._await_ready(postmaster)
        self._postmaster = postmaster

    def _await_ready(self, postmaster: subprocess.Popen[bytes]) -> None:
        deadline = time.monotonic() + START_SECONDS
        while not self._says_ready(postmaster.pid):
            if postmaster.poll() is not None or time.monotonic() > deadline:
                postmaster.kill()
                postmaster.wait()
                log = Path(self.folder, "log").read_text(errors="replace")
                raise RuntimeError(f"the throw-away PostgreSQL server did not start:\n{log}")
            time.sleep(_POLL_SECONDS)

    def _says_ready(self, pid: int) -> bool:
        try:
            lines = Path(self.data, "postmaster.pid").read_text().splitlines()
        except FileNotFoundError:
            return False
        return len(lines) > _READY_LINE and lines[0] == str(pid) and lines[_READY_LINE].strip() == "ready"

    def stop(self) -> None:
        """A fast shutdown: every session is ended, as when a room's server is restarted."""
        self._end(signal.SIGINT)

    def _end(self, how: signal.Signals) -> None:
        postmaster = self._postmaster
        if postmaster is None:
            raise RuntimeError("the throw-away PostgreSQL server is not running")
        postmaster.send_signal(how)
        postmaster.wait()
        self._postmaster = None

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
            self._end(signal.SIGQUIT)  # an immediate shutdown: nothing of it is kept
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
