"""A desk's checkpoint of a long session's folded table (issue 39): resuming folds only the events
after it, so a table's two-thousandth hand resumes about as fast as its first.

A checkpoint is the `TableMachine` the fold gave at one event of the session (pickled), with that
event's sequence number and chain hash and the fingerprint of the code and presets that folded it.
This desk keeps it in its own cache folder (`storage.desk_cache`), never in the room's database,
and trusts it only when the session's stored event at that number still has that hash (the chain
covers every event before it) and its own code and presets have the fingerprint it was made with;
anything else (a file that does not read, a session pinned after it, a fold of the events after it
refused) is set aside, and the session is folded from its opening as before. Nothing here checks or
applies an event itself: the machine the fold made is the machine kept (docs/decisions.md, "A
desk's checkpoint of a long session").
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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import BuiltinFunctionType, FunctionType, MappingProxyType
from typing import Any, Final, Protocol, TypeVar

from sqlalchemy import Row, select

import ofc_desk
from ofc_desk import __version__
from ofc_desk.core.resources import resources_dir
from ofc_desk.service.store.entry_marks import EntryStamp
from ofc_desk.service.store.persistence import EventStore
from ofc_desk.service.table.actions.spec import CheckedAction
from ofc_desk.service.table.dealers import NOT_THE_DEALERS
from ofc_desk.service.table.fold import StoredEvent, fold
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.table.rule_pins import pins_in
from ofc_desk.storage.database import Database
from ofc_desk.storage.desk_cache import cache_folder
from ofc_desk.storage.models import Event
from ofc_desk.storage.users import Account

CHECKPOINT_EVENTS: Final = 1000
"""Events folded past the last checkpoint before the next is kept (about 60 hands of three): a
resume folds at most these and what was recorded since the desk last held the table."""
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

    def thawed(self) -> TableMachine:
        """A new machine, as the fold left it at `seq`."""
        return self.thawed_as(TableMachine)

    def thawed_as(self, kind: type[T]) -> T:
        """What was kept (a reader's own record around the machine: the floor's), made again."""
        with _collector_paused():
            kept = _Unpickler(io.BytesIO(self.machine)).load()
        if not isinstance(kept, kind):
            raise pickle.UnpicklingError(f"not a {kind.__name__}")
        return kept


class CheckpointedStore(EventStore):
    """An event store whose `history` starts after a checkpoint (`base`; from the opening without
    one), which it moves on as the session grows."""

    def __init__(
        self,
        database: Database,
        session_id: int,
        head_seq: int,
        head_hash: str,
        history: Sequence[StoredEvent] = (),
        base: Checkpoint | None = None,
    ) -> None:
        super().__init__(database, session_id, head_seq, head_hash, history)
        self.base = base

    def stored_machine(self) -> TableMachine:
        """The table as stored up to this store's head: the checkpoint's machine and the events
        after it, from memory."""
        if self.base is None:
            return super().stored_machine()
        machine = self.base.thawed()
        fold(machine, self.history)
        return machine

    def append(
        self,
        machine: TableMachine,
        checked: CheckedAction,
        actor: str,
        signers: Sequence[Account] = (),
        stamp: EntryStamp | None = None,
    ) -> None:
        super().append(machine, checked, actor, signers, stamp)
        if actor and checked.kind not in NOT_THE_DEALERS:
            # A dealer's event names the dealer on duty as a fold does: the machine is the fold's.
            self.keep_if_due(machine)

    def keep_if_due(self, machine: TableMachine) -> None:
        """Keep `machine` (the table as folded up to the head) as the checkpoint when enough
        events were folded since the last one."""
        if self.head_seq - (self.base.seq if self.base else 0) >= CHECKPOINT_EVENTS:
            self.keep(machine)

    def keep(self, machine: TableMachine) -> None:
        """`machine` is the checkpoint at the head from now on: in memory, and in this desk's
        cache for the next resume (a cache that cannot be written keeps nothing)."""
        frozen = frozen_or_none(machine)
        if frozen is None:
            return  # something in this table does not pickle: it is folded whole, as before
        self.base = Checkpoint(self.head_seq, self.head_hash, frozen)
        self.history = []
        keep_file(self.database, self.session_id, self.base)


def frozen_or_none(value: object) -> bytes | None:
    """`value` pickled as a checkpoint keeps it (only this program's objects and plain containers);
    None when something in it does not pickle so: a checkpoint only saves time, nothing about it
    fails what is stored."""
    try:
        with _collector_paused():
            return _dumps(value)
    except Exception:
        return None


def kept(database: Database, session_id: int, folder: str = FOLDER) -> Checkpoint | None:
    """The checkpoint of the session kept in this machine's cache `folder`, if this code made one
    (not yet checked against the stored chain: `trusted_rows`)."""
    return _read(_path(database, session_id, folder))


def keep_file(
    database: Database, session_id: int, checkpoint: Checkpoint, folder: str = FOLDER, most: int = KEPT_FILES
) -> None:
    """`checkpoint` kept in this machine's cache `folder` (at most `most` files there, the newest);
    a cache that cannot be written keeps nothing."""
    with contextlib.suppress(OSError):
        _write(_path(database, session_id, folder), checkpoint, most)


def load(database: Database, session_id: int) -> tuple[CheckpointedStore, TableMachine]:
    """A stored session's store and machine: from this desk's checkpoint when it is trusted, the
    events after it folded; else folded from the opening (`EventStore.load`), a checkpoint kept
    when the session is long."""
    found = kept(database, session_id)
    if found is not None:
        resumed = _resumed(database, session_id, found)
        if resumed is not None:
            return resumed
    with _collector_paused():
        store, machine = CheckpointedStore.load(database, session_id)
    assert isinstance(store, CheckpointedStore)
    store.keep_if_due(machine)
    return store, machine


def _resumed(
    database: Database, session_id: int, kept: Checkpoint
) -> tuple[CheckpointedStore, TableMachine] | None:
    """The session from `kept` and the events after it; None when the stored chain does not hold
    the checkpoint's event as it was, or what follows cannot be folded onto it."""
    rows = trusted_rows(database, session_id, kept)
    if rows is None:
        return None
    later = rows[1:]
    try:
        machine = kept.thawed()
        fold(machine, later)
    except Exception:  # whatever the checkpoint gives wrong, the whole fold decides
        return None
    head = rows[-1]
    store = CheckpointedStore(database, session_id, head.seq, head.hash, later, kept)
    store.keep_if_due(machine)
    return store, machine


def trusted_rows(
    database: Database, session_id: int, kept: Checkpoint
) -> Sequence[Row[int, str, str, str, str]] | None:
    """The session's events from the checkpoint's on (seq, hash, kind, payload, actor; the
    checkpoint's own first) when they `hold` it; else None."""
    with database.snapshot() as session:
        query = select(Event.seq, Event.hash, Event.kind, Event.payload, Event.actor).where(
            Event.session_id == session_id, Event.seq >= kept.seq
        )
        rows = session.execute(query.order_by(Event.seq)).all()
    return rows if holds(kept, rows) else None


class ChainedEvent(StoredEvent, Protocol):
    """A stored event as a checkpoint is checked against it: what folding reads, and where the
    event stands in its session's chain."""

    @property
    def seq(self) -> int: ...

    @property
    def hash(self) -> str: ...


def holds(kept: Checkpoint, rows: Sequence[ChainedEvent]) -> bool:
    """Whether a session's events from the checkpoint's on (`rows`, in order) hold the checkpoint's
    event as it was (the chain covers every event before it), and none after it pins presets (pins
    are taken before the first event is folded: such a session is folded whole)."""
    if not rows or rows[0].seq != kept.seq or rows[0].hash != kept.hash:
        return False
    return not pins_in((row.kind, row.payload) for row in rows[1:])


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
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


def _write(path: Path, checkpoint: Checkpoint, most: int = KEPT_FILES) -> None:
    """Written whole or not at all (a new file moved into place), then the oldest files past
    `most` deleted."""
    head = {"fingerprint": code_fingerprint(), "seq": checkpoint.seq, "hash": checkpoint.hash}
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_bytes(json.dumps(head).encode() + b"\n" + zlib.compress(checkpoint.machine, 1))
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
