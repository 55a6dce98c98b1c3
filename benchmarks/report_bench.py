"""Benchmark: the session report of a 500-hand session (goal: under 5 s here) and its memory peak.

Plays a random 3-handed pineapple session through the real session service into a SQLite file
(not timed), then times reading it back (`load_session_record`), laying out the PDF, and the
exports; a second pass under tracemalloc gives the Python memory peak of the whole report.

    python benchmarks/report_bench.py [--hands 500] [--db URL] [--seed 7]
"""

from __future__ import annotations

import argparse
import io
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from ofc_desk.core.cards import FULL_DECK
from ofc_desk.reports.exports import write_hands_csv, write_replay_json, write_transactions_csv
from ofc_desk.reports.loader import load_session_record
from ofc_desk.reports.session_pdf import write_session_report
from ofc_desk.service import SeatSetup, TableRules, TableService, TableSetup, open_table
from ofc_desk.service.table.commands import Rebuy, Settle, StartHand
from ofc_desk.service.table.games.ofc.commands import Place, Reveal
from ofc_desk.service.table.games.ofc.view_parts import OfcTurn
from ofc_desk.service.terms.snapshot import Phase
from ofc_desk.storage.account_changes import create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role

PLAYERS = ("Ann", "Bob", "Cy")
BUY_IN = 400
ROW_SIZES = {"front": 3, "middle": 5, "back": 5}


def _rows_for(service: TableService, player: str, place: int, discard: int, rng: random.Random) -> list[str]:
    seat = service.snapshot().seat(player)
    room = {view.row.value: view.size - len(view.cards) for view in seat.rows}
    rows: list[str] = []
    for _ in range(place):
        open_rows = [row for row, free in room.items() if free > 0]
        row = rng.choice(open_rows)
        room[row] -= 1
        rows.append(row)
    return rows + ["discard"] * discard


def _play_hand(service: TableService, rng: random.Random) -> None:
    deck = [str(card) for card in FULL_DECK]
    rng.shuffle(deck)
    service.do(StartHand())
    while service.snapshot().phase is Phase.LIVE:
        turn = service.snapshot().to_act
        assert turn is not None
        cards = [deck.pop() for _ in range(turn.take)]
        if turn.kind is OfcTurn.STREET:
            rows = _rows_for(service, turn.player, turn.place, turn.discard, rng)
            service.do(Place(turn.player, " ".join(cards), " ".join(rows)))
        else:
            rows = [row for row, size in ROW_SIZES.items() for _ in range(size)]
            rows += ["discard"] * (len(cards) - len(rows))
            service.do(Reveal(turn.player, " ".join(cards), " ".join(rows)))
    service.do(Settle())


def build_session(url: str, hands: int, seed: int) -> None:
    database = Database(url)
    _, dealer = create_accounts(
        database, [("Sam", Role.SUPERVISOR, "98769876"), ("Dana", Role.DEALER, "1234")]
    )
    rules = TableRules(variant="pineapple", progressive=True)
    setup = TableSetup("Bench table", tuple(SeatSetup(p, BUY_IN) for p in PLAYERS), "Cy", rules)
    service = open_table(database, setup, dealer)
    rng = random.Random(seed)
    for _ in range(hands):
        for seat in service.snapshot().seats:
            if seat.stack < BUY_IN // 4:
                service.do(Rebuy(seat.name, BUY_IN))
        _play_hand(service, rng)
    database.dispose()


def _stored_session_exists(url: str) -> bool:
    path = url.removeprefix("sqlite:///")
    return url.startswith("sqlite:///") and Path(path).is_file()


def report_once(url: str) -> dict[str, float]:
    times: dict[str, float] = {}
    start = time.perf_counter()
    record = load_session_record(url)
    times["load"] = time.perf_counter() - start
    pdf = io.BytesIO()
    start = time.perf_counter()
    write_session_report(record, pdf)
    times["pdf"] = time.perf_counter() - start
    start = time.perf_counter()
    for writer in (write_hands_csv, write_transactions_csv, write_replay_json):
        writer(record, io.StringIO())
    times["exports"] = time.perf_counter() - start
    times["bytes"] = len(pdf.getvalue())
    times["hands"] = len(record.hands)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument(
        "--db",
        help="a SQLite URL to keep the played session in and reuse on the "
        "next run (default: a new session in a temporary folder)",
    )
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    folder = tempfile.TemporaryDirectory()
    url = args.db or f"sqlite:///{Path(folder.name) / 'bench.db'}"
    if not _stored_session_exists(url):
        start = time.perf_counter()
        build_session(url, args.hands, args.seed)
        print(
            f"played {args.hands} hands through the service in "
            f"{time.perf_counter() - start:.1f} s (setup, not part of the figures)"
        )
    report_once(url)  # warm: fonts registered, modules imported
    runs = [report_once(url) for _ in range(3)]
    best = min(runs, key=lambda r: r["load"] + r["pdf"])
    import pypdfium2 as pdfium

    pdf = io.BytesIO()
    write_session_report(load_session_record(url), pdf)
    document = pdfium.PdfDocument(pdf.getvalue())
    pages = len(document)
    document.close()
    tracemalloc.start()
    report_once(url)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    max_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    total = best["load"] + best["pdf"]
    print(f"session of {int(best['hands'])} hands: {pages} pages, {best['bytes'] / 1e6:.2f} MB PDF")
    print(f"load from the database   {best['load']:6.2f} s")
    print(f"lay out and write PDF    {best['pdf']:6.2f} s")
    print(f"report total             {total:6.2f} s   (goal < 5 s; best of 3)")
    print(f"CSV + JSON exports       {best['exports']:6.2f} s")
    print(f"Python memory peak       {peak / 1e6:6.1f} MB (tracemalloc, one report)")
    print(f"process max RSS          {max_rss:6.1f} MB (whole benchmark run)")
    folder.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
