"""The floor of benchmarks/cardroom_load.py: a process of its own running the floor window's reading
loop headless, and the floor dialog's shift report, phase by phase as the load script asks.

The script starts a baseline's floor as `python cardroom_floor.py URL [NICE]` (NICE: its CPU
priority, as `nice`), with the baseline tree first on PYTHONPATH, when the floor of other code is
to be compared in the same run (`--baseline`); its own code's floor it forks from its process, which
imported that code already (`main` on pipes, at the same priority). It speaks to each a line at a
time (`FloorProcess`, `relay_floors`). On its standard input: `catch up` (read the room once),
`follow` (follow the room until `stop`), `report SECONDS` (follow it, and print a shift report
that many seconds in), `stop`, `quit`. On its standard output: `ready TABLES FOLDER` once it has
read the room a first time (FOLDER: where its `ofc_desk` comes from), `caught up`, a JSON line of
the phase's figures after each `stop`, and `tables TABLES` at `quit`.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any, NoReturn, TextIO

from server_cost import Cost, ServerCost

import ofc_desk
from ofc_desk.reports import shift
from ofc_desk.reports.shift import ShiftReport, ShiftWindow
from ofc_desk.reports.shift_pdf import write_shift_report
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.oversight.floor import FloorReader, watch_changes
from ofc_desk.storage.database import Database

try:
    from ofc_desk.service.oversight.floor import ReadingPace
except ImportError:  # a baseline from before the floor's reading pace
    ReadingPace = None  # type: ignore[assignment, misc]

FLOOR_SCRIPT = Path(__file__).resolve()
THIS_CODE = "this code"
FLOOR_WAIT_SECONDS = 0.25
"""As the floor's `FloorWatcher`: the longest a wait for a change lasts."""
FLOOR_REFRESH_SECONDS = 30.0
"""As the floor's `FloorWatcher`: a reading is taken at least this often, notified or not."""


@dataclass(frozen=True)
class Phase:
    name: str
    paced: bool
    """At the dealer's pace; else flat out."""
    floor: str | None
    """Whose code the floor following the room runs (`THIS_CODE` or the baseline's); None: nobody
    reads the room."""
    report: bool = False
    """The floor prints a shift report part of the way through."""


def room_phases(baseline: str | None) -> tuple[Phase, ...]:
    """Nobody reading; the floor following; the floor following and reporting; flat out, the
    floor following and reporting. With a baseline, each paced floor phase is dealt first with the
    baseline's floor, then with this code's, in the same run."""
    floors = ([baseline] if baseline else []) + [THIS_CODE]
    return (
        Phase("paced", True, None),
        *(Phase(_named("paced+floor", floor), True, floor) for floor in floors),
        *(Phase(_named("paced+report", floor), True, floor, report=True) for floor in floors),
        Phase("flat+report", False, THIS_CODE, report=True),
    )


def _named(phase: str, floor: str) -> str:
    return phase if floor == THIS_CODE else f"{phase} ({floor})"


Timings = list[tuple[float, float]]


def follow(reader: FloorReader, watch: Any, stop: threading.Event, timings: Timings) -> None:
    """The loop of the floor's `FloorWatcher` without Qt: a reading whenever a table changed (the
    wait ends at a notification), at most as often as the code's `ReadingPace` allows (code from
    before it: at every notification), and at least every `FLOOR_REFRESH_SECONDS`. `timings` gets
    each reading's ms, wall and the thread's CPU."""
    pace = ReadingPace() if ReadingPace is not None else None
    changed, next_refresh = True, 0.0
    while not stop.is_set():
        if (changed and (pace is None or pace.may_read())) or time.monotonic() >= next_refresh:
            started, cpu_began = time.perf_counter(), time.thread_time()
            reader.read()
            timings.append(((time.perf_counter() - started) * 1000, (time.thread_time() - cpu_began) * 1000))
            next_refresh, changed = time.monotonic() + FLOOR_REFRESH_SECONDS, False
            if pace is not None:
                pace.took_reading()
        waiting = pace.wait_seconds(FLOOR_WAIT_SECONDS, changed) if pace is not None else FLOOR_WAIT_SECONDS
        changed = watch.wait(waiting) or changed


