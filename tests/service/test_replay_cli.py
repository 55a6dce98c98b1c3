"""`ofc-desk replay` and `ofc-desk verify` as the command line runs them."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ofc_desk.cli.main import main
from ofc_desk.core.ofc.deal import score_deal
from ofc_desk.core.ofc.deal_input import deal_from_json
from ofc_desk.service import TableService, audit_log, list_open_tables
from ofc_desk.service.table.commands import Rebuy
from ofc_desk.storage.database import Database
from tests.helpers.migrated_files import MigratedTemplate
from tests.helpers.ofc_test_databases import BACKENDS, sqlite_path, sqlite_url
from tests.helpers.pooled_schemas import RoomSchemaPool, migrated_schema
from tests.helpers.replay_helpers import EXPECTED, load_example, run_cli, write_script


@dataclass(frozen=True)
class ExampleRun:
    url: str
    output: dict[str, Any]


def replayed_example(folder: Path, url: str) -> ExampleRun:
    """The worked example replayed by `ofc-desk replay` into the new database at `url`."""
    script = write_script(folder, load_example())
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(["replay", str(script), "--db", url])
    assert (status, err.getvalue()) == (0, "")
    return ExampleRun(url, json.loads(out.getvalue()))


@pytest.fixture(scope="module")
def sqlite_example_run(
    tmp_path_factory: pytest.TempPathFactory, migrated_template: MigratedTemplate
) -> ExampleRun:
    """The worked example replayed into a new SQLite file once a module: `example_run`'s SQLite
    half, and the uninterrupted run a resumed one is compared with on either backend. The file is
    a copy of the process's migrated one, which the replay opens as it would a new one (as
    `example_run`'s PostgreSQL schema)."""
    folder = tmp_path_factory.mktemp("example")
    migrated_template.copy(sqlite_path(folder))
    return replayed_example(folder, sqlite_url(folder))


@pytest.fixture(scope="module", params=BACKENDS)
def example_run(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    postgres_url: str | None,
    room_schemas: RoomSchemaPool | None,
) -> Iterator[ExampleRun]:
    """The worked example replayed into a new database once a module and backend (its tests only
    read it): the database's URL and the command's output. On PostgreSQL a schema as the
    migrations leave it (`migrated_schema`), which the replay opens as it would a new one."""
    if request.param == "sqlite":
        yield request.getfixturevalue("sqlite_example_run")
        return
    with migrated_schema(request, postgres_url, room_schemas) as url:
        yield replayed_example(tmp_path_factory.mktemp("example"), url)


@pytest.mark.xdist_group("replay example")  # one worker replays it for all its tests
def test_worked_example_matches_the_expected_hands(example_run: ExampleRun) -> None:
    want = json.loads(EXPECTED.read_text())
    for got, hand in zip(example_run.output["hands"], want["hands"], strict=True):
        assert (got["number"], got["button"], got["fantasyland"]) == (
            hand["number"],
            hand["button"],
            hand["fantasyland"],
        )
        transfers = [
            {key: t[key] for key in ("from", "to", "owed", "paid")}
            for t in got["result"]["transfers"]
            if t["owed"]
        ]
        assert transfers == hand["transfers"]
        assert {p["name"]: p["stack_after"] for p in got["result"]["players"]} == hand["stacks"]
    assert example_run.output["stacks"] == want["stacks"]
    assert example_run.output["next"] == {"button": "Bob", "fantasyland": {}}


@pytest.mark.xdist_group("replay example")
def test_each_result_is_exactly_the_score_output(example_run: ExampleRun) -> None:
    for hand in example_run.output["hands"]:
        players = hand["result"]["players"]
        deal = {
            "variant": "pineapple",
            "progressive": True,
            "dealer": hand["button"],
            "in_fantasyland": list(hand["fantasyland"]),
            "players": [
                {
                    "name": p["name"],
                    "stack": p["stack_before"],
                    **{row: p["rows"][row]["cards"] for row in ("front", "middle", "back")},
                }
                for p in players
            ],
        }
        assert score_deal(deal_from_json(deal)).to_json() == hand["result"]


