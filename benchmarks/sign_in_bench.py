"""What one sign-in costs (prints figures; not part of the test suite): wall and CPU milliseconds,
SQL statements and transactions per `users.sign_in`, SQLite and PostgreSQL (issue 39.4).

Two accounts are made before the clock starts (a supervisor and a dealer, PINs at the product's
scrypt cost), then `--sign-ins` rounds of five tries, each timed alone: the dealer's right PIN, the
supervisor's as a supervisor (what every approval asks), the dealer's wrong PIN (counted by the
lockout; the dealer's next right PIN ends the count), the dealer's right PIN with the accounts chain
not yet checked by this process (`users._CHECKED` emptied: after another desk changed an account),
and the same on a `Database` just opened (a new engine, which compiles each statement SQLAlchemy
builds once: a desk's first sign-in after its launch, or each test's database). Statements are counted by an
SQLAlchemy `before_cursor_execute` listener, transactions by its `commit` and `rollback` ones. The
scrypt run each try makes (at the product's cost: what no change here moves, most of a try's time)
is timed where it is made, and the figures are printed with it and beside it.

With `--baseline TREE|COMMIT` (as `action_cost_bench.py`'s), that code signs in the same way in
turn with this one, round for round, a fresh process and a fresh database each.

Usage: python benchmarks/sign_in_bench.py [--sign-ins 40] [--rounds 3] [--postgres-url URL]
[--no-postgres] [--baseline TREE|COMMIT]
"""

from __future__ import annotations

import argparse
import os
import statistics
from pathlib import Path

import repository_root  # noqa: F401 - the root on sys.path, for tests.helpers
from action_cost_bench import add_compared_options, compared, fresh_database
from verify_bench import printed_in

KINDS = ("dealer", "supervisor", "wrong PIN", "unchecked chain", "new engine")
FIGURES = 6
"""What the child prints for each kind of try."""

# Run in a child with a tree first on sys.path; prints, for each kind of try in KINDS' order, the
# medians of "<wall ms> <CPU ms> <wall ms beside scrypt> <CPU ms beside scrypt> <statements>
# <transactions>", then a scrypt run's median wall ms. Every scrypt run is timed where it is made
# (`keys.pin_scrypt`, which both trees call through its module) and taken off its try's figures.
ROUND = """
import statistics, sys, time
from sqlalchemy import event
from ofc_desk.storage import keys, users
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, SignInError, sign_in
database = Database(sys.argv[1])
create_accounts(database, [("Sam", Role.SUPERVISOR, "98769876"), ("Dana", Role.DEALER, "1234")])
counted = {"statements": 0, "transactions": 0, "scrypt wall": 0.0, "scrypt CPU": 0.0}
def statement(*_):
    counted["statements"] += 1
def transaction(*_):
    counted["transactions"] += 1
def listened(opened):
    event.listen(opened.engine, "before_cursor_execute", statement)
    event.listen(opened.engine, "commit", transaction)
    event.listen(opened.engine, "rollback", transaction)
    return opened
listened(database)
product_scrypt, scrypt_walls = keys.pin_scrypt, []
def timed_scrypt(*arguments):
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        return product_scrypt(*arguments)
    finally:
        scrypt_walls.append(time.perf_counter() - wall)
        counted["scrypt wall"] += scrypt_walls[-1]
        counted["scrypt CPU"] += time.process_time() - cpu
keys.pin_scrypt = timed_scrypt
def wrong(signing):
    try:
        sign_in(signing, "Dana", "0000")
    except SignInError:
        return
    raise AssertionError("a wrong PIN signed in")
def unchecked():
    users._CHECKED.clear()
    return database
def opened_anew():
    users._CHECKED.clear()
    return listened(Database(sys.argv[1]))
tries = {  # kind: (what is done before the clock starts, giving the database; the try)
    "dealer": (lambda: database, lambda signing: sign_in(signing, "Dana", "1234")),
    "supervisor": (lambda: database, lambda signing: sign_in(signing, "Sam", "98769876", Role.SUPERVISOR)),
    "wrong PIN": (lambda: database, wrong),
    "unchecked chain": (unchecked, lambda signing: sign_in(signing, "Dana", "1234")),
    "new engine": (opened_anew, lambda signing: sign_in(signing, "Dana", "1234")),
}
figures = {kind: [] for kind in tries}
sign_in(database, "Dana", "1234")  # the connection made and the chain checked once, untimed
for _ in range(int(sys.argv[3])):
    for kind, (prepare, attempt) in tries.items():
        signing = prepare()
        counted.update({name: 0 for name in counted})
        wall, cpu = time.perf_counter(), time.process_time()
        attempt(signing)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        beside = (wall - counted["scrypt wall"], cpu - counted["scrypt CPU"])
        figures[kind].append((wall, cpu, *beside, counted["statements"], counted["transactions"]))
        if signing is not database:
            signing.dispose()
database.dispose()
for runs in figures.values():
    scales = enumerate((1000, 1000, 1000, 1000, 1, 1))
    print(*(statistics.median(run[column] for run in runs) * scale for column, scale in scales))
print(statistics.median(scrypt_walls) * 1000)
"""

