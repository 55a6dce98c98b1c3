"""Desks as processes of their own, forked from one prepared Python process: it imports the
command line and what a replay uses once, then forks one child a desk, all at once, each running
`ofc-desk` with its own words and writing its output to files of its own. A fresh interpreter a
desk imported the whole product first (about 1.5 CPU-seconds each, most of a desk's work); a
forked child starts with those imports done and still opens its own connections, migrates the
room or finds it migrated, and records, as a fresh `ofc-desk` does.

Run as a script by `ForkedDesks` (`python -P this-file PLAN`): PLAN is a JSON list of the desks'
command lines; the process prints the children's exit statuses as JSON once all have ended."""

from __future__ import annotations

import gc
import importlib
import json
import os
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


class ForkedDesks:
    """`ofc-desk` with each of `commands`' words, each in a process of its own forked at once from
    the prepared one; their plan and output files go in `folder`."""

    def __init__(self, commands: Sequence[Sequence[str]], folder: Path) -> None:
        self.folder = folder
        plan = folder / "desks.json"
        plan.write_text(json.dumps([list(words) for words in commands]), encoding="utf-8")
        self._prepared = subprocess.Popen(
            [sys.executable, "-P", __file__, str(plan)],  # -P: this folder kept off the import path
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        )

    def wait(self, timeout: float) -> list[DeskRun]:
        """Each desk's run, in the order of the commands, once all have ended."""
        out, err = self._prepared.communicate(timeout=timeout)
        assert self._prepared.returncode == 0, f"the prepared process: {err}"
        return [
            DeskRun(code, _read(self.folder / f"desk{index}.out"), _read(self.folder / f"desk{index}.err"))
            for index, code in enumerate(json.loads(out))
        ]


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.exists() else ""


def _serve(plan: Path) -> None:
    """Import once, fork a desk a command line, then say each one's exit status."""
    for module in PRELOADED:
        importlib.import_module(module)
    from ofc_desk.cli.main import main

    commands = json.loads(plan.read_text(encoding="utf-8"))
    gc.freeze()  # the imports' objects left out of the children's collections: their pages stay shared
    children: dict[int, int] = {}
    for index, words in enumerate(commands):
        pid = os.fork()
        if pid == 0:
            _output_to(plan.parent / f"desk{index}")
            sys.exit(main(words))  # an exception ends the child as it ends `ofc-desk`: exit 1, traced
        children[pid] = index
    codes = [0] * len(commands)
    for _ in commands:
        pid, status = os.wait()
        codes[children[pid]] = os.waitstatus_to_exitcode(status)
    print(json.dumps(codes))


def _output_to(stem: Path) -> None:
    """This process's standard output and error into `stem`.out and `stem`.err."""
    for descriptor, suffix in ((1, ".out"), (2, ".err")):
        with open(stem.with_suffix(suffix), "wb") as file:
            os.dup2(file.fileno(), descriptor)


if __name__ == "__main__":
    _serve(Path(sys.argv[1]))
