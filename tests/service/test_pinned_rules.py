"""The rules a table plays are pinned in its chain: editing a preset file changes new tables only.

Each test works on a temporary copy of the shipped presets, so the edit touches nothing shared."""

from __future__ import annotations

import json
import shutil
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select, text

from ofc_desk.core import presets
from ofc_desk.reports.loader import load_session_record
from ofc_desk.reports.rules_text import rules_settings, table_options
from ofc_desk.service import SeatSetup, TableService, TableSetup, resume_table
from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.store.sentences import event_sentence
from ofc_desk.service.table.commands import ChangeRules, CloseSession
from ofc_desk.service.terms.events import EventKind
from ofc_desk.service.terms.payloads import RulesPinned
from ofc_desk.service.terms.setup import TableRules, canonical_sha256
from ofc_desk.storage.database import Database
from ofc_desk.storage.models import Event
from tests.helpers.forgery_helpers import recording_as_of
from tests.helpers.table_helpers import (
    ANN_QQ,
    BOB_PLAIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    dealer,
    open_test_table,
    play_hand,
)

SEATS = [("Ann", 100), ("Bob", 100)]


@pytest.fixture
def preset_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    copy = tmp_path / "presets"
    shutil.copytree(presets.presets_dir(), copy)
    monkeypatch.setattr(presets, "presets_dir", lambda: copy)
    presets._preset_path.cache_clear()
    yield copy
    presets._preset_path.cache_clear()


def edit_standard(folder: Path) -> None:
    """A back full house worth 60 instead of 6: Ann's back in ANN_QQ is one."""
    path = folder / "standard.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["royalties"]["back"]["full_house"] = 60
    path.write_text(json.dumps(data), encoding="utf-8")


def open_named(database: Database, name: str) -> TableService:
    seats = tuple(SeatSetup(player, chips) for player, chips in SEATS)
    setup = TableSetup(name, seats, "Bob", TableRules.from_json({"rules": "standard"}))
    return TableService.open(database, setup, dealer(database))


def stacks(service: TableService) -> dict[str, int]:
    return {seat.name: seat.stack for seat in service.snapshot().seats}


def opening_rules(database: Database, session_id: int) -> dict[str, object]:
    with database.session() as session:
        payload = session.scalars(
            select(Event.payload).where(Event.session_id == session_id, Event.seq == 1)
        ).one()
    rules: dict[str, object] = json.loads(payload)["rules"]
    return rules


def test_the_opening_records_the_preset_file_and_its_sha256(database: Database, preset_files: Path) -> None:
    service = open_test_table(database, SEATS, "Bob", rules="standard")
    rules = opening_rules(database, service.snapshot().session_id)
    on_file = json.loads((preset_files / "standard.json").read_text(encoding="utf-8"))
    assert rules["rules"] == on_file
    assert rules["preset_name"] == "standard"
    assert rules["preset_sha256"] == canonical_sha256(on_file)