def test_refused_action_stops_with_one_line_and_keeps_what_was_stored(
    tmp_path: Path, migrated_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_example()
    actions = script["hands"][1]["actions"]
    actions[2], actions[3] = actions[3], actions[2]
    path = write_script(tmp_path, script)
    status, out, err = run_cli(capsys, "replay", str(path), "--db", migrated_database_url)
    assert status == 2
    assert out == ""
    assert err == "hand 2, action 3: it is Ann's turn, not Bob's\n"
    status, out, _ = run_cli(capsys, "verify", "--db", migrated_database_url)
    assert status == 0
    assert out.startswith("verified: 1 session, ")
    assert " 1 hand;" in out


@pytest.mark.durable
@pytest.mark.xdist_group("replay example")  # the uninterrupted run is the example's, replayed once
def test_resume_finishes_a_stopped_session_like_an_uninterrupted_run(
    tmp_path: Path, database_url: str, sqlite_example_run: ExampleRun, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_example()
    full = write_script(tmp_path, script, "full.json")
    short = json.loads(json.dumps(script))
    short["hands"] = short["hands"][:3]
    short["hands"][2]["actions"] = short["hands"][2]["actions"][:7]
    run_cli(capsys, "replay", str(write_script(tmp_path, short, "short.json")), "--db", database_url)
    status, out, err = run_cli(capsys, "replay", str(full), "--db", database_url, "--resume")
    assert (status, err) == (0, "")
    assert json.loads(out) == sqlite_example_run.output
    assert len(json.loads(out)["hands"]) == 12


@pytest.mark.durable
def test_resume_refuses_a_script_that_differs_from_what_is_stored(
    tmp_path: Path, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_example()
    script["hands"] = script["hands"][:1]
    run_cli(capsys, "replay", str(write_script(tmp_path, script)), "--db", database_url)
    script["hands"][0]["actions"][4]["cards"] = "2h ?? Jc"
    changed = write_script(tmp_path, script, "changed.json")
    status, _, err = run_cli(capsys, "replay", str(changed), "--db", database_url, "--resume")
    assert status == 2
    assert err.startswith("hand 1, action 5: the stored session differs from the script here")


def test_a_second_run_without_resume_is_refused(
    tmp_path: Path, migrated_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_example()
    script["hands"] = script["hands"][:1]
    path = write_script(tmp_path, script)
    run_cli(capsys, "replay", str(path), "--db", migrated_database_url)
    status, _, err = run_cli(capsys, "replay", str(path), "--db", migrated_database_url)
    assert (status, err) == (2, "table T778 already has an open session here: use --resume\n")


def test_between_hand_operations_run_before_the_first_action(
    tmp_path: Path, migrated_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_example()
    script["hands"] = script["hands"][:2]
    script["hands"][1]["between"] = [
        {"op": "rebuy", "player": "Ann", "amount": 50},
        {"op": "sit_out", "player": "Cy"},
        {"op": "sit_in", "player": "Cy"},
    ]
    path = write_script(tmp_path, script)
    status, out, err = run_cli(capsys, "replay", str(path), "--db", migrated_database_url)
    assert (status, err) == (0, "")
    second = json.loads(out)["hands"][1]["result"]["players"]
    assert {p["name"]: p["stack_before"] for p in second}["Ann"] == 37 + 50


def test_unknown_operation_and_bad_json_are_one_line_errors(
    tmp_path: Path, migrated_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_example()
    script["hands"][0]["between"] = [{"op": "dance", "player": "Ann"}]
    status, _, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, script)), "--db", migrated_database_url
    )
    assert status == 2 and err.startswith("hand 1, between 1: unknown operation")
    script = load_example()
    script["unit"] = "big"
    status, _, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, script, "unit.json")), "--db", migrated_database_url
    )
    assert (status, err) == (2, "script: unit must be a whole number of chips, not 'big'\n")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    status, _, err = run_cli(capsys, "replay", str(bad), "--db", migrated_database_url)
    assert status == 2 and "not valid JSON" in err and err.count("\n") == 1
    deep = tmp_path / "deep.json"
    deep.write_text('{"table": "T", "seats": ' + "[" * 100_000 + "]" * 100_000 + "}")
    status, _, err = run_cli(capsys, "replay", str(deep), "--db", migrated_database_url)
    assert (status, err) == (2, "script: JSON nested more than 64 levels deep\n")


def test_text_that_is_not_unicode_is_refused_naming_where_before_anything_is_stored(
    tmp_path: Path, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_example()
    script["hands"][1]["between"] = [{"op": "void", "hand": 1, "reason": "mis\ud800deal"}]
    status, out, err = run_cli(capsys, "replay", str(write_script(tmp_path, script)), "--db", database_url)
    assert (status, out) == (2, "")
    assert err == "script.hands[1].between[0].reason: not valid Unicode text (half a surrogate pair)\n"
    status, out, err = run_cli(capsys, "verify", "--db", database_url)
    # Refused before the database was even opened: there is none (or no schema) to verify.
    assert status == 2 and ("no database at" in err or "is not an OFC Desk database" in err)


def test_supervised_operations_in_a_script(
    tmp_path: Path, migrated_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_example()
    script["users"] = [{"name": "Flo", "role": "supervisor", "pin": "24682468"}]
    script["hands"] = script["hands"][:2]
    script["hands"].append(
        {
            "between": [
                {"op": "void", "hand": 2, "reason": "misdeal", "supervisor": "Flo", "pin": "24682468"},
                {
                    "op": "correct_chips",
                    "player": "Cy",
                    "amount": -1,
                    "reason": "miscount",
                    "supervisor": " Flo ",  # recorded as the account spells it, so verify knows her
                    "pin": "24682468",
                },
                {"op": "close", "supervisor": "Flo", "pin": "24682468"},
            ]
        }
    )
    path = write_script(tmp_path, script)
    status, out, err = run_cli(capsys, "replay", str(path), "--db", migrated_database_url)
    assert (status, err) == (0, "")
    output = json.loads(out)
    assert [hand.get("voided", False) for hand in output["hands"]] == [False, True]
    assert output["stacks"] == {"Ann": 37, "Bob": 69, "Cy": 45}
    assert run_cli(capsys, "verify", "--db", migrated_database_url)[0] == 0
    script["hands"][2]["between"][0]["pin"] = "0000"
    status, _, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, script, "again.json")), "--db", migrated_database_url
    )
    assert status == 2
    refusal = "a floor supervisor must approve this: wrong name or PIN, or not a supervisor"
    assert err == f"hand 3, between 1: {refusal}\n"
    script["hands"][2]["between"][0] |= {"pin": "24682468", "hand": True}
    status, _, err = run_cli(
        capsys,
        "replay",
        str(write_script(tmp_path, script, "true.json")),
        "--db",
        migrated_database_url,
        "--resume",
    )
    assert (status, err) == (2, "hand 3, between 1: there is no settled hand True to void\n")


