"""The file of a checkpoint (`service.store.checkpoint`): what it keeps pickled, the fingerprint of
the code that made it, and where in this machine's cache it lies. Nothing here folds or names the
rules: a reader that shows what was kept without folding (the floor's first listing of a room,
issue 39) reads it without loading the rules core.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import io
import json
import os
import pickle
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import BuiltinFunctionType, FunctionType, MappingProxyType
from typing import TYPE_CHECKING, Any, Final, TypeVar

import ofc_desk
from ofc_desk import __version__
from ofc_desk.core.resources import resources_dir
from ofc_desk.service.table.hand_traces import HandTraces
from ofc_desk.storage.desk_cache import cache_folder

if TYPE_CHECKING:
    from ofc_desk.storage.database import Database

KEPT_FILES: Final = 32
"""Checkpoints a desk keeps, the newest (one a session)."""
FOLDER: Final = "checkpoints"
SUFFIX: Final = ".fold"
T = TypeVar("T")
_SAFE_BUILTINS: Final = frozenset({"set", "frozenset", "dict", "list", "tuple", "int", "str", "bytes"})
"""The only builtins a pickled table may name: containers and plain values."""


@dataclass(frozen=True)
class Checkpoint:
    """The machine folded up to event `seq`, whose chain hash is `hash`, pickled."""

    seq: int
    hash: str
    machine: bytes

    def thawed_as(self, kind: type[T]) -> T:
        """What was kept (the machine, or a reader's own record around it: the floor's), made
        again."""
        with collector_paused():
            kept = _Unpickler(io.BytesIO(self.machine)).load()
        if not isinstance(kept, kind):
            raise pickle.UnpicklingError(f"not a {kind.__name__}")
        return kept


def frozen_or_none(value: object) -> bytes | None:
    """`value` pickled as a checkpoint keeps it (only this program's objects and plain containers);
    None when something in it does not pickle so: a checkpoint only saves time, nothing about it
    fails what is stored."""
    try:
        with collector_paused():
            return _dumps(value)
    except Exception:
        return None


def kept(database: Database, session_id: int, folder: str = FOLDER) -> Checkpoint | None:
    """The checkpoint of the session kept in this machine's cache `folder`, if this code made one
    (not yet checked against the stored chain: `trusted_rows`)."""
    return _read(_path(database, session_id, folder))


def keep_file(
    database: Database,
    session_id: int,
    checkpoint: Checkpoint,
    folder: str = FOLDER,
    most: int = KEPT_FILES,
    level: int = 1,
) -> None:
    """`checkpoint` kept in this machine's cache `folder` (at most `most` files there, the newest),
    compressed at zlib's `level` (0: stored as it is, for a checkpoint whose bulk is compressed
    already, which deflating again would not shrink but reading would inflate); a cache that
    cannot be written keeps nothing."""
    with contextlib.suppress(OSError):
        _write(_path(database, session_id, folder), checkpoint, most, level)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cycle collector held off while a table's many objects are made, none of them garbage:
    it would walk them again and again as they grow (two to four times the time of a thaw)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


# ---------------------------------------------------------------------- the file
@cache
def code_fingerprint() -> str:
    """The code and presets that fold a session, as a SHA-256: the rules core's and the service's
    sources and the shipped presets (an installed bundle without sources: its executable)."""
    digest = hashlib.sha256(f"{sys.version}\n{__version__}\n{pickle.HIGHEST_PROTOCOL}\n".encode())
    sources = folding_sources()
    if not sources:
        stat = Path(sys.executable).stat()
        digest.update(f"{sys.executable}\n{stat.st_size}\n{stat.st_mtime_ns}\n".encode())
    presets = sorted((resources_dir() / "presets").glob("*.json"))
    for path in [*sources, *presets]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def folding_sources() -> list[Path]:
    """The rules core's and the service's source files, found from the package itself (not from
    this module's depth, which moves when the service's rooms do); none in a bundle."""
    package = Path(ofc_desk.__file__).resolve().parent
    return sorted(path for part in ("core", "service") for path in (package / part).rglob("*.py"))


def _path(database: Database, session_id: int, folder: str = FOLDER) -> Path:
    where = hashlib.sha256(database.url.encode()).hexdigest()[:32]
    return cache_folder(folder) / f"{where}-{session_id}{SUFFIX}"


def _write(path: Path, checkpoint: Checkpoint, most: int = KEPT_FILES, level: int = 1) -> None:
    """Written whole or not at all (a new file moved into place), then the oldest files past
    `most` deleted."""
    head = {"fingerprint": code_fingerprint(), "seq": checkpoint.seq, "hash": checkpoint.hash}
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_bytes(json.dumps(head).encode() + b"\n" + zlib.compress(checkpoint.machine, level))
    os.replace(partial, path)
    kept = sorted(path.parent.glob(f"*{SUFFIX}"), key=lambda each: each.stat().st_mtime, reverse=True)
    for old in kept[most:]:
        old.unlink(missing_ok=True)


def _read(path: Path) -> Checkpoint | None:
    """The checkpoint kept at `path`, if there is one this code made."""
    try:
        head, _newline, packed = path.read_bytes().partition(b"\n")
        said = json.loads(head)
        if said.get("fingerprint") != code_fingerprint():
            return None
        return Checkpoint(int(said["seq"]), str(said["hash"]), zlib.decompress(packed))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, zlib.error):
        return None


def _read_only(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """A preset's read-only mapping, made again from its items (pickle has no way of its own)."""
    return MappingProxyType(items)


