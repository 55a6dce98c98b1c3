"""The floor started again mid-shift (issue 39, point 3): what its first reading costs when each
table moved on past the floor's checkpoint, with this code (a closing floor keeps a checkpoint of
each table that moved, `FloorReader.keep_at_close`) and another tree's (prints figures; not part of
the test suite).

Over a room of open tables (e.g. `verify_bench.py`'s), for each tree, its own cache folder:
- planted once (not timed): the floor's checkpoint of each table `--past` events before its head,
  the last one a floor kept while it followed the room (it keeps one every 1,000 events);
- then each run, the trees alternately, each step a fresh process after its imports: the floor that
  followed the room since reads it (from those checkpoints) and closes: the CPU of its close, where
  the tree keeps at the close; then a floor started again reads the room once: the CPU of that
  reading alone and the events it folded.

Usage: python benchmarks/floor_close_bench.py --room FILE [--past 700] [--runs 5] [--baseline TREE]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import select

from ofc_desk.service.oversight import floor
from ofc_desk.service.store import checkpoint
from ofc_desk.service.table import fold as fold_module
from ofc_desk.storage.desk_cache import CACHE_VARIABLE
from ofc_desk.storage.existing_room import open_existing
from ofc_desk.storage.models import Event, TableSession

HERE = Path(__file__).resolve()
THIS_TREE = HERE.parent.parent


def plant(url: str, past: int) -> None:
    """The floor's checkpoint of each open table, `past` events before its head."""
    database = open_existing(url)
    with database.session() as session:
        heads = session.execute(
            select(TableSession.id, TableSession.opened_at, TableSession.head_seq).where(
                TableSession.closed_at.is_(None)
            )
        ).all()
        for session_id, opened_at, head_seq in heads:
            events = session.scalars(
                select(Event)
                .where(Event.session_id == session_id, Event.seq <= head_seq - past)
                .order_by(Event.seq)
            ).all()
            followed = floor._FollowedTable(session_id, opened_at)
            followed.follow(events)
            followed.keep_if_due(database, 0)  # kept as the tree's own floor keeps it
            assert checkpoint.kept(database, session_id, floor.KEPT_FOLDER) is not None
    database.dispose()


def close(url: str) -> None:
    """A floor that followed the room reads it and closes; prints the CPU of its close."""
    reader = floor.FloorReader(open_existing(url))
    reader.read()
    keep_at_close = getattr(reader, "keep_at_close", None)
    started = time.process_time()
    if keep_at_close is not None:
        keep_at_close()
    print(f"close {time.process_time() - started:.4f}")


def restart(url: str) -> None:
    """A floor started again reads the room once; prints the CPU of the reading and the events it
    folded."""
    folded: list[int] = []
    real_fold = fold_module.fold

    def counting(machine: Any, events: Sequence[Any], hooks: Any) -> bool:
        folded.append(len(events))
        return real_fold(machine, events, hooks)

    # The floor's own import of the generic `fold`, swapped for one that counts what it folds.
    floor.fold = counting  # type: ignore[attr-defined,assignment]
    reader = floor.FloorReader(open_existing(url))
    started = time.process_time()
    room = reader.read()
    print(f"read {time.process_time() - started:.4f} {sum(folded)} {len(room.tables)}")


def step(tree: Path, cache: Path, what: str, url: str, past: int) -> str:
    environment = {**os.environ, "PYTHONPATH": str(tree), CACHE_VARIABLE: str(cache)}
    command = [sys.executable, str(HERE), "--step", what, "--url", url, "--past", str(past)]
    return subprocess.run(command, env=environment, check=True, capture_output=True, text=True).stdout


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--room", type=Path)
    parser.add_argument("--past", type=int, default=700)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--step", choices=("plant", "close", "restart"))
    parser.add_argument("--url")
    said = parser.parse_args()
    if said.step is not None:
        if said.step == "plant":
            plant(said.url, said.past)
        elif said.step == "close":
            close(said.url)
        else:
            restart(said.url)
        return
    url = f"sqlite:///{said.room.resolve()}"
    trees = {"this code": THIS_TREE, **({"baseline": said.baseline.resolve()} if said.baseline else {})}
    work = Path(tempfile.mkdtemp(prefix="floor_close_bench-"))
    planted = {name: work / f"planted-{index}" for index, name in enumerate(trees)}
    for name, tree in trees.items():
        step(tree, planted[name], "plant", url, said.past)
    figures: dict[str, list[tuple[float, float, int]]] = {name: [] for name in trees}
    for _run in range(said.runs):
        for name, tree in trees.items():
            cache = work / "cache"
            shutil.rmtree(cache, ignore_errors=True)
            shutil.copytree(planted[name], cache)
            closed = float(step(tree, cache, "close", url, said.past).split()[1])
            _word, cpu, events, _tables = step(tree, cache, "restart", url, said.past).split()
            figures[name].append((closed, float(cpu), int(events)))
    shutil.rmtree(work)
    for name, runs in figures.items():
        closes, reads, folded = zip(*runs, strict=True)
        print(
            f"{name}: restarted floor's reading {statistics.median(reads) * 1000:.0f} ms CPU"
            f" ({min(reads) * 1000:.0f}-{max(reads) * 1000:.0f}), {folded[0]} events folded;"
            f" the close {statistics.median(closes) * 1000:.0f} ms CPU"
            f" ({min(closes) * 1000:.0f}-{max(closes) * 1000:.0f})"
        )


if __name__ == "__main__":
    main()
