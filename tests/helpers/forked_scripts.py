"""Desk scripts run each in a process of its own, forked from one prepared process a test process
keeps: for tests whose subject is what a desk does while it runs and quits, not what its launch
loads. A fresh interpreter spent most of such a script's CPU importing Qt and the desk (about
0.5 s a script); a forked child starts with those imports done, creates its own application and
windows, and ends as `python -c` ends, the interpreter's teardown included.

Run as a script by `forked_script_run` (`python -c SERVE this-file`): each line it reads is a JSON
request (the script, its environment, the stem of its output files); it forks a child for it,
waits for it and answers with a line of the child's exit status."""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
import types
from collections.abc import Mapping
from pathlib import Path
from typing import NoReturn

PRELOADED = (
    "PySide6.QtCore",
    "PySide6.QtGui",
    "PySide6.QtWidgets",
    "ofc_desk.desk.shell.app",
    "ofc_desk.desk.shell.smoke_test",
    "ofc_desk.desk.shell.worker",
    "ofc_desk.desk.shell.theme",
)
"""What the desk scripts import, loaded before the forks; none of it starts a thread."""
SERVE = "import runpy, sys; runpy.run_path(sys.argv[1], run_name='__main__')"
"""Starts this file as `python -c` starts a script: the current folder first on the import path
(`run_path` adds nothing to it for a file), so the desk is imported from where the script's
would be."""
LONGEST = 120
"""Seconds a script may run before its child is ended (SIGALRM), as `desk_script_run`'s timeout."""


def _prepared() -> subprocess.Popen[str]:
    """This test process's prepared process, started at its first script and ended with it (the
    import path a `python -c` script has)."""
    from tests.helpers.kept_servers import kept_server  # here: the prepared process runs this file alone

    offscreen = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return kept_server((sys.executable, "-c", SERVE, __file__), offscreen)


def forked_script_run(
    script: str, tmp_path: Path, setting: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`script` run offscreen in a forked child, as `desk_scripts.desk_script_run` runs it in a fresh
    interpreter: the same environment, what it printed and said on stderr kept; fails on a
    non-zero exit."""
    environment = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        **(setting or {}),
    }
    stem = tmp_path / f"forked-{os.urandom(4).hex()}"
    prepared = _prepared()
    assert prepared.stdin is not None and prepared.stdout is not None
    prepared.stdin.write(json.dumps({"script": script, "environment": environment, "stem": str(stem)}) + "\n")
    prepared.stdin.flush()
    answer = prepared.stdout.readline()
    assert answer, "the prepared process ended"
    done = subprocess.CompletedProcess(
        ["<forked>", "-c", script],
        json.loads(answer),
        stem.with_suffix(".out").read_text(encoding="utf-8"),
        stem.with_suffix(".err").read_text(encoding="utf-8"),
    )
    done.check_returncode()
    return done


def _serve() -> None:
    """Import once, then for each request fork a child that runs its script, and say its status."""
    for module in PRELOADED:
        importlib.import_module(module)
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()  # nothing of this process's output left for the child to write again
        pid = os.fork()
        if pid == 0:
            _run_as_python_c(request["script"], request["environment"], Path(request["stem"]))
        _, status = os.waitpid(pid, 0)
        print(os.waitstatus_to_exitcode(status), flush=True)


def _run_as_python_c(script: str, environment: dict[str, str], stem: Path) -> NoReturn:
    """In the child: what `python -c script` would be (its environment, `__main__` and `sys.argv`;
    the import path is already its), its output in `stem`.out and `stem`.err; an exception ends
    it as it ends `python -c`: traced, exit 1."""
    signal.alarm(LONGEST)
    os.environ.clear()
    os.environ.update(environment)
    descriptors = [(0, os.devnull, "rb"), (1, f"{stem}.out", "wb"), (2, f"{stem}.err", "wb")]
    for descriptor, path, mode in descriptors:
        with open(path, mode) as file:
            os.dup2(file.fileno(), descriptor)
    main = types.ModuleType("__main__")
    sys.modules["__main__"] = main
    sys.argv = ["-c"]
    exec(compile(script, "<string>", "exec"), main.__dict__)
    sys.exit(0)


if __name__ == "__main__":
    _serve()
