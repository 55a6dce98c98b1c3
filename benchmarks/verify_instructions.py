"""`verify`'s instructions a hand, counted by callgrind: steady on a loaded machine, where CPU
seconds are not (prints figures; not part of the test suite).

Checks sessions of a room `verify_bench.py` built (`--db`), as a pool worker checks each
(`verify_session.check_session`), in a child process under `valgrind --tool=callgrind` that counts
only the checks: the first session is checked once before, uncounted (first-use caches, compiled
statements), then the next `--sessions` are counted. With `--baseline TREE`, the same sessions by
that tree's code, in a child of its own, and the ratio of the two.

Usage: python benchmarks/verify_instructions.py --db FILE [--sessions 2] [--baseline TREE]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# Run in the child, the tree first on sys.path; only what `eval` runs is counted (callgrind's
# --toggle-collect on CPython's `eval`), so start-up and the warm-up are not.
COUNTED = """
import gc, sys
from pathlib import Path
from sqlalchemy import select
import ofc_desk
from ofc_desk.service.audit.verify import read_accounts_in
from ofc_desk.service.audit.verify_session import check_session
from ofc_desk.storage.existing_room import open_existing
from ofc_desk.storage.models import TableSession
assert Path(ofc_desk.__file__).resolve().is_relative_to(Path(sys.argv[3]).resolve()), ofc_desk.__file__
database = open_existing(sys.argv[1])
gc.disable()
with database.snapshot() as snapshot:
    rows = snapshot.scalars(select(TableSession).order_by(TableSession.id)).all()[: int(sys.argv[2]) + 1]
    accounts = read_accounts_in(snapshot)
    supervisors = accounts.ever_supervisors()
    check_session(snapshot, rows[0], supervisors, accounts)
    def counted():
        return sum(len(check_session(snapshot, row, supervisors, accounts).hands) for row in rows[1:])
    print(eval("counted()"))
"""


def instructions(tree: Path, url: str, sessions: int) -> tuple[int, int]:
    """Hands checked and the instructions counted, by `tree`'s code."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--collect-atstart=no",
                "--toggle-collect=builtin_eval",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-c",
                COUNTED,
                url,
                str(sessions),
                str(tree),
            ],
            # One hash seed for every run: a set's or a dict's order, and so a count, can move with it.
            env={**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"},
            cwd=tree,
            check=True,
            capture_output=True,
            text=True,
        )
        counted = re.search(r"Collected : (\d+)", done.stderr)
        assert counted is not None, done.stderr
        return int(done.stdout.split()[-1]), int(counted.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="a room built by verify_bench.py")
    parser.add_argument("--sessions", type=int, default=2, help="sessions counted after the first")
    parser.add_argument("--baseline", type=Path, help="a checkout of the code to compare against")
    args = parser.parse_args()
    url, tree = f"sqlite:///{args.db}", Path(__file__).resolve().parents[1]
    trees = [("this code", tree)] + ([(f"{args.baseline}", args.baseline)] if args.baseline else [])
    per_hand = []
    for label, where in trees:
        hands, counted = instructions(where, url, args.sessions)
        per_hand.append(counted / hands)
        print(
            f"{label}: {hands} hands, {counted:,} instructions = {counted / hands / 1e6:.3f} million a hand"
        )
    if len(per_hand) == 2:
        over = per_hand[1] / per_hand[0]
        print(f"ratio: {over:.3f}x (the instructions a hand of {args.baseline} over this code's)")


if __name__ == "__main__":
    main()
