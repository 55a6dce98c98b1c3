"""What one PostgreSQL server holds: N desks recording at once (prints figures; not a test).

Each desk is its own process with its own table and its own connection, driving the real session
service (`TableService`), as a table machine does. Four phases: at a fast dealer's pace (one action
every `--pace` seconds per desk, 200 ms by default) with nobody else reading; at the same pace while
the floor follows the room live; at the same pace while the floor follows the room and prints a
shift report part of the way through; then flat out, the floor following and reporting. The floor
is a process of its own (benchmarks/cardroom_floor.py) running the floor window's reading loop
headless (`FloorReader.read` when `watch_changes` says a table changed, as often as `ReadingPace`
allows, and at least every 30 s, as the floor's `FloorWatcher` thread does), and its shift report
is the floor dialog's (`verified_shift_report`: `verify` with the shift's tables read in its walk,
as `ofc-desk report --shift`; then the PDF), in a thread beside its reading. With
`--baseline` each paced floor phase is dealt twice, first with the floor running another tree's
code, then this code's. Every action is timed from the call to its return, which comes only
once its event is committed: what the dealer waits for. Printed per phase: actions, events per
second for the room, p50/p99/max of that latency, and the events acknowledged in the phase that
were not stored (lost); and for the floor: its readings (how many, p50/p99/max, their time and CPU
in all), its process's CPU, and the report's parts and CPU, and what its verified read cost at
the server (`server_cost`: queries, rows, their time, the server processes' CPU).
`--floor-nice 19` runs the floors at the lowest CPU priority, as if on a machine of their own.
At the end `verify` runs over the whole database, and the events stored for each desk's session
are counted against the actions the desk had acknowledged: none may be missing and none doubled.

Usage: python benchmarks/cardroom_load.py --desks N[,N...] --hands H --db URL
       [--flat-out-hands H] [--pace 0.2] [--report-after SECONDS] [--baseline TREE|COMMIT]
       [--floor-nice N] [--probe-commits 300]
Give a dedicated database (e.g. `createdb -h 127.0.0.1 -U postgres cardroom_bench`; drop it
afterwards): the tables it records stay there, and verify reads all of them.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import statistics
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

import psycopg
from cardroom_floor import THIS_CODE, FloorProcess, FloorRun, Phase, relay_floors, room_phases
from service_bench import SEATS, generate_script
from sqlalchemy import event, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session
from verify_bench import baseline_tree

from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.table.commands import Settle, StartHand
from ofc_desk.service.table.games.ofc.commands import Place, Reveal
from ofc_desk.service.terms.setup import SeatSetup, TableRules, TableSetup
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event
from ofc_desk.storage.users import Role, list_users, sign_in

REPOSITORY = Path(__file__).resolve().parents[1]
WARM_UP_HANDS = 1
FANTASYLAND_SET_CARDS = 13
GOAL_DESKS, GOAL_PACE, GOAL_P99_MS = 24, 0.2, 20.0
ACTIONS_PER_HAND = 17
"""A three-handed pineapple hand: its start, 15 entries (a Fantasyland set is one) and its settlement."""

BENCH_DEALER, BENCH_PIN = "bench", "24682468"


@dataclass(frozen=True)
class DeskRun:
    """What one desk reports back: its session, the events it saw acknowledged, its timings."""

    session_id: int
    acknowledged: int
    seqs: dict[str, tuple[int, int]]
    """Per phase, the first and last sequence numbers of the events the desk saw acknowledged in it."""
    actions: dict[str, list[float]]
    """Per phase, ms from each action's call to its return (rules checked, event committed)."""
    commits: dict[str, list[float]]
    """Per phase, ms of each action's database transaction, from its first statement to COMMIT."""
    spans: dict[str, tuple[float, float]]
    """Per phase, when the desk began and finished it (time.time, shared by all processes)."""
    cpu: dict[str, float]
    """Per phase, the CPU seconds the desk's process used (in a real room: the desk's machine)."""


class _Timings:
    """Times the actions and, through SQLAlchemy's session events, their transactions."""

    def __init__(self, phases: tuple[Phase, ...]) -> None:
        self.phase = ""
        self.actions: dict[str, list[float]] = {phase.name: [] for phase in phases}
        self.commits: dict[str, list[float]] = {phase.name: [] for phase in phases}
        self._began = 0.0
        self.calls = 0
        event.listen(Session, "after_begin", self._transaction_began)
        event.listen(Session, "after_commit", self._transaction_committed)

    def _transaction_began(self, *_: object) -> None:
        self._began = time.perf_counter()

    def _transaction_committed(self, *_: object) -> None:
        if self.phase:
            self.commits[self.phase].append((time.perf_counter() - self._began) * 1000)

    def action(self, call: Callable[[], object]) -> None:
        started = time.perf_counter()
        call()
        self.calls += 1
        if self.phase:
            self.actions[self.phase].append((time.perf_counter() - started) * 1000)


