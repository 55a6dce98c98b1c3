"""PySide's support modules (`shibokensupport`: signatures, error messages, the feature switch)
compiled once at build time, for the bundle to carry as `shiboken6/files.dir`.

Shiboken keeps their source in a zip embedded in its extension module and, at every launch,
compiles each of them before the first Qt class can be used: about 120 million instructions of a
desk's launch (callgrind, `import PySide6.QtWidgets`: 604 M embedded, 482 M from compiled files;
docs/decisions.md, "PySide's support modules compiled at build time"). When `files.dir` exists
beside Shiboken's package, Shiboken imports them from there instead (the folder its own
`SBK_EMBED=0` switch writes, with their source); as bytecode without source they load with
nothing to compile. The files are PySide's own, taken from the Shiboken being bundled, so they
always match it.
"""

from __future__ import annotations

import py_compile
import shutil
import sys
from pathlib import Path
from typing import Any
from zipfile import ZipFile

SUPPORT_FOLDER = "shiboken6/files.dir"
"""Where Shiboken looks for its support modules as files (beside `shiboken6/__init__`)."""


def _support_sources() -> dict[str, bytes]:
    """Each support module's source by its path in the support folder, from the zip embedded in
    Shiboken (or from the folder, where an `SBK_EMBED=0` launch already wrote it)."""
    import shiboken6  # its import loads the support modules

    written = Path(shiboken6.__file__).resolve().parent / "files.dir"
    if written.is_dir():
        files = written.rglob("shibokensupport/**/*.py")
        return {str(path.relative_to(written)): path.read_bytes() for path in files}
    # Shiboken's own importer for its embedded zip keeps the archive as `zfile`.
    importer: Any = sys.modules["shibokensupport.signature.loader"].__loader__
    embedded: ZipFile = importer.zfile
    names = [name for name in embedded.namelist() if name.startswith("shibokensupport/")]
    return {name: embedded.read(name) for name in names if name.endswith(".py")}


def compiled_support(folder: Path) -> Path:
    """The support modules compiled into `folder` (made anew), bytecode only, each in its
    source's place (`loader.pyc` beside where `loader.py` would be): the folder to bundle as
    `SUPPORT_FOLDER`."""
    if folder.exists():  # an earlier build's: made again
        shutil.rmtree(folder)
    for name, source in _support_sources().items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(source)
        py_compile.compile(str(target), cfile=f"{target}c", dfile=name, doraise=True)
        target.unlink()
    return folder