def verified_report(database: Database) -> tuple[ShiftReport, bool]:
    """The shift report as the floor's dialog and `ofc-desk report --shift` make it (`verify` with
    the shift's tables read in its walk, `verified_shift_report`), and True; a baseline from before
    that walk makes it as its floor did, `verify` then `shift_report`, and False."""
    one_walk = getattr(shift, "verified_shift_report", None)
    if one_walk is not None:
        return one_walk(database, ShiftWindow()), True
    verify_database(database)
    return shift.shift_report(database, ShiftWindow()), False


def report(
    database: Database, cost: ServerCost, stop: threading.Event, after: float, figures: dict[str, Any]
) -> None:
    """The floor dialog's shift report `after` seconds in, unless the phase ended first: `figures`
    gets its `ReportRun`'s fields. The process has other threads, so `verify` checks one session
    after another, as in the floor's dialog."""
    phase_began = time.perf_counter()
    if stop.wait(after):
        return
    began, cpu_began = time.perf_counter(), time.thread_time()
    cost.take()  # what the report's connections asked before it is not its cost
    made, one_walk = verified_report(database)
    verified, verify_cost = time.perf_counter(), cost.take()
    with tempfile.TemporaryFile() as pdf:
        write_shift_report(made, pdf)
    written = time.perf_counter()
    figures.update(
        began=began - phase_began,
        verified=verified - began,
        one_walk=one_walk,
        pdf=written - verified,
        cpu=time.thread_time() - cpu_began,
        verify_cost=verify_cost.as_list(),
    )


@dataclass(frozen=True)
class ReportRun:
    """One shift report: when it began (seconds into the phase), the seconds of its verified read
    (`verify` and the shift's tables, in one walk where the code makes it so), of writing the PDF,
    its thread's CPU seconds, and what the verified read cost at the server."""

    began: float
    verified: float
    one_walk: bool
    pdf: float
    cpu: float
    verify_cost: Cost

    @classmethod
    def from_json(cls, figures: dict[str, Any]) -> ReportRun:
        return cls(**{**figures, "verify_cost": Cost.from_list(figures["verify_cost"])})

    def said(self) -> str:
        walk = "in one walk" if self.one_walk else "verify, then the read"
        return (
            f"shift report from {self.began:.1f} s in: verify and read {self.verified:.2f} s ({walk}),"
            f" PDF {self.pdf:.2f} s (CPU {self.cpu:.2f} s)"
            f"\n  its cost at the server: verify and read {self.verify_cost.said()}"
        )


@dataclass(frozen=True)
class FloorRun:
    """What the floors report back, per phase one of them read in."""

    readings: dict[str, list[tuple[float, float]]]
    """ms of each reading of the room (`FloorReader.read`: heads, new events folded, the pool),
    wall and CPU."""
    cpu: dict[str, float]
    """CPU seconds of the floor's process (its reading and its report)."""
    report: dict[str, ReportRun]
    tables: int
    """Open tables in the floor's last reading."""
    code: dict[str, str]
    """Where each floor's `ofc_desk` was imported from."""


class _ForkedFloor:
    """This code's floor as a child forked from the load script's process, which imported the
    floor's code with its own (a fresh interpreter spent about a CPU-second importing it again):
    the parts of `subprocess.Popen` that `FloorProcess` uses, its standard input and output on
    pipes of its own."""

    def __init__(self, url: str, nice: int) -> None:
        floor_reads, to_floor = os.pipe()
        from_floor, floor_writes = os.pipe()
        sys.stdout.flush()  # the child would otherwise print again what this process has buffered
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(to_floor)
            os.close(from_floor)
            _run_forked(url, nice, floor_reads, floor_writes)
        os.close(floor_reads)
        os.close(floor_writes)
        self.stdin: TextIO | None = open(to_floor, "w", encoding="utf-8")  # noqa: SIM115 (kept open)
        self.stdout: TextIO | None = open(from_floor, encoding="utf-8")  # noqa: SIM115 (kept open)
        self.returncode: int | None = None

    def wait(self) -> int:
        if self.returncode is None:
            _pid, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            os.kill(self.pid, signal.SIGKILL)


def _run_forked(url: str, nice: int, reads: int, writes: int) -> NoReturn:
    """The forked floor's life: `main` on the pipes as its standard input and output, then out
    without running this process's exit handlers (they are the load script's)."""
    os.dup2(reads, 0)
    os.dup2(writes, 1)
    os.close(reads)
    os.close(writes)
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 (the process's own)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115 (the process's own)
    status = 1
    try:
        main(url, nice)
        status = 0
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