def run_desk(
    url: str,
    table: str,
    phases: tuple[Phase, ...],
    hands: tuple[int, int],
    pace: float,
    offset: float,
    seed: int,
    start: Barrier,
    done: Barrier,
) -> DeskRun:
    counts = [hands[0] if phase.paced else hands[1] for phase in phases]
    script = iter(generate_script(WARM_UP_HANDS + sum(counts), seed=seed)["hands"])
    database = Database(url, migrate=False)
    setup = TableSetup(
        table,
        tuple(SeatSetup(seat["name"], seat["buy_in"]) for seat in SEATS),
        "Cy",
        TableRules(variant="pineapple", progressive=True),
    )
    timings = _Timings(phases)
    service = TableService.open(database, setup, sign_in(database, BENCH_DEALER, BENCH_PIN))
    # A desk that has dealt all evening has its connection and statement caches warm.
    for _ in range(WARM_UP_HANDS):
        _deal_hand(service, next(script)["actions"], _Pacer(0.0), timings)
    spans: dict[str, tuple[float, float]] = {}
    cpu: dict[str, float] = {}
    seqs: dict[str, tuple[int, int]] = {}
    for phase, count in zip((phase.name for phase in phases), counts, strict=True):
        gap = pace if phases[len(spans)].paced else 0.0
        # Every desk starts each phase together (the barrier is used again): a desk still dealing
        # at the pace must not share the server with desks already flat out.
        start.wait()
        if gap:
            # Dealers in a room do not act on one shared beat: each desk keeps its own, `offset` in.
            time.sleep(offset)
        timings.phase, began, clock, cpu_began = phase, time.time(), _Pacer(gap), time.process_time()
        first_seq = 2 + timings.calls  # the opening was seq 1; each call stores one event
        for _ in range(count):
            _deal_hand(service, next(script)["actions"], clock, timings)
        spans[phase], cpu[phase] = (began, time.time()), time.process_time() - cpu_began
        seqs[phase] = (first_seq, 1 + timings.calls)
        done.wait()  # the floor stops reading once every desk is done with the phase
    database.dispose()
    # Each call returned once its one event was committed; the opening was the first.
    acknowledged = 1 + timings.calls
    return DeskRun(service.session_id, acknowledged, seqs, timings.actions, timings.commits, spans, cpu)


class _Pacer:
    """Holds each action to its slot on a fixed beat; a late action goes at once, and the beat
    goes on from there (no burst to catch up)."""

    def __init__(self, gap: float) -> None:
        self.gap = gap
        self.next_slot = time.perf_counter()

    def wait(self) -> None:
        if self.gap <= 0:
            return
        delay = self.next_slot - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        self.next_slot = max(self.next_slot, time.perf_counter()) + self.gap


def _deal_hand(
    service: TableService, actions: list[dict[str, Any]], clock: _Pacer, timings: _Timings
) -> None:
    clock.wait()
    timings.action(partial(service.do, StartHand()))
    for action in actions:
        # A Fantasyland set is the only entry of 13 cards or more; asking the service for the
        # turn would add the desk's drawing work to this shared machine's load.
        entry = Reveal if len(action["cards"].split()) >= FANTASYLAND_SET_CARDS else Place
        clock.wait()
        timings.action(partial(service.do, entry(action["player"], action["cards"], action["rows"])))
    clock.wait()
    timings.action(partial(service.do, Settle()))


def _desk_main(args: tuple[Any, ...], results: Any) -> None:
    results.put(run_desk(*args))


