"""`ofc-desk replay` and `ofc-desk score` at the house-variant presets (docs/rules.md §13): the
Taiwanese worked example played as a session pays what the core scores, a strict table refuses
a loose declaration naming the hand and the action, and a table refuses an option its preset
contradicts when it opens."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ofc_desk.service.table.games.chinese.game import check_chinese_rules
from ofc_desk.service.terms.errors import ActionRefused
from ofc_desk.service.terms.setup import TableRules
from tests.core.score_output import score
from tests.helpers.chinese_hands import ROWS
from tests.helpers.replay_helpers import run_cli, write_script

HANDS = {
    "Ann": ("3s 3h 3c", "4s 4h 4d 4c Kd", "Ts Js Qs Ks As"),
    "Bob": ("Qh Jd 7s", "8s 8h 7d 7h 2d", "9s 9h 9d Kc Kh"),
    "Cy": ("3d 5c 8d", "Th Td Jh Qd Ad", "Ah Ac Tc Jc Qc"),
    "Dee": ("5s 5h 5d", "6c 7c 8c 9c 2c", "6s 6h 6d 2s 2h"),
}
TRANSFERS = [
    ("Bob", "Ann", 87),
    ("Cy", "Ann", 87),
    ("Dee", "Ann", 20),
    ("Cy", "Bob", 6),
    ("Bob", "Dee", 3),
    ("Cy", "Dee", 10),
]


def script(rules: str, actions: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "table": "Jade 2",
        "variant": "chinese",
        "rules": rules,
        "seats": [{"name": name, "buy_in": 500} for name in HANDS],
        "button": "Dee",
        "hands": [{"actions": actions}],
    }


def test_the_taiwanese_example_replays_and_scores_alike(
    tmp_path: Path, migrated_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    actions = [{"player": name, "cards": " ".join(rows), "rows": ROWS} for name, rows in HANDS.items()]
    status, out, err = run_cli(
        capsys,
        "replay",
        str(write_script(tmp_path, script("taiwanese", actions))),
        "--db",
        migrated_database_url,
    )
    assert (status, err) == (0, "")
    hand = json.loads(out)["hands"][0]["result"]
    assert [(t["from"], t["to"], t["paid"]) for t in hand["transfers"]] == TRANSFERS
    deal = {
        "variant": "chinese",
        "rules": "taiwanese",
        "dealer": "Dee",
        "players": [
            {"name": name, "stack": 500, "front": f, "middle": m, "back": b}
            for name, (f, m, b) in HANDS.items()
        ],
    }
    assert [(t["from"], t["to"], t["paid"]) for t in score(deal)["transfers"]] == TRANSFERS


def test_a_strict_table_refuses_a_loose_declaration_by_hand_and_action(
    tmp_path: Path, migrated_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    actions: list[dict[str, Any]] = [
        {"player": "Ann", "surrender": True},
        {"player": "Bob", "declare": "six-pairs", "cards": "9s 9h 9d Ts Th Js Jh Qs Qh Ks Kh As Ah"},
    ]
    status, _, err = run_cli(
        capsys,
        "replay",
        str(write_script(tmp_path, script("shisanshui", actions))),
        "--db",
        migrated_database_url,
    )
    assert status != 0
    assert err == (
        "hand 1, action 2: Bob's cards are six pairs only with trips: this table plays six pairs strictly\n"
    )


def test_a_table_refuses_an_option_its_preset_contradicts_when_it_opens() -> None:
    rules = TableRules(
        preset="hawaiian-gardens", variant="chinese", house_options={"scoop_multipliers": [2, 3]}
    )
    with pytest.raises(ActionRefused, match=r"rules: preset\.scoop_multipliers is for the rows scheme only"):
        check_chinese_rules(rules)
    taken = TableRules(preset="vietnamese", variant="chinese", house_options={"wheel": "second"})
    assert check_chinese_rules(taken).house.wheel.value == "second"
