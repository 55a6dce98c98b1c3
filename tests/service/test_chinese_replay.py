"""Chinese poker sessions through the session service (docs/rules.md §10): `ofc-desk replay` plays
them, a refused showdown names the hand and the action and stores nothing, `verify` re-scores them."""

from __future__ import annotations

import copy
import json
import typing
from pathlib import Path
from typing import Any

import pytest

from ofc_desk.service.table.games.chinese.game import ChineseGame
from ofc_desk.service.table.machine import TableMachine
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import ShownPayload
from tests.helpers.chinese_hands import ROWS, SEED_A, SEED_B
from tests.helpers.replay_helpers import run_cli, write_script

SIX_PAIRS = "2c 2d 3c 3d 7c 7s Tc Td Qc Qd Ac As 9c"
SCRIPT: dict[str, Any] = {
    "table": "Jade 1",
    "variant": "chinese",
    "rules": "chinese-typical",
    "seats": [{"name": "Ann", "buy_in": 50}, {"name": "Bob", "buy_in": 50}, {"name": "Cy", "buy_in": 50}],
    "button": "Cy",
    "hands": [
        {
            "actions": [
                {"player": "Cy", "declare": "six-pairs", "cards": SIX_PAIRS},
                {"player": "Ann", "cards": SEED_A, "rows": ROWS},
                {"player": "Bob", "surrender": True},
            ]
        },
        {
            "between": [{"op": "rebuy", "player": "Bob", "amount": 10}],
            "actions": [
                {"player": "Ann", "cards": SEED_A, "rows": ROWS},
                {"op": "undo"},
                {"player": "Ann", "surrender": True},
                {"player": "Bob", "cards": SEED_B, "rows": ROWS},
                {"player": "Cy", "cards": SEED_A, "rows": ROWS},
            ],
        },
    ],
}


def moves(hand: dict[str, Any]) -> list[tuple[str, str, int, int, str]]:
    return [(t["from"], t["to"], t["owed"], t["paid"], t["pass"]) for t in hand["result"]["transfers"]]


def test_a_chinese_session_plays_settles_and_verifies(
    tmp_path: Path, migrated_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, SCRIPT)), "--db", migrated_database_url
    )
    assert (status, err) == (0, "")
    played = json.loads(out)
    first, second = played["hands"]
    # The button moves every hand: Cy deals the first, Ann the second, Bob the next.
    assert (first["button"], second["button"], played["next"]["button"]) == ("Cy", "Ann", "Bob")
    # Settled from the dealer's left, the special pass first.
    assert moves(first) == [
        ("Ann", "Cy", 3, 3, "special"),
        ("Bob", "Ann", 1, 1, "rest"),
        ("Bob", "Cy", 1, 1, "rest"),
    ]
    # The undone set hand is gone; Ann surrenders; Cy holds the seed's A hand and pays Bob 3.
    assert moves(second) == [
        ("Cy", "Bob", 3, 3, "rest"),
        ("Ann", "Bob", 1, 1, "rest"),
        ("Ann", "Cy", 1, 1, "rest"),
    ]
    assert [p["special"] for p in first["result"]["players"]] == [None, None, "six-pairs"]
    assert played["stacks"] == {"Ann": 46, "Bob": 62, "Cy": 52}
    status, out, _ = run_cli(capsys, "verify", "--db", migrated_database_url)
    assert status == 0
    assert " 2 hands;" in out


def test_a_refused_showdown_names_the_hand_and_action_and_stores_nothing_of_it(
    tmp_path: Path, migrated_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    script = copy.deepcopy(SCRIPT)
    script["hands"][1]["actions"][3] = {"player": "Bob", "declare": "six-pairs", "cards": SEED_B}
    status, out, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, script)), "--db", migrated_database_url
    )
    assert (status, out) == (2, "")
    assert err == "hand 2, action 4: Bob's cards are not six pairs\n"
    status, out, _ = run_cli(capsys, "verify", "--db", migrated_database_url)
    assert status == 0
    assert " 1 hand;" in out
    # Carrying on from what was stored, with the showdown put right, gives the full session.
    status, out, err = run_cli(
        capsys, "replay", str(write_script(tmp_path, SCRIPT)), "--db", migrated_database_url, "--resume"
    )
    assert (status, err) == (0, "")
    assert json.loads(out)["stacks"] == {"Ann": 46, "Bob": 62, "Cy": 52}


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"player": "Ann", "cards": SEED_A, "rows": "f f f m m m m m b b b b x"}, "discards nothing"),
        (
            {"player": "Ann", "cards": SEED_A.replace("8h", "Qs"), "rows": ROWS},
            "Qs is already in Bob's front",
        ),
        ({"player": "Bob", "surrender": True}, "Bob's hand is already entered: undo it first"),
        ({"player": "Dee", "surrender": True}, "Dee is not dealt into this hand"),
    ],
)
def test_the_machine_refuses_a_showdown_in_the_dealers_words(action: dict[str, Any], message: str) -> None:
    machine = opened_machine()
    machine.apply(EventKind.HAND_STARTED, {})
    machine.apply(EventKind.SHOWN, {"player": "Bob", "cards": SEED_B, "rows": ROWS})
    with pytest.raises(ActionRefused, match=message):
        machine.check(EventKind.SHOWN, action)
    with pytest.raises(ActionRefused, match="hand 1 is not finished: waiting for Ann's and Cy's hands"):
        machine.check(EventKind.HAND_SETTLED, {})