def run_room(
    url: str,
    desks: int,
    phases: tuple[Phase, ...],
    trees: dict[str, Path],
    hands: tuple[int, int],
    pace: float,
    report_after: tuple[float, float],
    floor_nice: int = 0,
) -> tuple[list[DeskRun], FloorRun]:
    """Start `desks` processes and the floors together; each desk opens its own table first,
    then all deal at once, phase by phase."""
    run = uuid.uuid4().hex[:6]
    start, done = multiprocessing.Barrier(desks + 1), multiprocessing.Barrier(desks + 1)
    results: multiprocessing.Queue[DeskRun] = multiprocessing.Queue()
    processes = [
        multiprocessing.Process(
            target=_desk_main,
            args=(
                (
                    url,
                    f"Load {run} desk {n:02d}",
                    phases,
                    hands,
                    pace,
                    pace * n / desks,
                    1000 + n,
                    start,
                    done,
                ),
                results,
            ),
        )
        for n in range(desks)
    ]
    # This code's floor is forked from this process, which imported its code; a baseline's is a
    # fresh interpreter with that tree first on its path.
    floors = {
        name: FloorProcess(url, tree, floor_nice, forked=name == THIS_CODE) for name, tree in trees.items()
    }
    finished: list[FloorRun] = []
    relay = threading.Thread(target=relay_floors, args=(floors, phases, report_after, start, done, finished))
    try:
        for process in processes:
            process.start()
        relay.start()
        runs: list[DeskRun] = []
        while len(runs) < desks:
            try:
                runs.append(results.get(timeout=1))
            except queue.Empty:
                _fail_if_any_failed(processes)
                if not relay.is_alive() and not finished:
                    raise SystemExit("the floors failed: see the error above") from None
        relay.join()
        for process in processes:
            process.join()
    finally:
        for floor in floors.values():
            floor.kill()
    if not finished:
        raise SystemExit("the floors failed: see the error above")
    return runs, finished[0]


def _fail_if_any_failed(processes: list[multiprocessing.Process]) -> None:
    if any(process.exitcode for process in processes):
        for process in processes:
            process.kill()
        raise SystemExit("a desk or the floor failed: see its error above")


def percentile(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * fraction))]


@dataclass(frozen=True)
class PhaseFigures:
    actions: int
    events_per_second: float
    action_ms: tuple[float, float, float]
    """p50, p99 and max of action → return."""
    commit_ms: tuple[float, float, float]
    """p50, p99 and max of the action's database transaction."""
    desk_cpu_ms: float
    """CPU the desks' processes used per action (rules, hashing, SQLAlchemy, the driver)."""

    def line(self, phase: str, lost: int) -> str:
        action = " ".join(f"{figure:>6.1f}" for figure in self.action_ms)
        commit = " ".join(f"{figure:>6.1f}" for figure in self.commit_ms)
        return (
            f"{phase:<20} {self.actions:>7,} {self.events_per_second:>8.1f}   {commit}   {action}"
            f"   {self.desk_cpu_ms:>5.1f} {lost:>6}"
        )


HEADER = (
    f"{'phase':<20} {'actions':>7} {'events/s':>8}   {'commit: p50    p99    max':>20}"
    f"   {'action: p50    p99    max':>20}   desk CPU   lost"
)


def phase_figures(runs: list[DeskRun], phase: str) -> PhaseFigures:
    actions = sorted(t for run in runs for t in run.actions[phase])
    commits = sorted(t for run in runs for t in run.commits[phase])
    began = min(run.spans[phase][0] for run in runs)
    ended = max(run.spans[phase][1] for run in runs)
    rate = len(actions) / (ended - began) if actions else 0.0
    cpu_ms = sum(run.cpu[phase] for run in runs) * 1000 / len(actions) if actions else 0.0
    return PhaseFigures(len(actions), rate, spread(actions), spread(commits), cpu_ms)


def spread(sorted_values: list[float]) -> tuple[float, float, float]:
    """p50, p99 and max."""
    if not sorted_values:
        return (0.0, 0.0, 0.0)
    return (statistics.median(sorted_values), percentile(sorted_values, 0.99), sorted_values[-1])


@dataclass(frozen=True)
class EventCheck:
    """The events stored for the desks' sessions against the actions the desks saw acknowledged."""

    lost: dict[str, int]
    """Per phase, events acknowledged to a desk in it and not stored."""
    stored: int
    acknowledged: int
    duplicated: int
    unacknowledged: int
    """Events stored beyond the last one a desk saw acknowledged."""

    def line(self) -> str:
        return (
            f"events: {self.stored:,} stored for {self.acknowledged:,} acknowledged;"
            f" {sum(self.lost.values())} lost, {self.duplicated} duplicated,"
            f" {self.unacknowledged} unacknowledged"
        )


