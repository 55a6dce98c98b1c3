"""What a piece of work costs at the database server, as its client sees it (benchmarks only).

`ServerCost` listens to one SQLAlchemy engine: each statement sent through it is counted with the
rows it returned and its time from being sent to its rows having arrived (psycopg fetches a
result whole), and, where the server runs on this machine, the CPU its server processes used
(`/proc/PID/stat` of each connection's backend; read as root or as the server's user). So the
report's cost at the server is told from its own process's CPU, which in a card room is spent on
the floor supervisor's machine, not the server's.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, event


@dataclass(frozen=True)
class Cost:
    statements: int
    rows: int
    seconds: float
    """Sent to rows arrived, summed over the statements."""
    server_cpu: float | None
    """CPU seconds of the server processes that served them; None where /proc cannot tell."""

    def said(self) -> str:
        cpu = "server CPU n/a" if self.server_cpu is None else f"server CPU {self.server_cpu:.2f} s"
        return f"{self.statements:,} queries, {self.rows:,} rows, {self.seconds:.2f} s in them, {cpu}"

    def as_list(self) -> list[float]:
        cpu = -1.0 if self.server_cpu is None else self.server_cpu
        return [self.statements, self.rows, self.seconds, cpu]

    @classmethod
    def from_list(cls, figures: list[float]) -> Cost:
        statements, rows, seconds, cpu = figures
        return cls(int(statements), int(rows), seconds, None if cpu < 0 else cpu)


class ServerCost:
    """Counts what `engine`'s connections ask of the server; `take` gives the cost since the last."""

    def __init__(self, engine: Engine) -> None:
        self._backends: dict[int, float] = {}
        """Each connection's server process and its CPU seconds when last taken."""
        self._statements, self._rows, self._seconds = 0, 0, 0.0
        self._sent = 0.0
        event.listen(engine, "connect", self._connected)
        event.listen(engine, "before_cursor_execute", self._before)
        event.listen(engine, "after_cursor_execute", self._after)

    def _connected(self, dbapi_connection: Any, _record: object) -> None:
        pid = getattr(getattr(dbapi_connection, "info", None), "backend_pid", None)
        if isinstance(pid, int):
            self._backends[pid] = 0.0  # a new server process: all its CPU is this work's

    def _before(self, *_: object) -> None:
        self._sent = time.perf_counter()

    def _after(self, _connection: object, cursor: Any, *_: object) -> None:
        self._seconds += time.perf_counter() - self._sent
        self._statements += 1
        self._rows += max(cursor.rowcount, 0)

    def take(self) -> Cost:
        cpu: float | None = 0.0
        for pid, before in self._backends.items():
            now = _process_cpu(pid)
            if now is None or cpu is None:
                cpu = None
                continue
            cpu += now - before
            self._backends[pid] = now
        cost = Cost(self._statements, self._rows, self._seconds, cpu)
        self._statements, self._rows, self._seconds = 0, 0, 0.0
        return cost


def _process_cpu(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:  # not this machine's process, or not ours to read
        return None
    user, system = int(fields[11]), int(fields[12])  # utime and stime, after the name
    return (user + system) / os.sysconf("SC_CLK_TCK")
