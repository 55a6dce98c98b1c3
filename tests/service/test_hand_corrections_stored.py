"""A corrected hand as the room stores it (docs/rules.md §12): the card room's worked example
replayed, verified and exported to a script that replays it to the same record; a correction asked
of the floor and carried out by the desk."""

from __future__ import annotations

from pathlib import Path

from ofc_desk.reports.exports import replay_script
from ofc_desk.reports.loader import load_session_record
from ofc_desk.service.audit.verify import verify_database
from ofc_desk.service.oversight.floor_decisions import decide_at_the_floor
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.store.record_reads import read_ledger
from ofc_desk.service.table.commands import Request, Scripted, StartHand
from ofc_desk.service.table.correction_view import preview
from ofc_desk.service.terms.events import EventKind, LedgerKind
from ofc_desk.storage.database import Database
from tests.helpers.corrections import swap_rows
from tests.helpers.replay_helpers import DATA, read_object
from tests.helpers.table_helpers import (
    BOB_PLAIN,
    CY_PLAIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    Plan,
    open_test_table,
    play_hand,
    play_streets,
)

SCRIPT = read_object(DATA / "dispute-replay.json")
EXPECTED = read_object(DATA / "dispute-expected.json")
SUE_PIN = {"Sue": "24682468"}


def test_the_worked_example_replays_verifies_and_exports_to_the_same_record(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'dispute.db'}"
    database = Database(url)
    answer = run_replay(database, SCRIPT, resume=False)
    (correction,) = answer["corrections"]
    assert {key: correction[key] for key in EXPECTED["correction"]} == EXPECTED["correction"]
    stacks = [{p["name"]: p["stack_after"] for p in hand["result"]["players"]} for hand in answer["hands"]]
    assert stacks == [hand["stacks"] for hand in EXPECTED["hands"]]
    verify_database(database)
    database.dispose()

    script = replay_script(load_session_record(url))
    hands = script["hands"]
    assert isinstance(hands, list)
    between = hands[4]["between"]
    assert between[0]["op"] == "correct_hand" and between[0]["hand"] == 2
    again = Database(f"sqlite:///{tmp_path / 'again.db'}")
    replayed = run_replay(again, script, resume=False, pins=SUE_PIN.get)
    assert replayed["corrections"] == answer["corrections"]
    assert replayed["stacks"] == answer["stacks"]
    verify_database(again)
    again.dispose()


def test_resuming_the_worked_example_matches_the_stored_correction(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'dispute.db'}"
    database = Database(url)
    first_five = {**SCRIPT, "hands": SCRIPT["hands"][:5]}
    run_replay(database, first_five, resume=False)
    answer = run_replay(database, SCRIPT, resume=True, pins=SUE_PIN.get)
    assert answer["stacks"] == EXPECTED["hands"][-1]["stacks"]
    database.dispose()


ANN_PLAIN = Plan("Qh Td 2c", "Ah Kh 9h 4h 2h", "7s 7d 7c 3s 3d")


def test_a_correction_asked_of_the_floor_is_carried_out_between_hands(database: Database) -> None:
    desk = open_test_table(database, [("Ann", 100), ("Bob", 100), ("Cy", 100)], "Cy")
    play_hand(desk, {"Ann": ANN_PLAIN, "Bob": BOB_PLAIN, "Cy": CY_PLAIN})
    entries = swap_rows(desk.machine.hand_traces[1].entries, "Ann")
    difference = preview(desk.machine, 1, entries).payload["difference"]
    said = ", ".join(f"{name} {d:+}" for name, d in difference.items())
    assert said
    desk.do(StartHand())
    asked = {"hand": 1, "entries": entries, "reason": "Ann's rows"}
    snapshot = desk.do(
        Request(Scripted(event=EventKind.HAND_CORRECTED, payload=asked), "Ann disputes hand 1")
    )
    assert [r.line for r in snapshot.open_requests] == [
        f"#1 correct hand 1: {said} (Ann disputes hand 1) — waiting for the floor"
    ]
    decide_at_the_floor(database, desk.session_id, 1, True, SUPERVISOR, SUPERVISOR_PIN, "seen")
    play_streets(desk, {})  # hand 2 settles: the stacks the difference is paid from change
    stacks = {seat.name: seat.stack for seat in desk.snapshot().seats}
    assert desk.carry_out_approved() == [f"request #1 done: correct hand 1: {said}, approved by Sue"]
    trace = desk.machine.hand_traces[1]
    assert trace.corrections == 1 and list(trace.entries) == entries
    ledger = read_ledger(database, desk.session_id)
    paid = {row.player: row.amount for row in ledger if row.kind is LedgerKind.HAND_CORRECTION}
    assert paid and sum(paid.values()) == 0
    assert {seat.name: seat.stack for seat in desk.snapshot().seats} == {
        name: stack + paid.get(name, 0) for name, stack in stacks.items()
    }
    verify_database(database)
