"""A room recorded by an earlier desk still verifies, reads and replays exactly as it did.

tests/fixtures/recorded_room/room.sql is a database of both games (make.py says what it holds),
kept as a text dump; golden.json is what the code read from it and wrote when its sessions were
replayed anew, the day it was recorded. Every section must read the same today: the verify line and
fingerprints, each session's replay output, hands, ledger, audit sentences, report record, CSV
exports, replay script and resumed snapshot, the shift report's figures, the floor's reading, and
the bytes each exported script stores when replayed into an empty database. A difference is a
change of behaviour or of the stored chain; regenerating the golden is only for a deliberate one
(docs/testing.md, "The recorded room").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.recorded_room.observe import Observation, observe

HERE = Path(__file__).parent / "fixtures" / "recorded_room"
DUMP = HERE / "room.sql"
GOLDEN = HERE / "golden.json"

pytestmark = pytest.mark.xdist_group("recorded_room")


@pytest.fixture(scope="module")
def golden() -> Observation:
    read: Observation = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return read


@pytest.fixture(scope="module")
def observed(tmp_path_factory: pytest.TempPathFactory) -> Observation:
    """Read once for the module: loading the dump, verifying, reading and replaying is the cost."""
    # Through JSON, as the golden file was written: tuples become lists, keys strings.
    read: Observation = json.loads(json.dumps(observe(DUMP, tmp_path_factory.mktemp("recorded_room"))))
    return read


def first_difference(expected: Any, actual: Any, path: str = "") -> str | None:
    """Where two JSON values first differ, said as a path: the golden file is long."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            if key not in actual or key not in expected:
                return f"{path}.{key}: {'missing' if key not in actual else 'not in the golden file'}"
            found = first_difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for index, (want, got) in enumerate(zip(expected, actual, strict=False)):
            found = first_difference(want, got, f"{path}[{index}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{path}: {len(actual)} items, the golden file has {len(expected)}"
        return None
    if expected != actual:
        return f"{path}: {actual!r}, the golden file has {expected!r}"
    return None


def test_the_dump_is_a_text_database_of_every_table() -> None:
    dump = DUMP.read_text(encoding="utf-8")
    for table in (
        "events",
        "hands",
        "transfers",
        "chip_ledger",
        "signatures",
        "account_events",
        "alembic_version",
    ):
        assert f'CREATE TABLE "{table}"' in dump or f"CREATE TABLE {table}" in dump


@pytest.mark.parametrize("section", ["verify", "sessions", "shift", "floor", "written"])
def test_the_room_reads_and_replays_as_recorded(
    section: str, golden: Observation, observed: Observation
) -> None:
    assert set(observed) == set(golden)
    assert first_difference(golden[section], observed[section], section) is None


def test_the_room_holds_what_the_golden_file_claims(golden: Observation) -> None:
    """The features the later packages of issue 27 rely on being covered are in the recording."""
    audit = [sentence for session in golden["sessions"].values() for sentence in session["audit"]]
    said = "\n".join(audit)
    for words in (
        "migration 0007 pinned",
        "revealed",
        "?? ",
        "declared six-pairs",
        "surrendered",
        "Taken back: Ann showed",
        "seated after Ann",
        "at seat 3",
        "sat out",
        "sat back in",
        "rebought",
        "cashed out",
        "voided hand 3: a card was exposed (request #1)",
        "voided hand 4: misdeal",
        "corrected Ann's chips",
        "declined request #2",
        "approved request #3",
        "changed the rules",
        "handed the table over to Eva",
        "closed the table",
    ):
        assert words in said, words
    fouls = [
        seat["foul"] for session in golden["sessions"].values() for hand in session["hands"]
        for seat in hand["result"]["players"] if hand["result"].get("variant") == "chinese"
    ]  # fmt: skip
    assert any(fouls)  # the misset
    assert any(hand["jackpot"] for session in golden["sessions"].values() for hand in session["hands"])
    assert "not settled yet" in golden["sessions"]["5"]["script"]  # the live hand


def test_a_report_says_each_adjustment_as_the_audit_log_does(golden: Observation) -> None:
    """One sentence per action (docs/decisions.md, P3 Reading): an undo, void, correction, rules
    change or request is said on a report as in the audit log, and a Chinese undo names the
    showdown its stored payload took back."""
    described = []
    for session in golden["sessions"].values():
        rows = [row["description"] for row in session["record"]["adjustments"]]
        assert set(rows) <= set(session["audit"])
        described += rows
    assert any(row.startswith("Taken back: Ann showed: front") for row in described)


def test_a_planted_difference_is_found_and_named(golden: Observation) -> None:
    changed = json.loads(json.dumps(golden["verify"]))
    last = len(changed["fingerprints"]) - 1
    changed["fingerprints"][last] += "0"
    found = first_difference(golden["verify"], changed, "verify")
    assert found is not None and found.startswith(f"verify.fingerprints[{last}]: ")
    assert first_difference({"a": [1, 2]}, {"a": [1]}) == ".a: 1 items, the golden file has 2"