def check_events(database: Database, runs: list[DeskRun]) -> EventCheck:
    """Stored events per desk's session against the actions it saw acknowledged, phase by phase."""
    with database.session() as session:
        rows = session.execute(
            select(Event.session_id, Event.seq).where(Event.session_id.in_([run.session_id for run in runs]))
        ).all()
    stored: dict[int, list[int]] = {run.session_id: [] for run in runs}
    for session_id, seq in rows:
        stored[session_id].append(seq)
    lost = {phase: 0 for phase in runs[0].seqs}
    for run in runs:
        seqs = set(stored[run.session_id])
        for phase, (first, last) in run.seqs.items():
            lost[phase] += sum(1 for seq in range(first, last + 1) if seq not in seqs)
    return EventCheck(
        lost=lost,
        stored=len(rows),
        acknowledged=sum(run.acknowledged for run in runs),
        duplicated=sum(len(seqs) - len(set(seqs)) for seqs in stored.values()),
        unacknowledged=sum(
            sum(1 for seq in stored[run.session_id] if seq > run.acknowledged) for run in runs
        ),
    )


def server_floor(url: str, commits: int = 300) -> str:
    """The server's own cost of a durable commit, measured the same way in the same run: one
    connection inserting a row into a plain table and committing, with nothing else of ours going
    on. What an action costs above this is the desk's work and the machine's load."""
    libpq = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    timings = []
    with psycopg.connect(libpq) as connection:
        connection.execute("CREATE TABLE cardroom_load_probe (id SERIAL PRIMARY KEY, note TEXT)")
        connection.commit()
        try:
            for _ in range(commits):
                started = time.perf_counter()
                connection.execute("INSERT INTO cardroom_load_probe (note) VALUES ('probe')")
                connection.commit()
                timings.append((time.perf_counter() - started) * 1000)
        finally:
            connection.execute("DROP TABLE cardroom_load_probe")
            connection.commit()
    timings.sort()
    return (
        f"server floor: INSERT + COMMIT on one idle connection, {commits} times:"
        f" p50 {statistics.median(timings):.2f} ms, p99 {percentile(timings, 0.99):.2f} ms"
        f" (load average {os.getloadavg()[0]:.2f})"
    )


def _ensure_bench_accounts(url: str) -> None:
    """The dealer every desk signs in as (their key signs each settlement), approved by a floor
    supervisor: made once, on the first run against the database."""
    database = Database(url)
    if not list_users(database):
        create_accounts(
            database, [("bench-floor", Role.SUPERVISOR, BENCH_PIN), (BENCH_DEALER, Role.DEALER, BENCH_PIN)]
        )
    database.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--desks", default="24", help="desks at once; a list (1,4,8) runs each in turn")
    parser.add_argument("--hands", type=int, default=3, help="hands per desk in each paced phase")
    parser.add_argument("--flat-out-hands", type=int, help="hands per desk flat out (default: --hands)")
    parser.add_argument("--pace", type=float, default=0.2, help="seconds between a desk's actions")
    parser.add_argument(
        "--report-after",
        type=float,
        help="seconds into each report phase the shift report begins (default: halfway through a"
        " paced phase's beats; 1 s into the flat-out one)",
    )
    parser.add_argument(
        "--baseline",
        metavar="TREE|COMMIT",
        help="also deal the paced floor phases with the floor running this code (a checkout, or a"
        " commit exported with git archive), before this code's, in the same run",
    )
    parser.add_argument(
        "--floor-nice",
        type=int,
        default=0,
        metavar="N",
        help="run the floors at this CPU priority (as `nice`; 19: they take only the CPU the desks and"
        " the server leave, as a floor supervisor's own machine would take none of theirs)",
    )
    parser.add_argument(
        "--probe-commits",
        type=int,
        default=300,
        metavar="N",
        help="commits the server's own cost of a durable commit is measured over (`server floor`)",
    )
    parser.add_argument("--db", required=True, metavar="URL", help="a dedicated PostgreSQL database")
    args = parser.parse_args()
    hands = (args.hands, args.hands if args.flat_out_hands is None else args.flat_out_hands)
    halfway = hands[0] * ACTIONS_PER_HAND * args.pace / 2
    report_after = (halfway, 1.0) if args.report_after is None else (args.report_after,) * 2
    trees = {THIS_CODE: REPOSITORY}
    baseline = None
    if args.baseline:
        # Named as given, a checkout by its folder's name.
        baseline = Path(args.baseline).name if Path(args.baseline).is_dir() else args.baseline
        trees[baseline] = baseline_tree(args.baseline)
    phases = room_phases(baseline)
    _ensure_bench_accounts(args.db)  # migrated once, with the accounts, before the desks start
    shown = make_url(args.db).render_as_string(hide_password=True)
    print(f"card room load on {shown}: per desk {WARM_UP_HANDS} hand to warm up, then {hands[0]} hands")
    print(f"in each phase at a dealer's pace (an action every {args.pace * 1000:.0f} ms): with nobody")
    print("reading (paced), with the floor following the room live as its window does (paced+floor), with")
    print("the floor following and printing a shift report (verified read, PDF)")
    print(f"{report_after[0]:.1f} s in (paced+report); then {hands[1]} flat out, the floor following and its")
    print(f"report {report_after[1]:.1f} s in (flat+report). A phase named after a tree: that tree's floor.")
    print("Times in ms: commit = the action's database transaction, first statement to COMMIT returned;")
    print("action = the service call, rules checked and event committed (what the dealer waits for).")
    print("desk CPU = CPU time of the desks' processes per action (on this one machine, shared);")
    print("lost = events acknowledged to a desk in the phase and not stored.")
    print(server_floor(args.db, args.probe_commits))
    curve = [
        (desks, *one_run(args.db, desks, phases, trees, hands, args.pace, report_after, args.floor_nice))
        for desks in map(int, args.desks.split(","))
    ]
    paced = [phase.name for phase in phases if phase.paced]
    print("\ncurve: desks; action p99: " + ", ".join(paced) + "; flat-out commit p99, events/s; load")
    for desks, figures, load in curve:
        p99s = " ".join(f"{figures[phase].action_ms[1]:>8.1f}" for phase in paced)
        flat = figures[phases[-1].name]
        print(f"{desks:>5} {p99s} {flat.commit_ms[1]:>8.1f} {flat.events_per_second:>8.1f} {load:>6.2f}")


