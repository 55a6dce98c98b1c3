"""How soon a desk deals again once its PostgreSQL server is back (issue 34; prints figures, not part
of the test suite).

A throw-away server (tests/helpers/stoppable_postgres.py: initdb in a temp folder, the postmaster
started and stopped as pg_ctl does, on a free port: never the shared one), and a desk
(`TableService`) opening a table a round on it. Each round, after an ordinary entry and its undo on
a live connection:

1. the server is stopped (a fast shutdown, as `pg_ctl stop -m fast`); the dealer's entry is refused
   ("the database did not answer … nothing was recorded"): how long the refusal takes;
2. the server is started (returning once it accepts connections, as `pg_ctl start -w`), and the
   same entry is made again at once: how long that first action takes (the pool's dead connection
   found by its pre-ping, a new one made, the head read again, the event committed);
3. the desk's idle connection is terminated (`pg_terminate_backend`) while the dealer waits: how
   long the next action (an undo) takes.

Usage (from the repository's root): python benchmarks/reconnect_bench.py [--rounds 10]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

import psycopg
import repository_root  # noqa: F401 - the root on sys.path, for tests.helpers

from ofc_desk.core.cards import FULL_DECK
from ofc_desk.service import SeatSetup, TableService, TableSetup
from ofc_desk.service.store.unrecorded import unrecorded_sentence
from ofc_desk.service.table.commands import StartHand, Undo
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.storage.database import Database
from tests.helpers.stoppable_postgres import NO_BINARIES, StoppableServer, stoppable_server

APPLICATION = "ofc-desk-reconnect-bench"
ROWS = "front front front middle middle"


def _milliseconds(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def _first_entry(service: TableService) -> Callable[[], object]:
    """A new hand dealt; the entry of the player first to act, five cards from the top."""
    service.do(StartHand())
    turn = service.snapshot().to_act
    assert turn is not None
    cards = " ".join(str(card) for card in FULL_DECK[:5])
    return lambda: service.do(Place(turn.player, cards, ROWS))


def _refused(action: Callable[[], object]) -> tuple[float, str]:
    started = time.perf_counter()
    try:
        action()
    except Exception as failure:  # what the desk shows the dealer
        return (time.perf_counter() - started) * 1000, unrecorded_sentence(failure)
    raise AssertionError("the action was accepted while the server was down")


def _pids(server: StoppableServer) -> list[int]:
    with psycopg.connect(server.libpq(), autocommit=True) as admin:
        query = "SELECT pid FROM pg_stat_activity WHERE application_name = %s"
        return [pid for (pid,) in admin.execute(query, (APPLICATION,))]


def run(server: StoppableServer, rounds: int) -> None:
    database = Database(f"{server.url}?application_name={APPLICATION}")
    seats = (SeatSetup("Ann", 1000), SeatSetup("Bob", 1000))
    ordinary, refusal, restart, first_after, after_cut = [], [], [], [], []
    said = ""
    for round_number in range(rounds):
        service = TableService.open(database, TableSetup(f"Bench {round_number}", seats, "Bob"), "Dan")
        entry = _first_entry(service)
        ordinary.append(_milliseconds(entry))
        ordinary.append(_milliseconds(partial(service.do, Undo())))
        server.stop()
        took, said = _refused(entry)
        refusal.append(took)
        restart.append(_milliseconds(server.start))
        first_after.append(_milliseconds(entry))
        server.terminate(_pids(server))
        after_cut.append(_milliseconds(partial(service.do, Undo())))
    database.dispose()
    print(f"{rounds} rounds on a throw-away PostgreSQL server (127.0.0.1:{server.port})")
    print(f"the dealer read: {said}")
    for label, figures in (
        ("ordinary action (live connection)", ordinary),
        ("refusal while the server is down", refusal),
        ("start until it accepts connections", restart),
        ("first action once it is back (reconnect)", first_after),
        ("first action after a cut connection", after_cut),
    ):
        print(f"{label:43s} median {statistics.median(figures):7.1f} ms   max {max(figures):7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=10)
    arguments = parser.parse_args()
    with stoppable_server() as server:
        if server is None:
            raise SystemExit(NO_BINARIES)
        run(server, arguments.rounds)


if __name__ == "__main__":
    main()
