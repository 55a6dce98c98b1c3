"""CSV exports and the JSON replay script, with the round trip through the session service."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from ofc_desk.reports.exports import (
    HAND_COLUMNS,
    ExportError,
    replay_script,
    write_hands_csv,
    write_replay_json,
    write_transactions_csv,
)
from ofc_desk.reports.games.ofc import fantasyland_played
from ofc_desk.reports.loader import load_session_record
from ofc_desk.reports.record import SessionRecord
from ofc_desk.service import audit_log
from ofc_desk.service.replays.replay import ReplayError, run_replay
from ofc_desk.service.table.commands import HandOver, Settle, StartHand, Undo, VoidHand
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.storage.account_changes import create_user
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, sign_in
from tests.helpers.report_sessions import (
    DEALER,
    DEALER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    enter_actions,
    example_script,
    expected_example,
    new_database,
    play_hands,
    play_script,
)


def csv_rows(
    write: Callable[[SessionRecord, io.StringIO], object], record: SessionRecord
) -> list[dict[str, str]]:
    out = io.StringIO()
    write(record, out)
    return list(csv.DictReader(io.StringIO(out.getvalue())))


def test_hands_csv_has_a_row_per_player_per_hand(sample_record: SessionRecord) -> None:
    rows = csv_rows(write_hands_csv, sample_record)
    assert len(rows) == sum(len(h.seats) for h in sample_record.hands)
    assert tuple(rows[0]) == HAND_COLUMNS
    first = rows[0]
    assert (first["hand"], first["player"], first["front"], first["front_hand"]) == (
        "1",
        "Ann",
        "Qs Qd 2c",
        "pair of queens",
    )
    assert (first["stack_before"], first["stack_after"], first["chips_moved"]) == ("100", "128", "28")
    assert rows[3]["fantasyland_cards"] == "14" and rows[6]["voided"] == "yes"


def test_transactions_csv_accounts_for_every_chip(sample_record: SessionRecord) -> None:
    rows = csv_rows(write_transactions_csv, sample_record)
    kinds = [row["kind"] for row in rows]
    assert kinds[:3] == ["opening buy-in"] * 3
    assert kinds.index("rebuy") > kinds.index("transfer")  # the rebuy came after hand 1
    capped = next(row for row in rows if row["owed"] == "21")
    assert (capped["player"], capped["counterparty"], capped["amount"]) == ("Bob", "Cy", "14")
    # Chips on the table at the end = everything brought in, moved by hands, less the house.
    stacks: dict[str, int] = {}
    for row in rows:
        amount = int(row["amount"])
        if row["kind"] in ("opening buy-in", "buy-in", "rebuy", "correction", "cash-out", "void reversal"):
            stacks[row["player"]] = stacks.get(row["player"], 0) + amount
        elif row["kind"] == "transfer":
            stacks[row["player"]] -= amount
            stacks[row["counterparty"]] += amount
        elif row["kind"] == "rake":
            stacks[row["player"]] -= amount
    assert stacks == {p.name: p.final_stack for p in sample_record.players}


def test_json_export_reproduces_the_script_it_was_played_from(example_record: SessionRecord) -> None:
    script = replay_script(example_record)
    original = example_script()
    assert script["table"] == original["table"] and script["button"] == original["button"]
    assert script["seats"] == original["seats"]
    assert (script["variant"], script["progressive"]) == ("pineapple", True)
    exported_hands = script["hands"]
    assert isinstance(exported_hands, list)
    assert [h["actions"] for h in exported_hands] == [h["actions"] for h in original["hands"]]
    assert [h.get("between", []) for h in exported_hands] == [h.get("between", []) for h in original["hands"]]


def test_json_export_round_trip_replays_to_the_same_results(
    example_record: SessionRecord, tmp_path: Path
) -> None:
    first = example_record
    out = io.StringIO()
    write_replay_json(first, out)
    url = f"sqlite:///{tmp_path / 'round-trip.db'}"
    database = new_database(url)
    play_script(database, json.loads(out.getvalue()))
    database.dispose()
    second = load_session_record(url)
    assert len(second.hands) == 12
    assert _results(second) == _results(first)
    assert second.players == first.players


def test_json_export_keeps_undos_so_it_replays_event_for_event(tmp_path: Path) -> None:
    original = example_script()
    database = new_database(f"sqlite:///{tmp_path / 'undo.db'}")
    service = play_script(database, {**original, "hands": original["hands"][:1]})
    service.do(StartHand())
    first, *rest = original["hands"][1]["actions"]
    service.do(Place(first["player"], "2c 3c 4c 5c 6c", "back back back back back"))
    service.do(Undo())
    for action in [first, *rest]:
        service.do(Place(action["player"], action["cards"], action["rows"]))
    service.do(Settle())
    record = load_session_record(database)
    database.dispose()
    hands = replay_script(record)["hands"]
    assert isinstance(hands, list)
    bogus = {"player": first["player"], "cards": "2c 3c 4c 5c 6c", "rows": "back back back back back"}
    assert hands[0]["actions"] == original["hands"][0]["actions"]
    assert hands[1]["actions"] == [bogus, {"op": "undo"}, first, *rest]
    replayed = _replay_into(tmp_path / "undo-again.db", replay_script(record))
    assert _results(replayed) == _results(record)
    assert [a.description for a in replayed.adjustments] == [a.description for a in record.adjustments]


def _replay_into(path: Path, script: dict[str, object], pins: dict[str, str] | None = None) -> SessionRecord:
    """Into a new, empty database: replay makes accounts only there; `pins` are what the person
    replaying gives for the supervisors the script names (an export holds none)."""
    database = Database(f"sqlite:///{path}")
    run_replay(database, script, resume=False, pins=(pins or {}).get)
    record = load_session_record(database)
    database.dispose()
    return record


def _results(record: SessionRecord) -> list[tuple[object, ...]]:
    return [
        (h.number, h.button, h.voided, fantasyland_played(h), h.seats, h.transfers, h.stacks_after)
        for h in record.hands
    ]


def test_an_export_names_the_supervisors_and_holds_no_pin(eventful_record: SessionRecord) -> None:
    script = replay_script(eventful_record)
    assert script["users"] == [{"name": "Sam", "role": "supervisor"}]
    hands = script["hands"]
    assert isinstance(hands, list) and len(hands) == 6
    assert [op["op"] for op in hands[4]["between"]] == ["void", "correct_chips", "rebuy"]
    assert hands[4]["between"][0] == {
        "op": "void", "hand": 4, "reason": "misdeal: wrong deck", "supervisor": "Sam",
    }  # fmt: skip
    assert hands[5] == {"between": [{"op": "close", "supervisor": "Sam"}], "actions": []}
    assert SUPERVISOR_PIN not in json.dumps(script) and '"pin"' not in json.dumps(script)


def test_an_export_replayed_without_its_supervisors_pin_is_refused(
    eventful_record: SessionRecord, tmp_path: Path
) -> None:
    with pytest.raises(ReplayError, match="users: Sam: no PIN given"):
        _replay_into(tmp_path / "no-pin.db", replay_script(eventful_record))


def test_round_trip_with_void_correction_undo_and_close(
    eventful_record: SessionRecord, tmp_path: Path
) -> None:
    record = eventful_record
    replayed = _replay_into(tmp_path / "eventful-again.db", replay_script(record), {"Sam": "98769876"})
    assert _results(replayed) == _results(record)
    assert replayed.players == record.players
    assert [(a.kind, a.hand_number, a.description, a.approver) for a in replayed.adjustments] == [
        (a.kind, a.hand_number, a.description, a.approver) for a in record.adjustments
    ]
    assert replayed.ended_at is not None


def test_round_trip_through_the_replay_command(
    example_record: SessionRecord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ofc-desk replay` (the service's command) on the export gives the worked example's output."""
    from ofc_desk.cli.main import main

    script_path = tmp_path / "export.json"
    with open(script_path, "w", encoding="utf-8") as out:
        write_replay_json(example_record, out)
    status = main(["replay", str(script_path), "--db", f"sqlite:///{tmp_path / 'replayed.db'}"])
    output = json.loads(capsys.readouterr().out)
    assert status == 0
    expected = expected_example()
    record = example_record
    assert output["stacks"] == {p.name: p.final_stack for p in record.players}
    for got, hand in zip(output["hands"], record.hands, strict=True):
        assert [(t["from"], t["to"], t["owed"], t["paid"]) for t in got["result"]["transfers"]] == [
            (t.payer, t.payee, t.owed, t.paid) for t in hand.transfers
        ]
    assert [h["button"] for h in output["hands"]] == [h["button"] for h in expected["hands"]]


