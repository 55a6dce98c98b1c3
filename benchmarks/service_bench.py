"""Session service benchmarks (prints figures; not part of the test suite).

1. Action → durable commit on SQLite (WAL, synchronous=FULL): median and p99 of `place()`,
   which returns only after the event and its derived rows are committed.
2. A 1,000-hand replay (three-handed progressive pineapple) through `ofc-desk replay`'s engine.
3. `verify` of that database, in hands per second.

Usage: python benchmarks/service_bench.py [--hands 1000] [--actions 400] [--db-url URL]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from ofc_desk.core.cards import FULL_DECK, Card
from ofc_desk.core.ofc.hand import HandState
from ofc_desk.core.rows import DISCARD, ROW_SIZE, Row
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.front.table_service import TableService
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.table.commands import Settle, StartHand
from ofc_desk.service.table.games.ofc.commands import Place, Reveal
from ofc_desk.service.table.games.ofc.view_parts import OfcSeatView, OfcTurn
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.setup import SeatSetup, TableRules, TableSetup
from ofc_desk.storage.database import Database

SEATS: list[dict[str, Any]] = [{"name": name, "buy_in": 1_000_000} for name in ("Ann", "Bob", "Cy")]
FILL_ORDER = (Row.BACK, Row.MIDDLE, Row.FRONT)


def generate_script(hands: int, seed: int = 7) -> dict[str, Any]:
    """A legal session script, made by driving the pure machine with shuffled decks."""
    chooser = random.Random(seed)
    header = {"table": "Bench", "variant": "pineapple", "progressive": True, "button": "Cy"}
    machine = TableMachine()
    opened = machine.check(EventKind.TABLE_OPENED, {**header, "seats": SEATS, "rules": header})
    machine.apply(EventKind.TABLE_OPENED, opened)
    script_hands = []
    for _ in range(hands):
        machine.apply(EventKind.HAND_STARTED, machine.check(EventKind.HAND_STARTED, {}))
        deck = list(FULL_DECK)
        chooser.shuffle(deck)
        actions = []
        while (turn := machine.snapshot(0, "").to_act) is not None:
            action = _choose(machine, turn.player, turn.place, turn.discard, deck)
            kind = EventKind.REVEALED if turn.kind is OfcTurn.FANTASYLAND_SET else EventKind.PLACED
            machine.apply(kind, machine.check(kind, action))
            actions.append(action)
        machine.apply(EventKind.HAND_SETTLED, machine.check(EventKind.HAND_SETTLED, {}))
        script_hands.append({"actions": actions})
    return {**header, "seats": SEATS, "hands": script_hands}


def _choose(machine: TableMachine, player: str, place: int, discard: int, deck: list[Card]) -> dict[str, Any]:
    hand = machine.live
    assert isinstance(hand, HandState)  # the bench deals OFC
    rows = {row: len(cards) for row, cards in hand.players[player].rows.items()}
    cards, words = [], []
    for _ in range(place):
        row = next(row for row in FILL_ORDER if rows[row] < ROW_SIZE[row])
        rows[row] += 1
        cards.append(str(deck.pop()))
        words.append(row.value)
    for _ in range(discard):
        deck.pop()
        cards.append("??")
        words.append(DISCARD)
    return {"player": player, "cards": " ".join(cards), "rows": " ".join(words)}


def bench_commit_latency(folder: Path, actions: int) -> None:
    """Time `place()`/`reveal()`: each returns only after its event is committed."""
    script = generate_script(actions // 15 + 1, seed=11)
    setup = TableSetup(
        "Latency",
        tuple(SeatSetup(seat["name"], seat["buy_in"]) for seat in SEATS),
        "Cy",
        TableRules(variant="pineapple", progressive=True),
    )
    database = Database(f"sqlite:///{folder / 'latency.db'}")
    service = TableService.open(database, setup, "bench")
    timings = []
    for hand in script["hands"]:
        service.do(StartHand())
        for action in hand["actions"]:
            fantasyland = OfcSeatView.of(service.snapshot().seat(action["player"])).fantasyland_cards
            entry = (Reveal if fantasyland else Place)(action["player"], action["cards"], action["rows"])
            started = time.perf_counter()
            service.do(entry)
            timings.append(time.perf_counter() - started)
        service.do(Settle())
    timings = sorted(timings[:actions])
    p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))]
    print(
        f"action -> durable commit (SQLite, WAL, synchronous=FULL), {len(timings)} actions:"
        f" median {statistics.median(timings) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"
    )
    database.dispose()


def bench_replay_and_verify(url: str, hands: int) -> None:
    started = time.perf_counter()
    script = generate_script(hands)
    generated = time.perf_counter() - started
    actions = sum(len(hand["actions"]) for hand in script["hands"])
    database = Database(url)
    started = time.perf_counter()
    output = run_replay(database, script, resume=False)
    replayed = time.perf_counter() - started
    assert len(output["hands"]) == hands
    print(
        f"replay of {hands} hands ({actions} actions) into {database.engine.dialect.name}:"
        f" {replayed:.1f} s ({replayed / hands * 1000:.1f} ms per hand;"
        f" script generated in {generated:.1f} s)"
    )
    started = time.perf_counter()
    summary = verify_database(database)
    verified = time.perf_counter() - started
    print(
        f"verify: {summary.hands} hands, {summary.events} events in {verified:.1f} s"
        f" = {summary.hands / verified:.0f} hands per second"
    )
    database.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--db-url", help="database for the replay (default: a temp SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        bench_commit_latency(Path(folder), args.actions)
        bench_replay_and_verify(args.db_url or f"sqlite:///{Path(folder) / 'replay.db'}", args.hands)


if __name__ == "__main__":
    main()