Round = list[tuple[float, ...]]
"""For each kind of try, the child's figures (`ROUND`); then a scrypt run's wall ms, a row of its own."""


def signed_in(tree: Path, url: str, sign_ins: int) -> Round:
    printed = [float(word) for word in printed_in(tree, ROUND, url, str(tree), str(sign_ins))]
    rows = [tuple(printed[index : index + FIGURES]) for index in range(0, FIGURES * len(KINDS), FIGURES)]
    return [*rows, (printed[-1],)]


def report(backend: str, label: str, rounds: list[Round]) -> list[tuple[float, float]]:
    """Each kind's medians over the rounds, printed; its wall and CPU ms beside scrypt returned."""
    scrypt = statistics.median(r[-1][0] for r in rounds)
    print(f"{backend}, {label} (a scrypt run: {scrypt:.1f} ms):")
    besides = []
    for index, kind in enumerate(KINDS):
        wall, cpu, wall_beside, cpu_beside = (
            statistics.median(r[index][column] for r in rounds) for column in range(4)
        )
        each = ", ".join(f"{r[index][2]:.2f}" for r in rounds)
        statements, transactions = rounds[0][index][4], rounds[0][index][5]
        print(
            f"  {kind}: {wall:.1f} ms, {wall_beside:.2f} beside scrypt (rounds: {each});"
            f" CPU {cpu:.1f} ms, {cpu_beside:.2f} beside scrypt;"
            f" {statements:g} statements, {transactions:g} transactions"
        )
        besides.append((wall_beside, cpu_beside))
    return besides


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sign-ins", type=int, default=40, help="rounds of the five tries in a process")
    add_compared_options(parser)
    args = parser.parse_args()
    trees, backends = compared(args)
    rounds: dict[tuple[str, str], list[Round]] = {(b, t): [] for b in backends for t in trees}
    for _ in range(args.rounds):  # the trees in turn, round for round: the same machine load
        for backend in backends:
            for label, code in trees.items():
                with fresh_database(backend, args.postgres_url) as url:
                    rounds[backend, label].append(signed_in(code, url, args.sign_ins))
    print(f"{args.sign_ins} of each try a round, {args.rounds} rounds, load average {os.getloadavg()[0]:.1f}")
    for backend in backends:
        figures = [report(backend, label, rounds[backend, label]) for label in trees]
        if len(figures) == 2:
            pairs = zip(KINDS, *figures, strict=True)
            ratios = ", ".join(
                f"{kind} {their[0] / our[0]:.2f}x wall, {their[1] / our[1]:.2f}x CPU"
                for kind, our, their in pairs
            )
            print(f"{backend}: the baseline's figures beside scrypt over this tree's: {ratios}")


if __name__ == "__main__":
    main()
