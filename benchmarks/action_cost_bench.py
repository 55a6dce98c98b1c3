"""What one dealer's entry costs the desk's process to commit (prints figures; not part of the test
suite): CPU seconds per entry and per hand, SQLite and PostgreSQL (issue 39.2: 24 desks, action →
committed p99 under 20 ms at the dealer's pace while the floor reads).

A signed-in dealer plays `--hands` hands of three-handed progressive pineapple at a desk that holds
the table (`desk_holds`), each entry through `TableService.do`, which returns once the event, its
derived rows, its entry mark and any signature are committed; durable, as a desk runs. A fresh
process and a fresh database (a SQLite file in the temp folder, a new PostgreSQL schema) a round;
the accounts and the opening are made before the clock starts. CPU is the desk process's own
(time.process_time around each `do`): SQLite's work is in it, the PostgreSQL server's is not. The
statements each `do` sends are counted too (SQLAlchemy's `before_cursor_execute`, which sees
neither BEGIN nor COMMIT unless sent as a statement; the listener costs both trees alike), and
the median wall time of an entry (time.perf_counter: the server's work and the round trips in it).

With `--baseline TREE|COMMIT` (as `verify_bench.py`'s), that code plays the same hands in turn
with this one, round for round, and the ratio of the two is printed.

Usage: python benchmarks/action_cost_bench.py [--hands 20] [--rounds 3] [--postgres-url URL]
[--no-postgres] [--baseline TREE|COMMIT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import repository_root  # noqa: F401 - the root on sys.path, for tests.helpers
from service_bench import generate_script
from verify_bench import baseline_tree, printed_in

from tests.helpers.ofc_test_databases import DEFAULT_POSTGRES_URL, drop_schema, new_schema

# Run in a child with a tree first on sys.path; prints "<entries> <entries' CPU> <hands> <all CPU>
# <entries' statements> <all statements> <an entry's median wall time>".
ROUND = """
import json, statistics, sys, time
from sqlalchemy import event
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.room.desk_holds import ThisDesk
from ofc_desk.service.table.commands import Settle, StartHand
from ofc_desk.service.table.games.ofc.commands import Place, Reveal
from ofc_desk.service.table.games.ofc.view_parts import OfcSeatView
from ofc_desk.service.terms.setup import SeatSetup, TableRules, TableSetup
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role
database = Database(sys.argv[1])
script = json.loads(open(sys.argv[3]).read())
_, dealer = create_accounts(database, [("Sam", Role.SUPERVISOR, "98769876"), ("Dana", Role.DEALER, "1234")])
seats = tuple(SeatSetup(seat["name"], seat["buy_in"]) for seat in script["seats"])
setup = TableSetup("Bench", seats, script["button"], TableRules(variant="pineapple", progressive=True))
service = TableService.open(database, setup, dealer, ThisDesk.here())
entries, entries_cpu, all_cpu, walls = 0, 0.0, 0.0, []
sent = [0]
event.listen(database.engine, "before_cursor_execute", lambda *_: sent.__setitem__(0, sent[0] + 1))
def timed(command):
    started = time.process_time()
    service.do(command)
    return time.process_time() - started
entries_sent = 0
for hand in script["hands"]:
    all_cpu += timed(StartHand())
    for action in hand["actions"]:
        fantasyland = OfcSeatView.of(service.snapshot().seat(action["player"])).fantasyland_cards
        before, wall = sent[0], time.perf_counter()
        cost = timed((Reveal if fantasyland else Place)(action["player"], action["cards"], action["rows"]))
        walls.append(time.perf_counter() - wall)
        entries, entries_cpu, all_cpu = entries + 1, entries_cpu + cost, all_cpu + cost
        entries_sent += sent[0] - before
    all_cpu += timed(Settle())
database.dispose()
print(entries, entries_cpu, len(script["hands"]), all_cpu, entries_sent, sent[0], statistics.median(walls))
"""

Round = tuple[float, float, float, float, float]
"""CPU milliseconds per entry, and per hand (its start, its entries and its settlement); then the
statements sent per entry and per hand; then an entry's median wall milliseconds."""


