"""The prepared processes the forking helpers keep (tests/helpers/forked_desks.py,
forked_scripts.py, forked_replays.py): each a Python process started at its helper's first use in
a test process, fed requests a line at a time on its standard input and answering on its standard
output, and ended with the test process (its loop ends at the end of its input)."""

from __future__ import annotations

import atexit
import subprocess
from collections.abc import Mapping, Sequence

_KEPT: dict[tuple[str, ...], subprocess.Popen[str]] = {}


def kept_server(
    command: Sequence[str], environment: Mapping[str, str] | None = None
) -> subprocess.Popen[str]:
    """The process running `command`, started at its first asking (in `environment`, or this
    process's) and kept for the next."""
    key = tuple(command)
    if key not in _KEPT:
        server = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=None if environment is None else dict(environment),
        )
        atexit.register(_end, server)
        _KEPT[key] = server
    return _KEPT[key]


def killed(command: Sequence[str]) -> None:
    """The process running `command` killed (a late answer must not be taken for the next
    request's): the next asking starts a new one."""
    server = _KEPT.pop(tuple(command), None)
    if server is not None:
        server.kill()
        server.wait()


def _end(server: subprocess.Popen[str]) -> None:
    if server.poll() is not None:
        return
    assert server.stdin is not None
    server.stdin.close()
    server.wait(timeout=30)