def test_transactions_csv_gives_a_void_where_it_happened_and_keeps_rake_totals(tmp_path: Path) -> None:
    database = new_database(f"sqlite:///{tmp_path / 'voided.db'}")
    script = example_script()
    script["house_options"] = {"rake": {"mode": "per-player", "amount": 2, "jackpot_percent": 50}}
    hands = script["hands"]
    script["hands"] = hands[:3]
    service = play_script(database, script)
    service.do(VoidHand(2, "misdeal", supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    play_hands(service, hands[3:4])
    record = load_session_record(database)
    rows = csv_rows(write_transactions_csv, record)

    def total(kind: str) -> int:
        return sum(int(row["amount"]) for row in rows if row["kind"] == kind)

    assert total("rake") == record.rake_total + record.jackpot_total  # the drop is part of the rake
    assert total("jackpot drop") == record.jackpot_total > 0
    void = [row for row in rows if row["note"].endswith("hand 2 voided")]
    assert {(row["event"], row["by"], row["approved_by"]) for row in void} == {
        (str(next(a.seq for a in record.adjustments if a.kind == "void")), SUPERVISOR, SUPERVISOR)
    }
    # In file order: after hand 3's rows, before hand 4's.
    at = [index for index, row in enumerate(rows) if row in void]
    hand_rows_at = {
        number: [i for i, row in enumerate(rows) if row["hand"] == str(number) and row not in void]
        for number in (3, 4)
    }
    assert max(hand_rows_at[3]) < min(at) and max(at) < min(hand_rows_at[4])
    # A running balance in file order reaches every stack the hands CSV gives before hand 4.
    stacks: dict[str, int] = {}
    for row in rows[: min(hand_rows_at[4])]:
        amount = int(row["amount"])
        if row["kind"] == "transfer":
            stacks[row["player"]] -= amount
            stacks[row["counterparty"]] += amount
        elif row["kind"] == "rake":
            stacks[row["player"]] -= amount
        elif row["kind"] != "jackpot drop":
            stacks[row["player"]] = stacks.get(row["player"], 0) + amount
    hand_4 = next(hand for hand in record.hands if hand.number == 4)
    assert stacks == {seat.name: seat.stack_before for seat in hand_4.seats}
    database.dispose()


def test_a_session_with_a_hand_not_yet_settled_is_not_exported(tmp_path: Path) -> None:
    """A replay would settle a complete hand the dealer has not confirmed, and drop a hand just
    dealt: the export must wait until the table is between hands."""
    database = new_database(f"sqlite:///{tmp_path / 'live.db'}")
    script = example_script()
    hands = script["hands"]
    script["hands"] = hands[:1]
    service = play_script(database, script)
    service.do(StartHand())
    with pytest.raises(ExportError, match="hand 2 of session 1 is not settled yet"):
        replay_script(load_session_record(database))
    for action in hands[1]["actions"]:
        service.do(Place(action["player"], action["cards"], action["rows"]))
    with pytest.raises(ExportError, match="hand 2 of session 1 is not settled yet"):
        replay_script(load_session_record(database))
    service.do(Settle())
    hands = replay_script(load_session_record(database))["hands"]
    assert isinstance(hands, list) and len(hands) == 2
    database.dispose()


def test_a_shift_change_keeps_every_event_with_its_dealer(tmp_path: Path) -> None:
    database = new_database(f"sqlite:///{tmp_path / 'shifts.db'}")
    script = example_script()
    hands = script["hands"]
    script["hands"] = hands[:2]
    supervisor = sign_in(database, SUPERVISOR, SUPERVISOR_PIN, Role.SUPERVISOR)
    create_user(database, "Yan", Role.DEALER, "5678", approver=supervisor)
    service = play_script(database, script)
    # between hands: Yan deals hand 3, signed in, so the settlements Yan signs verify
    service.do(HandOver(sign_in(database, "Yan", "5678", Role.DEALER)))
    play_hands(service, hands[2:3])
    service.do(StartHand())
    enter_actions(service, hands[3]["actions"][:1])
    service.do(HandOver(sign_in(database, DEALER, DEALER_PIN, Role.DEALER)))  # back, mid hand 4
    enter_actions(service, hands[3]["actions"][1:])
    service.do(Settle())
    original = audit_log(database, service.session_id)
    record = load_session_record(database)
    database.dispose()
    assert record.dealers == (DEALER, "Yan")

    replayed_database = Database(f"sqlite:///{tmp_path / 'shifts-again.db'}")
    run_replay(replayed_database, replay_script(record), resume=False)
    replayed = audit_log(replayed_database, 1)
    replayed_database.dispose()
    assert [(e.kind, e.actor, e.payload) for e in replayed] == [
        (e.kind, e.actor, e.payload) for e in original
    ]