@contextmanager
def fresh_database(backend: str, postgres_url: str) -> Iterator[str]:
    """The URL of a new, empty database for one round, removed after it."""
    if backend == "postgresql":
        url = new_schema(postgres_url, durable=True)
        try:
            yield url
        finally:
            drop_schema(url)
        return
    with tempfile.TemporaryDirectory(prefix="ofc_action_cost_") as folder:
        yield f"sqlite:///{Path(folder) / 'desk.db'}"


def played_in(tree: Path, url: str, script: Path) -> Round:
    entries, entries_cpu, hands, all_cpu, entries_sent, all_sent, wall = printed_in(
        tree, ROUND, url, str(tree), str(script)
    )
    cpu = float(entries_cpu) * 1000 / int(entries), float(all_cpu) * 1000 / int(hands)
    sent = int(entries_sent) / int(entries), (int(all_sent) - int(entries_sent)) / int(hands)
    return *cpu, *sent, float(wall) * 1000


def report(label: str, rounds: list[Round]) -> tuple[float, float]:
    """Median CPU ms per entry and per hand over the rounds (each round's in brackets), with the
    statements an entry and a hand's start and settlement send (the same every round) and the
    median over the rounds of an entry's median wall time."""
    entry = statistics.median(round[0] for round in rounds)
    hand = statistics.median(round[1] for round in rounds)
    wall = statistics.median(round[4] for round in rounds)
    each = ", ".join(f"{round[0]:.2f}" for round in rounds)
    sent = f"{rounds[0][2]:.2f} statements an entry, {rounds[0][3]:.1f} a hand's start and settlement"
    print(f"{label}: {entry:.2f} ms CPU an entry (rounds: {each}), {hand:.1f} ms CPU a hand; {sent}")
    print(f"{label}: {wall:.2f} ms wall an entry (median)")
    return entry, hand


def add_compared_options(parser: argparse.ArgumentParser) -> None:
    """The options a benchmark of both backends, beside a baseline, takes."""
    parser.add_argument("--rounds", type=int, default=3)
    server = os.environ.get("OFC_DESK_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)
    parser.add_argument("--postgres-url", default=server, help="the server a new schema a round is made in")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    parser.add_argument("--baseline", help="a checkout, or a commit, of the code to compare against")


def compared(args: argparse.Namespace) -> tuple[dict[str, Path], list[str]]:
    """The trees to run (this one, and the baseline's when given) and the backends, by label."""
    trees = {"this tree": Path(__file__).resolve().parents[1]}
    if args.baseline:
        trees[f"{args.baseline} ({baseline_tree(args.baseline)})"] = baseline_tree(args.baseline)
    return trees, ["sqlite"] if args.no_postgres else ["sqlite", "postgresql"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    add_compared_options(parser)
    args = parser.parse_args()
    trees, backends = compared(args)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(generate_script(args.hands, seed=11), file)
    rounds: dict[tuple[str, str], list[Round]] = {(b, t): [] for b in backends for t in trees}
    try:
        for _ in range(args.rounds):  # the trees in turn, round for round: the same machine load
            for backend in backends:
                for label, code in trees.items():
                    with fresh_database(backend, args.postgres_url) as url:
                        rounds[backend, label].append(played_in(code, url, Path(file.name)))
    finally:
        os.unlink(file.name)
    print(f"{args.hands} hands, {args.rounds} rounds, load average {os.getloadavg()[0]:.1f}")
    for backend in backends:
        figures = [report(f"{backend}, {label}", rounds[backend, label]) for label in trees]
        if len(figures) == 2:
            (entry, hand), (their_entry, their_hand) = figures
            print(f"{backend}: {their_entry / entry:.2f}x less CPU an entry, {their_hand / hand:.2f}x a hand")


if __name__ == "__main__":
    main()