class FloorProcess:
    """A floor (benchmarks/cardroom_floor.py) running the code of `tree`, spoken to a line at a
    time: a fresh interpreter with `tree` first on its path, or, `forked`, a child of this process
    running this process's code (`tree` then names where that code is, for the caller)."""

    def __init__(self, url: str, tree: Path, nice: int = 0, *, forked: bool = False) -> None:
        self._process: subprocess.Popen[str] | _ForkedFloor
        if forked:
            self._process = _ForkedFloor(url, nice)
        else:
            self._process = subprocess.Popen(
                [sys.executable, str(FLOOR_SCRIPT), url, str(nice)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env={**os.environ, "PYTHONPATH": str(tree)},
            )
        _ready, _tables, self.code = self.receive().split(maxsplit=2)

    def send(self, line: str) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(line + "\n")
        self._process.stdin.flush()

    def receive(self) -> str:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            raise SystemExit(f"the floor ({FLOOR_SCRIPT.name}) failed: see its error above")
        return line.strip()

    def close(self) -> int:
        """Stop it; the tables of its last reading."""
        self.send("quit")
        tables = int(self.receive().split()[1])
        self._process.wait()
        return tables

    def kill(self) -> None:
        self._process.kill()
        self._process.wait()


def relay_floors(
    floors: dict[str, FloorProcess],
    phases: tuple[Phase, ...],
    report_after: tuple[float, float],
    start: Barrier,
    done: Barrier,
    finished: list[FloorRun],
) -> None:
    """Each phase's floor, started with the desks and stopped once all are done (in a thread of
    the script's process, which is the barriers' last party). Between phases, while the desks
    wait, the next phase's floor catches up with the room, as a floor open all along would have."""
    readings: dict[str, list[tuple[float, float]]] = {}
    cpu: dict[str, float] = {}
    report: dict[str, ReportRun] = {}
    try:
        for phase in phases:
            floor = floors[phase.floor] if phase.floor is not None else None
            if floor is not None:
                floor.send("catch up")
                floor.receive()
            start.wait()
            if floor is not None:
                after = report_after[0] if phase.paced else report_after[1]
                floor.send(f"report {after}" if phase.report else "follow")
            done.wait()
            if floor is not None:
                floor.send("stop")
                figures = json.loads(floor.receive())
                readings[phase.name] = [(wall, cpu) for wall, cpu in figures["readings"]]
                cpu[phase.name] = figures["cpu"]
                if figures["report"]:
                    report[phase.name] = ReportRun.from_json(figures["report"])
        tables = min(floor.close() for floor in floors.values())
        finished.append(FloorRun(readings, cpu, report, tables, {name: f.code for name, f in floors.items()}))
    except BaseException:
        start.abort()
        done.abort()
        raise


def main(url: str, nice: int) -> None:
    # A floor supervisor's machine is not the server's: on this shared one, a niced floor takes
    # only the CPU the desks and the server leave.
    os.nice(nice)
    database = Database(url, migrate=False)
    # The report has connections of its own (as the floor dialog's worker), so that its cost at
    # the server is counted apart from the readings'.
    report_database = Database(url, migrate=False)
    report_cost = ServerCost(report_database.engine)
    reader, watch = FloorReader(database), watch_changes(database)
    tables = len(reader.read().tables)  # the floor was open before the room started dealing
    print(f"ready {tables} {Path(ofc_desk.__file__).parent}", flush=True)
    for line in sys.stdin:
        asked = line.split()
        if asked[0] == "quit":
            break
        if asked[0] == "catch":  # up: read the room once, as a floor open all along has
            reader.read()
            print("caught up", flush=True)
            continue
        cpu_began, stop = time.process_time(), threading.Event()
        readings: list[tuple[float, float]] = []
        parts: dict[str, Any] = {}
        threads = [threading.Thread(target=follow, args=(reader, watch, stop, readings))]
        if asked[0] == "report":
            reporting = (report_database, report_cost, stop, float(asked[1]), parts)
            threads.append(threading.Thread(target=report, args=reporting))
        for thread in threads:
            thread.start()
        sys.stdin.readline()  # stop
        stop.set()
        for thread in threads:
            thread.join()
        figures = {"readings": readings, "cpu": time.process_time() - cpu_began, "report": parts}
        print(json.dumps(figures), flush=True)
    print(f"tables {len(reader.read().tables)}", flush=True)
    watch.close()
    database.dispose()
    report_database.dispose()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0)
