"""Desks as processes of their own, forked from one prepared Python process a test process keeps:
it imports the command line and what a replay uses once, then forks one child a desk, all at once,
each running `ofc-desk` with its own words and writing its output to files of its own. A fresh
interpreter a desk imported the whole product first (about 1.5 CPU-seconds each, most of a desk's
work); a forked child starts with those imports done and still opens its own connections, migrates
the room or finds it migrated, and records, as a fresh `ofc-desk` does.

Run as a script by `ForkedDesks` (`python -P this-file`): each line it reads names a plan, a JSON
file with the desks' environment and command lines; it forks the plan's desks at once and answers
with a line of their exit statuses once all have ended. The process is started at a test process's
first plan and kept for the next (its imports cost about as much CPU as two desks)."""

from __future__ import annotations

import gc
import importlib
import json
import os
import select
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

PRELOADED = (
    "ofc_desk.cli.main",
    "ofc_desk.cli.replay",
    "ofc_desk.service.replays.replay",
    "ofc_desk.storage.database",
    "ofc_desk.storage.room_schema",
    "ofc_desk.storage.roles",
    "ofc_desk.storage.append_only",
    "sqlalchemy.dialects.postgresql.psycopg",
    "sqlalchemy.dialects.sqlite.pysqlite",
    # The drivers themselves: each dialect imports its own only when its first engine is made, so
    # without these every child imported psycopg again (about 0.15 CPU-seconds a desk).
    "psycopg",
    "sqlite3",
    "alembic.command",
    "alembic.config",
)
"""What `ofc-desk replay --db URL` imports on its way to recording, loaded before the forks."""


@dataclass(frozen=True)
class DeskRun:
    """A forked desk's exit status and what it wrote to its standard output and error."""

    returncode: int
    out: str
    err: str


SERVER = (sys.executable, "-P", __file__)
"""The prepared process's command line (-P: this folder kept off the import path)."""


def _prepared() -> subprocess.Popen[str]:
    """This test process's prepared process, started at its first plan and ended with it."""
    from tests.helpers.kept_servers import kept_server  # here: the prepared process runs this file alone

    return kept_server(SERVER, {**os.environ, "QT_QPA_PLATFORM": "offscreen"})


class ForkedDesks:
    """`ofc-desk` with each of `commands`' words, each in a process of its own forked at once from
    the prepared one, in this process's environment as it is now; their plan and output files go
    in `folder`."""

    def __init__(self, commands: Sequence[Sequence[str]], folder: Path) -> None:
        self.folder = folder
        plan = folder / "desks.json"
        environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
        plan.write_text(
            json.dumps({"environment": environment, "commands": [list(words) for words in commands]}),
            encoding="utf-8",
        )
        self._prepared = _prepared()
        assert self._prepared.stdin is not None
        self._prepared.stdin.write(f"{plan}\n")
        self._prepared.stdin.flush()

    def wait(self, timeout: float) -> list[DeskRun]:
        """Each desk's run, in the order of the commands, once all have ended."""
        answers = self._prepared.stdout
        assert answers is not None
        ready, _, _ = select.select([answers], [], [], timeout)  # its one line comes only when asked
        if not ready:  # its late answer must not be taken for the next plan's: the next gets a new one
            from tests.helpers.kept_servers import killed

            killed(SERVER)
            raise AssertionError(f"the desks did not all end within {timeout} s")
        answer = answers.readline()
        assert answer, f"the prepared process ended (exit status {self._prepared.wait()})"
        return [
            DeskRun(code, _read(self.folder / f"desk{index}.out"), _read(self.folder / f"desk{index}.err"))
            for index, code in enumerate(json.loads(answer))
        ]


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.exists() else ""


def _serve() -> None:
    """Import once; then for each plan, fork a desk a command line and say each one's exit status."""
    for module in PRELOADED:
        importlib.import_module(module)
    from ofc_desk.cli.main import main

    gc.freeze()  # the imports' objects left out of the children's collections: their pages stay shared
    for line in sys.stdin:
        plan = Path(line.strip())
        asked = json.loads(plan.read_text(encoding="utf-8"))
        sys.stdout.flush()  # nothing of this process's output left for a child to write again
        children: dict[int, int] = {}
        for index, words in enumerate(asked["commands"]):
            pid = os.fork()
            if pid == 0:
                os.environ.clear()
                os.environ.update(asked["environment"])
                _output_to(plan.parent / f"desk{index}")
                sys.exit(main(words))  # an exception ends the child as it ends `ofc-desk`: exit 1, traced
            children[pid] = index
        codes = [0] * len(children)
        for _ in children:
            pid, status = os.wait()
            codes[children[pid]] = os.waitstatus_to_exitcode(status)
        print(json.dumps(codes), flush=True)


def _output_to(stem: Path) -> None:
    """This process's standard output and error into `stem`.out and `stem`.err."""
    for descriptor, suffix in ((1, ".out"), (2, ".err")):
        with open(stem.with_suffix(suffix), "wb") as file:
            os.dup2(file.fileno(), descriptor)


if __name__ == "__main__":
    _serve()