def _hand_traces(parts: tuple[bytes, ...], numbers: tuple[int, ...]) -> HandTraces:
    """A table's settled hands' traces, each part thawed only when a trace is first read."""
    return HandTraces.kept(parts, numbers, _thawed_traces)


def _thawed_traces(part: bytes) -> dict[int, Any]:
    """A part of a table's traces made again, as a checkpoint is (`_Unpickler`)."""
    with collector_paused():
        traces = _Unpickler(io.BytesIO(zlib.decompress(part))).load()
    if not isinstance(traces, dict):
        raise pickle.UnpicklingError("not a table's traces")
    return traces


def _traces_apart(traces: HandTraces) -> tuple[tuple[bytes, ...], tuple[int, ...]]:
    """A table's traces as kept: the parts not read kept as they are, those added since in a part
    of their own (compressed apart: reading the file inflates only the rest), and their hands."""
    added, numbers = traces.added(), traces.kept_numbers()
    if not added:
        return traces.kept_parts(), numbers
    part, kept = zlib.compress(_dumps(added), 1), set(numbers)
    return (*traces.kept_parts(), part), numbers + tuple(n for n in added if n not in kept)


def _allowed(module: str, name: str) -> bool:
    """What a pickled table may name: this program's own objects and plain containers."""
    return module.startswith("ofc_desk.") or (module == "builtins" and name in _SAFE_BUILTINS)


def _dumps(machine: object) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(machine)
    return buffer.getvalue()


class _Pickler(pickle.Pickler):
    """Pickles a table only as `_Unpickler` makes it again: a checkpoint that would not thaw is
    never kept (the store's history starts at it)."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, MappingProxyType):
            return _read_only, (dict(obj),)
        if isinstance(obj, HandTraces):
            return _hand_traces, _traces_apart(obj)
        if isinstance(obj, type | FunctionType | BuiltinFunctionType) and not _allowed(
            obj.__module__, obj.__qualname__
        ):
            raise pickle.PicklingError(f"{obj.__module__}.{obj.__qualname__} is not part of a table")
        return NotImplemented


class _Unpickler(pickle.Unpickler):
    """Makes nothing but this program's own objects and plain containers."""

    def find_class(self, module: str, name: str) -> Any:
        if _allowed(module, name):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a table")