def one_run(
    url: str,
    desks: int,
    phases: tuple[Phase, ...],
    trees: dict[str, Path],
    hands: tuple[int, int],
    pace: float,
    report_after: tuple[float, float],
    floor_nice: int = 0,
) -> tuple[dict[str, PhaseFigures], float]:
    load_before = os.getloadavg()[0]
    runs, floor = run_room(url, desks, phases, trees, hands, pace, report_after, floor_nice)
    load_after = os.getloadavg()[0]
    plural = "s" if desks != 1 else ""
    print(f"\n{desks} desk{plural}; load average {load_before:.2f} before, {load_after:.2f} after")
    for name, code in floor.code.items():
        print(f"floor of {name}: ofc_desk from {code}")
    database = Database(url, migrate=False)
    events = check_events(database, runs)
    print(HEADER)
    figures = {phase.name: phase_figures(runs, phase.name) for phase in phases}
    for name, phase_figure in figures.items():
        print(phase_figure.line(name, events.lost[name]))
    for phase in phases:
        if phase.floor is not None:
            print(floor_line(floor, phase))
    print(events.line())
    started = time.perf_counter()
    print(f"{verify_database(database).line()} ({time.perf_counter() - started:.1f} s)")
    database.dispose()
    if desks == GOAL_DESKS and pace <= GOAL_PACE:
        for phase in phases:
            if phase.paced:
                p99 = figures[phase.name].action_ms[1]
                verdict = "met" if p99 < GOAL_P99_MS and events.lost[phase.name] == 0 else "NOT met"
                goal = (
                    f"{GOAL_DESKS} desks at a dealer's pace ({phase.name}): action p99 < {GOAL_P99_MS:.0f} ms"
                )
                print(f"goal: {goal}, 0 lost: {verdict}")
    return figures, load_after


def floor_line(floor: FloorRun, phase: Phase) -> str:
    """The floor's readings and report in one phase."""
    readings = floor.readings.get(phase.name, [])
    said = f"floor, {phase.name}: {len(readings)} readings of {floor.tables} tables"
    if readings:
        p50, p99, most = spread(sorted(wall for wall, _cpu in readings))
        cpu = sum(cpu for _wall, cpu in readings)
        said += f", p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {most:.1f} ms"
        said += f", {sum(wall for wall, _cpu in readings) / 1000:.2f} s in all"
        said += f" (CPU {cpu / 1000:.2f} s, {cpu / len(readings):.1f} ms a reading)"
    said += f"; floor CPU {floor.cpu.get(phase.name, 0.0):.2f} s"
    if phase.name in floor.report:
        run = floor.report[phase.name]
        said += f"; {run.said()}"
    elif phase.report:
        said += "; the phase ended before its shift report began"
    return said


if __name__ == "__main__":
    main()
