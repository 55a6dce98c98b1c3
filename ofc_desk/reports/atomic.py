"""Reports and exports are written whole or not at all."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def write_atomically(path: str | Path, write: Callable[[str], None]) -> None:
    """Run `write` on a temporary file beside `path`, then rename it over `path`: a full disk or a
    crash half-way leaves the old file (or none), never a broken report under the report's name.
    A path that is not a regular file (a device, a pipe) is written in place: renaming over it
    would replace the device."""
    target = Path(path)
    if target.exists() and not target.is_file():
        write(str(target))
        return
    folder = target.resolve().parent
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    os.close(handle)
    try:
        write(temporary)
        os.chmod(temporary, 0o666 & ~_umask())  # as an ordinary new file, not mkstemp's 0600
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current