def test_rules_of_the_wrong_shape_are_refused_where_they_stand(
    tmp_path: Path, migrated_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_example()
    script["users"] = [{"name": "Flo", "role": "supervisor", "pin": "24682468"}]
    script["hands"] = script["hands"][:2]
    one_player = [{"players": ["Ann"], "unit": 2}]
    change = {"op": "change_rules", "pair_units": one_player, "supervisor": "Flo", "pin": "24682468"}
    script["hands"][1]["between"] = [change]
    status, _, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, script)), "--db", migrated_database_url
    )
    assert (status, err) == (2, "hand 2, between 1: pair_units: a pair unit names two players, not ['Ann']\n")


@pytest.mark.xdist_group("replay example")
def test_verify_prints_each_sessions_fingerprint_on_request(
    example_run: ExampleRun, capsys: pytest.CaptureFixture[str]
) -> None:
    from ofc_desk.reports.loader import load_session_record

    status, out, _ = run_cli(capsys, "verify", "--db", example_run.url)
    assert status == 0 and len(out.splitlines()) == 1
    status, out, _ = run_cli(capsys, "verify", "--db", example_run.url, "--fingerprints")
    summary, fingerprint = out.splitlines()
    assert status == 0 and summary.startswith("verified: 1 session")
    final_hash = load_session_record(example_run.url).final_hash
    assert fingerprint == f"session 1 ({example_run.output['table']}): {final_hash}"


def test_a_dealer_hand_over_needs_a_name_and_records_what_follows_as_theirs(
    tmp_path: Path, migrated_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_example()
    script["hands"] = script["hands"][:2]
    script["hands"][1]["between"] = [{"op": "dealer"}]
    status, _, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, script)), "--db", migrated_database_url
    )
    assert (status, err) == (2, "hand 2, between 1: a dealer hand-over needs the dealer's name\n")
    script["hands"][1]["between"] = [{"op": "dealer", "name": "Yan"}]
    path = write_script(tmp_path, script, "handed-over.json")
    status, _, err = run_cli(capsys, "replay", str(path), "--db", migrated_database_url, "--resume")
    assert (status, err) == (0, "")
    database = Database(migrated_database_url)
    [table] = list_open_tables(database)
    actors = [event.actor for event in audit_log(database, table.session_id)]
    database.dispose()
    hand_2_starts = actors.index("Yan")
    assert set(actors[:hand_2_starts]) == {"replay"} and set(actors[hand_2_starts:]) == {"Yan"}


@pytest.mark.durable
def test_resume_refuses_when_a_desk_records_between_matching_and_carrying_on(
    tmp_path: Path, database_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Carrying on from a newer state than the one matched would record the script's next step
    a second time (a rebuy credited twice)."""
    script = load_example()
    script["hands"] = script["hands"][:1]
    run_cli(capsys, "replay", str(write_script(tmp_path, script)), "--db", database_url)
    script["hands"].append({"between": [{"op": "rebuy", "player": "Cy", "amount": 50}], "actions": []})
    resume = TableService.resume

    def another_desk_records_first(database: Database, session_id: int, actor: str) -> TableService:
        resume(database, session_id, "Dan").do(Rebuy("Cy", 50))
        return resume(database, session_id, actor)

    monkeypatch.setattr(TableService, "resume", staticmethod(another_desk_records_first))
    status, _, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, script, "more.json")), "--db", database_url, "--resume"
    )
    assert (status, err) == (
        2,
        "the stored session changed while it was being resumed"
        " (a desk is recording at this table): run --resume again\n",
    )
    database = Database(database_url)
    rebuys = [event for event in audit_log(database) if event.kind == "rebought"]
    database.dispose()
    assert len(rebuys) == 1


def test_verify_of_a_mistyped_path_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "typo.db"
    status, out, err = run_cli(capsys, "verify", "--db", f"sqlite:///{missing}")
    assert (status, out, err) == (2, "", f"database: no database at {missing}\n")
    assert not missing.exists()