def test_an_open_table_resumes_with_the_rules_it_opened_under_after_the_file_is_edited(
    database: Database, preset_files: Path
) -> None:
    pinned = open_named(database, "Table 1")
    control = open_named(database, "Table 2")
    play_hand(control, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    edit_standard(preset_files)
    resumed = resume_table(database, pinned.snapshot().session_id, dealer(database))
    play_hand(resumed, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    assert stacks(resumed) == stacks(control)
    edited = open_named(database, "Table 3")
    play_hand(edited, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    assert stacks(edited) != stacks(control)  # a new table takes the file as it is now
    verify_database(database)


def test_changing_only_the_stakes_keeps_the_pinned_numbers(database: Database, preset_files: Path) -> None:
    service = open_test_table(database, SEATS, "Bob", rules="standard")
    before = service.rules
    edit_standard(preset_files)
    service.do(
        ChangeRules(
            TableRules.from_json({"rules": "standard", "unit": 2}), supervisor=SUPERVISOR, pin=SUPERVISOR_PIN
        )
    )
    assert service.rules.preset == before.preset and service.rules.unit == 2
    verify_database(database)


def test_the_report_prints_the_pinned_numbers_and_their_hash(database: Database, preset_files: Path) -> None:
    service = open_test_table(database, SEATS, "Bob", rules="standard")
    edit_standard(preset_files)
    rules = opening_rules(database, service.snapshot().session_id)
    lines = {setting.label: setting.value for setting in (*table_options(rules), *rules_settings(rules))}
    assert lines["Preset SHA-256"].startswith(str(rules["preset_sha256"]))
    assert "full house 6 ·" in lines["Back royalties"]  # as pinned, not the edited file's 60


def test_a_pinned_preset_whose_numbers_were_changed_is_refused() -> None:
    rules = TableRules.from_json({"rules": "standard"}).pinned().to_json()
    assert isinstance(rules["rules"], dict)
    tampered = {**rules, "rules": {**rules["rules"], "foul_penalty": 9}}
    with pytest.raises(ValueError, match="does not match its SHA-256"):
        TableRules.from_json(tampered)


@pytest.fixture
def legacy_database(
    database_url: str, preset_files: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Database, int, int]]:
    """A database of schema 0006 with two sessions that named their preset, as desks did before
    rules were pinned: one open, one closed after a hand. Upgraded to the newest schema."""
    database = Database(database_url, migrate=False)
    with recording_as_of(database, "0006"), monkeypatch.context() as before_pinning:
        before_pinning.setattr(TableRules, "pinned", lambda rules, current=None: rules)
        open_table = open_named(database, "Table 1")
        play_hand(open_table, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
        closed_table = open_named(database, "Table 2")
        play_hand(closed_table, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
        closed_table.do(CloseSession(supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    assert isinstance(opening_rules(database, open_table.snapshot().session_id)["rules"], str)
    database.migrate()
    yield database, open_table.snapshot().session_id, closed_table.snapshot().session_id
    database.dispose()


def test_the_migration_pins_what_old_sessions_named_and_says_so(
    legacy_database: tuple[Database, int, int],
) -> None:
    database, *sessions = legacy_database
    with database.session() as session:
        pins = session.scalars(
            select(Event).where(Event.kind == "rules_pinned").order_by(Event.session_id)
        ).all()
    assert [pin.session_id for pin in pins] == sessions
    payload = json.loads(pins[0].payload)
    assert pins[0].actor == "migration 0007" and "pinned by migration 0007" in payload["note"]
    assert payload["sha256"]["standard"] == canonical_sha256(payload["presets"]["standard"])
    assert set(payload) == set(typing.get_type_hints(RulesPinned))
    said = event_sentence(EventKind.RULES_PINNED, payload, pins[0].actor)
    digest = payload["sha256"]["standard"][:12]
    assert (
        said
        == f"migration 0007 pinned the preset numbers this table was played by: standard (SHA-256 {digest}…)"
    )
    verify_database(database)


def test_old_sessions_resume_verify_and_print_as_pinned_after_the_file_is_edited(
    legacy_database: tuple[Database, int, int], preset_files: Path
) -> None:
    database, open_id, closed_id = legacy_database
    pinned_control = open_named(database, "Table 3")  # pins the file before the edit
    edit_standard(preset_files)
    verify_database(database)
    resumed = resume_table(database, open_id, dealer(database))
    play_hand(resumed, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    for _ in range(2):
        play_hand(pinned_control, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    assert stacks(resumed) == stacks(pinned_control)
    edited = open_named(database, "Table 4")
    for _ in range(2):
        play_hand(edited, {"Ann": ANN_QQ, "Bob": BOB_PLAIN})
    assert stacks(edited) != stacks(resumed)
    verify_database(database)
    record = load_session_record(database, session_id=closed_id)
    lines = {setting.label: setting.value for setting in record.rules}
    assert "pinned by migration 0007 from standard.json" in lines["Preset SHA-256"]
    assert "full house 6 ·" in lines["Back royalties"]


def test_a_revision_set_back_before_the_pins_fails_verify(legacy_database: tuple[Database, int, int]) -> None:
    """Set back to 0006, the next start would pin every old session a second time, with the preset
    files as they read that day: the pins migration 0007 appended give it away (issue 25)."""
    database, *_ = legacy_database
    verify_database(database)
    with database.engine.begin() as connection:
        head = connection.scalar(text("SELECT version_num FROM alembic_version"))
        connection.execute(text("UPDATE alembic_version SET version_num = '0006'"))
    try:
        with pytest.raises(VerifyFault, match="reads 0006, but the history holds events that migration 0007"):
            verify_database(database)
    finally:  # the suite may use this database again: a start would run 0007 again over it
        with database.engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = :head"), {"head": head})
