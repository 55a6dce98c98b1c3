"""What one sign-in costs (prints figures; not part of the test suite): wall and CPU milliseconds,
SQL statements and transactions per `users.sign_in`, SQLite and PostgreSQL (issue 39.4).

Two accounts are made before the clock starts (a supervisor and a dealer, PINs at the product's
scrypt cost), then `--sign-ins` rounds of four tries, each timed alone: the dealer's right PIN, the
supervisor's as a supervisor (what every approval asks), the dealer's wrong PIN (counted by the
lockout; the dealer's next right PIN ends the count), and the dealer's right PIN once more with the
accounts chain not yet checked by this process (`users._CHECKED` emptied: a desk's first sign-in
after its launch, or after another desk changed an account). Statements are counted by an
SQLAlchemy `before_cursor_execute` listener, transactions by its `commit` and `rollback` ones. The
scrypt run a PIN check makes is timed alone too (best of the same number of runs): what no change
here moves, and what the CPU figures are printed beside (each try runs scrypt once).

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
from action_cost_bench import fresh_database
from verify_bench import baseline_tree, printed_in

from tests.helpers.ofc_test_databases import DEFAULT_POSTGRES_URL

KINDS = ("dealer", "supervisor", "wrong PIN", "unchecked chain")

# Run in a child with a tree first on sys.path; prints, for each kind of try in KINDS' order,
# "<median wall ms> <median CPU ms> <statements> <transactions>", then a scrypt run's median CPU ms.
ROUND = """
import secrets, statistics, sys, time
from sqlalchemy import event
from ofc_desk.storage import keys, users
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, SignInError, sign_in
database = Database(sys.argv[1])
create_accounts(database, [("Sam", Role.SUPERVISOR, "98769876"), ("Dana", Role.DEALER, "1234")])
counted = {"statements": 0, "transactions": 0}
def statement(*_):
    counted["statements"] += 1
def transaction(*_):
    counted["transactions"] += 1
event.listen(database.engine, "before_cursor_execute", statement)
event.listen(database.engine, "commit", transaction)
event.listen(database.engine, "rollback", transaction)
def wrong():
    try:
        sign_in(database, "Dana", "0000")
    except SignInError:
        return
    raise AssertionError("a wrong PIN signed in")
def unchecked():
    users._CHECKED.clear()
    sign_in(database, "Dana", "1234")
tries = {
    "dealer": lambda: sign_in(database, "Dana", "1234"),
    "supervisor": lambda: sign_in(database, "Sam", "98769876", Role.SUPERVISOR),
    "wrong PIN": wrong,
    "unchecked chain": unchecked,
}
figures = {kind: [] for kind in tries}
sign_in(database, "Dana", "1234")  # the connection made and the chain checked once, untimed
for _ in range(int(sys.argv[3])):
    for kind, attempt in tries.items():
        counted.update(statements=0, transactions=0)
        wall, cpu = time.perf_counter(), time.process_time()
        attempt()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        figures[kind].append((wall, cpu, counted["statements"], counted["transactions"]))
database.dispose()
for runs in figures.values():
    scales = enumerate((1000, 1000, 1, 1))
    print(*(statistics.median(run[column] for run in runs) * scale for column, scale in scales))
salt, (n, r, p) = secrets.token_bytes(16), keys.scrypt_cost()
scrypt = []
for _ in range(int(sys.argv[3])):
    started = time.process_time()
    keys.pin_scrypt("1234", salt, n, r, p)
    scrypt.append(time.process_time() - started)
print(statistics.median(scrypt) * 1000)
"""

Round = list[tuple[float, float, float, float]]
"""For each kind of try: median wall ms, median CPU ms, statements, transactions; then a scrypt
run's CPU ms alone, as a row of its own."""


def signed_in(tree: Path, url: str, sign_ins: int) -> Round:
    printed = [float(word) for word in printed_in(tree, ROUND, url, str(tree), str(sign_ins))]
    rows = [tuple(printed[index : index + 4]) for index in range(0, 4 * len(KINDS), 4)]
    return [(row[0], row[1], row[2], row[3]) for row in rows] + [(printed[-1], 0.0, 0.0, 0.0)]


def report(backend: str, label: str, rounds: list[Round]) -> list[float]:
    """Each kind's median wall ms over the rounds, printed with its CPU (and that beside its scrypt
    run), statements and transactions; the CPU ms beside scrypt are returned."""
    scrypt = statistics.median(r[-1][0] for r in rounds)
    print(f"{backend}, {label} (a scrypt run alone: {scrypt:.1f} ms CPU):")
    besides = []
    for index, kind in enumerate(KINDS):
        wall = statistics.median(r[index][0] for r in rounds)
        cpu = statistics.median(r[index][1] for r in rounds)
        each = ", ".join(f"{r[index][0]:.1f}" for r in rounds)
        statements, transactions = rounds[0][index][2], rounds[0][index][3]
        print(
            f"  {kind}: {wall:.1f} ms (rounds: {each}), {cpu:.1f} ms CPU ({cpu - scrypt:.2f} beside"
            f" scrypt), {statements:g} statements, {transactions:g} transactions"
        )
        besides.append(cpu - scrypt)
    return besides


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sign-ins", type=int, default=40, help="rounds of the four tries in a process")
    parser.add_argument("--rounds", type=int, default=3)
    server = os.environ.get("OFC_DESK_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)
    parser.add_argument("--postgres-url", default=server, help="the server a new schema a round is made in")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    parser.add_argument("--baseline", help="a checkout, or a commit, of the code to compare against")
    args = parser.parse_args()
    tree = Path(__file__).resolve().parents[1]
    trees = {"this tree": tree}
    if args.baseline:
        trees[f"{args.baseline} ({baseline_tree(args.baseline)})"] = baseline_tree(args.baseline)
    backends = ["sqlite"] if args.no_postgres else ["sqlite", "postgresql"]
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
            ours, theirs = figures
            pairs = zip(KINDS, ours, theirs, strict=True)
            ratios = ", ".join(f"{kind} {their / our:.2f}x" for kind, our, their in pairs)
            print(f"{backend}: the baseline's CPU beside scrypt over this tree's: {ratios}")


if __name__ == "__main__":
    main()