def test_a_showdown_payload_has_exactly_its_typed_keys() -> None:
    machine = opened_machine()
    machine.apply(EventKind.HAND_STARTED, {})
    for action in (
        {"player": "Bob", "cards": SEED_B, "rows": ROWS},
        {"player": "Ann", "surrender": True},
        {"player": "Cy", "declare": "six-pairs", "cards": SIX_PAIRS},
    ):
        checked = machine.checked(EventKind.SHOWN, action)
        assert set(checked.payload) == set(typing.get_type_hints(ShownPayload))
        machine.apply_checked(checked)
    undone = machine.check(EventKind.UNDONE, {})
    assert undone == {
        "undone": {
            "player": "Cy",
            "cards": SIX_PAIRS.split(),
            "rows": None,
            "surrender": False,
            "declare": "six-pairs",
        }
    }


def test_a_table_keeps_its_game() -> None:
    machine = opened_machine()
    rules = {"rules": "standard", "variant": "regular"}
    with pytest.raises(ActionRefused, match="a table keeps its game"):
        machine.check(EventKind.RULES_CHANGED, {"rules": rules, "supervisor": "Sue"})
    changed = machine.checked(
        EventKind.RULES_CHANGED, {"rules": {"variant": "chinese", "rules": "malayan"}, "supervisor": "Sue"}
    )
    machine.apply_checked(changed)
    assert isinstance(machine.game, ChineseGame) and machine.game.preset.bank


def test_chinese_rules_refuse_ofc_options_and_seat_two_to_four() -> None:
    machine = TableMachine()
    seats = [{"name": name, "buy_in": 10} for name in ("A", "B", "C", "D", "E")]
    with pytest.raises(ActionRefused, match="Chinese poker seats 2 to 4 players, not 5"):
        machine.check(EventKind.TABLE_OPENED, {"table": "T", "seats": seats, "button": "A", "rules": CHINESE})
    with pytest.raises(ActionRefused, match="rules: scoring, progressive"):
        machine.check(
            EventKind.TABLE_OPENED,
            {"table": "T", "seats": seats[:2], "button": "A", "rules": {**CHINESE, "progressive": True}},
        )


CHINESE = {"variant": "chinese", "rules": "chinese-typical"}


def opened_machine() -> TableMachine:
    machine = TableMachine()
    seats = [{"name": name, "buy_in": 50} for name in ("Ann", "Bob", "Cy")]
    machine.apply(
        EventKind.TABLE_OPENED, {"table": "Jade 1", "seats": seats, "button": "Cy", "rules": CHINESE}
    )
    return machine


def test_the_sessions_report_and_json_export_replay_to_the_same_results(
    tmp_path: Path, migrated_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(
        capsys, "replay", str(write_script(tmp_path, SCRIPT)), "--db", migrated_database_url
    )
    assert status == 0
    played = json.loads(out)
    export, pdf = tmp_path / "export.json", tmp_path / "report.pdf"
    status, _, err = run_cli(
        capsys,
        "report",
        "--db",
        migrated_database_url,
        "--table",
        "Jade 1",
        "--json",
        str(export),
        "--out",
        str(pdf),
    )
    assert (status, err) == (0, "")
    assert pdf.stat().st_size > 0
    again_url = f"sqlite:///{tmp_path / 'again.db'}"
    status, out, err = run_cli(capsys, "replay", str(export), "--db", again_url)
    assert (status, err) == (0, "")
    again = json.loads(out)
    assert [hand["result"] for hand in again["hands"]] == [hand["result"] for hand in played["hands"]]
    assert again["stacks"] == played["stacks"]
