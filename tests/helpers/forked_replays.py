"""`ofc-desk replay` as a process of its own that a test may kill or read beside, forked from one
prepared process a test process keeps: for tests whose subject is what a desk's process leaves
behind when it dies or while it writes (tests/service/test_crash.py, test_verified_read.py), not
what its launch loads. A fresh interpreter spent most of such a child's CPU importing the product
(about 0.6 s a child, four a test); a forked child starts with the replay's imports done
(`forked_desks.PRELOADED`) and still opens its own connections, migrates or finds the database
migrated, and records, as `python -m ofc_desk replay` does.

Run as a script by `forked_replay` (`python -c SERVE this-file MODULES`): each line it reads is a
JSON request (the command line, its environment, the stem of its output files); it forks a child
for it, answers with a line of the child's pid at once and, once the child has ended (killed or
not), with a line of its exit status."""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

SERVE = "import runpy, sys; runpy.run_path(sys.argv[1], run_name='__main__')"
"""Starts this file as `python -m ofc_desk` would find the product: the current folder first on the
import path."""
LONGEST = 120
"""Seconds a child may run before it is ended (SIGALRM): the longest its callers wait."""


def _prepared() -> subprocess.Popen[str]:
    """This test process's prepared process, started at its first child and ended with it."""
    # Here: the prepared process runs this file alone.
    from tests.helpers.forked_desks import PRELOADED
    from tests.helpers.kept_servers import kept_server

    return kept_server((sys.executable, "-c", SERVE, __file__, json.dumps(PRELOADED)))


class ForkedReplay:
    """A forked `ofc-desk replay` child, answering as the `subprocess.Popen` of a fresh one would
    where the tests use it: `pid`, `send_signal`, `poll`, `communicate` and `returncode`."""

    def __init__(self, words: list[str], stem: Path) -> None:
        self.stem = stem
        self.returncode: int | None = None
        prepared = _prepared()
        assert prepared.stdin is not None and prepared.stdout is not None
        request = {"words": words, "environment": dict(os.environ), "stem": str(stem), "cwd": os.getcwd()}
        prepared.stdin.write(json.dumps(request) + "\n")
        prepared.stdin.flush()
        self._answers = prepared.stdout
        self.pid = int(self._answer())

    def _answer(self) -> str:
        answer = self._answers.readline()
        assert answer, "the prepared process ended"
        return answer

    def send_signal(self, signal_number: int) -> None:
        """As `Popen.send_signal`: nothing once the child has ended."""
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):  # ended and reaped already
                os.kill(self.pid, signal_number)

    def poll(self) -> int | None:
        """The exit status once the child has ended: its pid is gone once the prepared process,
        which waits for it, has reaped it."""
        if self.returncode is None:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                self.returncode = int(self._answer())
        return self.returncode

    def communicate(self, timeout: float) -> tuple[str, str]:
        """What the child wrote to its standard output and error, once it has ended (`timeout` is
        the child's own: it is ended after `LONGEST` seconds)."""
        assert timeout <= LONGEST
        if self.returncode is None:
            self.returncode = int(self._answer())
        return _written(self.stem.with_suffix(".out")), _written(self.stem.with_suffix(".err"))


def _written(path: Path) -> str:
    """What the child wrote there: nothing when it was killed before it opened the file (as a
    fresh process's pipes read empty when it is killed before its first word)."""
    return path.read_text(encoding="utf-8") if path.exists() else ""


def forked_replay(script: Path, url: str, *, resume: bool = True) -> ForkedReplay:
    """`ofc-desk replay SCRIPT --db URL [--resume]` in a forked child, as `python -m ofc_desk`
    would run it in a fresh interpreter; its output files beside the script."""
    stem = script.parent / f"replay-{os.urandom(4).hex()}"
    return ForkedReplay(["replay", str(script), "--db", url] + (["--resume"] if resume else []), stem)


def _serve(modules: list[str]) -> None:
    """Import once, then for each request fork a child that runs its command line; say its pid,
    then its exit status."""
    for module in modules:
        importlib.import_module(module)
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()  # nothing of this process's output left for the child to write again
        pid = os.fork()
        if pid == 0:
            _run(request["words"], request["environment"], Path(request["stem"]), request["cwd"])
        print(pid, flush=True)
        _, status = os.waitpid(pid, 0)
        print(os.waitstatus_to_exitcode(status), flush=True)


def _run(words: list[str], environment: dict[str, str], stem: Path, cwd: str) -> NoReturn:
    """In the child: `ofc-desk` with `words`, in the test's environment and folder, its output in
    `stem`.out and `stem`.err; an exception ends it as it ends `ofc-desk`: traced, exit 1."""
    signal.alarm(LONGEST)
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(environment)
    descriptors = [(0, os.devnull, "rb"), (1, f"{stem}.out", "wb"), (2, f"{stem}.err", "wb")]
    for descriptor, path, mode in descriptors:
        with open(path, mode) as file:
            os.dup2(file.fileno(), descriptor)
    from ofc_desk.cli.main import main

    sys.exit(main(words))


if __name__ == "__main__":
    _serve(json.loads(sys.argv[2]))
