"""Three costs a desk or a command paid for nothing (issue 39.3/39.4), this code beside another tree's
(prints figures; not part of the test suite).

Each part runs in a child process per tree (the tree first on `sys.path`), after one uncounted run:
- `take`: a desk taking a table (`DeskMarks.for_dealer`, as a resume, a takeover or a hand-over
  does) with no entry after it; `take+mark`: with its first entry's mark (`stamp`);
- `drawing`: what the desk reads to draw a table awaiting an award's settlement: the status line's
  pool and the settlement's preview (`jackpot_words`, `settlement_preview`), as each tree's
  controller asks for them; statements counted and CPU timed;
- `nesting`: `json_input.parse_json` of 10 MB inputs (the parse and the nesting's measure).

CPU seconds swing on a shared machine; `--instructions` also counts each part's measured calls under
callgrind (only what `eval` runs), the steady figure.

Usage: python benchmarks/product_cpu_bench.py --baseline TREE [--rounds 5] [--instructions]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import repository_root

TEN_MB = 10_000_000
INPUTS = {
    "deep at the end": '{"seats": ['
    + ",".join(["[]"] * (TEN_MB // 3))
    + '], "x": '
    + "[" * 65
    + "]" * 65
    + "}",
    "chains 63 deep": "[" + ",".join(["[" * 63 + "]" * 63] * (TEN_MB // 128)) + "]",
    "strings of brackets": json.dumps(["a[{"] * (TEN_MB // 8)),
    "numbers": json.dumps(list(range(TEN_MB // 8))),
}

# Run in the child with the tree first on sys.path: argv is part, tree, room file, rounds, input file.
CHILD = """
import gc, json, sys, time
from pathlib import Path
import ofc_desk
part, tree, room, rounds, text_file = sys.argv[1:6]
assert Path(ofc_desk.__file__).resolve().is_relative_to(Path(tree).resolve()), ofc_desk.__file__
rounds = int(rounds)

if part.startswith("take"):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from ofc_desk.service.store.entry_marks import DeskMarks
    from ofc_desk.storage.users import Account, Role
    dealer = Account("Dana", Role.DEALER, Ed25519PrivateKey.generate())
    if part == "take":
        call = lambda: [DeskMarks.for_dealer(dealer) for _ in range(100)]
    else:
        call = lambda: [DeskMarks.for_dealer(dealer).stamp() for _ in range(100)]
    per = 100
elif part == "drawing":
    from sqlalchemy import event
    from ofc_desk.service import TableService
    from ofc_desk.service.terms.setup import SeatSetup, TableSetup
    from ofc_desk.storage.database import Database
    from ofc_desk.storage.users import sign_in
    from tests.helpers.jackpot_awards import HOUSE_AWARD, PLAYERS, award_rules, show_the_losing_hand
    from tests.helpers.room_scripts import DEALER, DEALER_PIN
    database = Database(f"sqlite:///{room}")
    seats = tuple(SeatSetup(player, 100) for player in PLAYERS)
    setup = TableSetup("Jade 2", seats, "Dee", award_rules(**HOUSE_AWARD))
    service = TableService.open(database, setup, sign_in(database, DEALER, DEALER_PIN))
    show_the_losing_hand(service)
    if hasattr(TableService, "pool_shown"):  # one reading a snapshot, for both
        def drawing():
            pool = service.pool_shown()
            return service.jackpot_words(pool), service.settlement_preview(pool)
    else:  # the status line's words once a snapshot, the preview's own reading at every drawing
        def drawing():
            return service.jackpot_words(), service.settlement_preview()
    said = drawing()
    assert said[0].startswith("room jackpot") and said[1] is not None, said
    statements = []
    event.listen(database.engine, "before_cursor_execute", lambda *args: statements.append(1))
    drawing()
    print(f"{len(statements)} statements a drawing")
    call = lambda: [drawing() for _ in range(20)]
    per = 20
else:
    from ofc_desk.cli.json_input import NestedTooDeeply, parse_json
    text = Path(text_file).read_text()
    def parsed():
        try:
            parse_json(text)
        except NestedTooDeeply:
            return "too deep"
        return "read"
    call, per = parsed, 1

said = call()  # uncounted: first-use caches, compiled statements
gc.collect()
best = min(
    (lambda started: (eval("call()"), time.process_time() - started)[1])(time.process_time())
    for _ in range(rounds)
)
print("figure", json.dumps([best / per, per, said if isinstance(said, str) else ""]))
"""


def child(tree: Path, part: str, room: Path, rounds: int, text: Path, counted: bool) -> list[str]:
    """The child's lines; under callgrind (`counted`), its instructions in `eval` appended."""
    command = [sys.executable, "-c", CHILD, part, str(tree), str(room), str(rounds), str(text)]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        if counted:
            toggles = ["--collect-atstart=no", "--toggle-collect=builtin_eval", f"--callgrind-out-file={out}"]
            command = ["valgrind", "--tool=callgrind", *toggles, *command]
        room_copy = Path(folder) / "room.db"
        shutil.copy(room, room_copy)
        command[command.index(str(room))] = str(room_copy)
        path = f"{tree}{os.pathsep}{repository_root.ROOT}"
        # In the tree's folder: `python -c` puts the working folder first on sys.path.
        environment = {**os.environ, "PYTHONPATH": path}
        done = subprocess.run(command, env=environment, cwd=tree, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    if counted:
        found = re.search(r"Collected : (\d+)", done.stderr)
        assert found is not None, done.stderr
        lines.append(f"instructions {found.group(1)}")
    return lines


def build_room(path: Path) -> None:
    """A room whose pool an award table pays from: 1,000 seeded and a 4-chip drop (not timed)."""
    from ofc_desk.service.replays.replay import run_replay
    from ofc_desk.storage.database import Database
    from tests.helpers.jackpot_awards import award_replay_script

    database = Database(f"sqlite:///{path}")
    run_replay(database, award_replay_script("Jade 1", seed=1000), resume=False)
    database.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout of the code to compare")
    parser.add_argument("--rounds", type=int, default=5, help="best of this many timed rounds")
    parser.add_argument("--instructions", action="store_true", help="also count instructions (callgrind)")
    args = parser.parse_args()
    trees = [("this code", Path(repository_root.ROOT)), (str(args.baseline), args.baseline)]
    with tempfile.TemporaryDirectory() as folder:
        room, text = Path(folder) / "room.db", Path(folder) / "input.json"
        build_room(room)
        runs = [("take", ""), ("take+mark", ""), ("drawing", "")] + [("nesting", name) for name in INPUTS]
        for part, name in runs:
            if name:
                text.write_text(INPUTS[name])
            for label, tree in trees:
                lines = child(tree, part, room, args.rounds, text, counted=False)
                if args.instructions:
                    lines += child(tree, part, room, 1, text, counted=True)[-1:]
                report(f"{part} {name}".strip(), label, lines)


def report(part: str, tree: str, lines: list[str]) -> None:
    """The part, the tree, CPU a call (best round), instructions a call, and what the child said."""
    said = [line for line in lines if not line.startswith(("figure ", "instructions "))]
    seconds, per, outcome = json.loads(next(line for line in lines if line.startswith("figure "))[7:])
    counted = [int(line.split()[1]) / per for line in lines if line.startswith("instructions ")]
    figures = f"{seconds * 1e3:9.3f} ms CPU" + "".join(f" {count:>15,.0f} instructions" for count in counted)
    print(f"{part:<30} {tree:<18} {figures}  {' '.join([outcome, *said]).strip()}")


if __name__ == "__main__":
    main()
