"""Reports read from a real database filled through the session service, checked against it."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from ofc_desk.reports.games.ofc import fantasyland_played
from ofc_desk.reports.loader import ReportSourceError, load_session_record
from ofc_desk.reports.record import AdjustmentKind, ChipKind, ChipTotal, SessionRecord
from ofc_desk.reports.session_pdf import write_session_report
from ofc_desk.service import audit_log, chip_ledger, hand_history
from ofc_desk.service.table.commands import CashOut, ChangeRules, Join
from ofc_desk.storage.database import Database
from tests.helpers.pdf_text import page_texts, squeezed, squeezed_text
from tests.helpers.report_sessions import expected_example, new_database, play_script


def pdf_text(record: SessionRecord) -> str:
    buffer = io.BytesIO()
    write_session_report(record, buffer)
    return squeezed_text(buffer.getvalue())


def test_example_session_matches_the_worked_example(example_record: SessionRecord) -> None:
    record = example_record
    expected = expected_example()
    assert record.table == "T778" and record.variant == "pineapple"
    assert [h.number for h in record.hands] == [h["number"] for h in expected["hands"]]
    for hand, want in zip(record.hands, expected["hands"], strict=True):
        assert hand.button == want["button"]
        assert dict(fantasyland_played(hand)) == want["fantasyland"]
        assert [(t.payer, t.payee, t.owed, t.paid) for t in hand.transfers] == [
            (t["from"], t["to"], t["owed"], t["paid"]) for t in want["transfers"]
        ]
        assert dict(hand.stacks_after) == want["stacks"]
        assert {s.name: s.stack_after for s in hand.seats} == want["stacks"]
    assert {p.name: p.final_stack for p in record.players} == expected["hands"][-1]["stacks"]


def test_players_summary_adds_up_from_the_ledger(example_db: str, example_record: SessionRecord) -> None:
    record = example_record
    database = Database(example_db)
    ledger = chip_ledger(database, record.session_id)
    database.dispose()
    for player in record.players:
        assert player.final_stack == sum(e.amount for e in ledger if e.player == player.name)
        brought = player.chip_total(ChipTotal.BUY_INS) + player.chip_total(ChipTotal.REBUYS)
        assert player.net == player.final_stack - brought
    cy = next(p for p in record.players if p.name == "Cy")
    assert cy.chips_by_kind == {ChipKind.OPENING: 48, ChipKind.REBUY: 50 + 55}
    assert sum(p.net for p in record.players) == -(record.rake_total + record.jackpot_total)
    assert sum(p.hands_played for p in record.players) == sum(len(h.seats) for h in record.hands)


def test_report_text_agrees_with_the_database(example_db: str, example_record: SessionRecord) -> None:
    record = example_record
    database = Database(example_db)
    events = audit_log(database, record.session_id)
    hands = hand_history(database, record.session_id)
    database.dispose()
    text = pdf_text(record)
    assert events[-1].hash == record.final_hash and record.final_hash in text.replace(" ", "")
    for player in record.players:
        assert re.search(
            rf"{player.name} [\d,]+ [\d,]+ [\d,]+ {player.final_stack:,} " + re.escape(f"{player.net:+,}"),
            text,
        ), player.name
    for stored in hands:
        # Each transfer's row in settlement order, its why after it.
        ordered = r"\b.*?".join(
            re.escape(f"{i} {t.payer} {t.payee} {t.owed} {t.paid} {t.payee} won")
            for i, t in enumerate(stored.result.transfers, start=1)
        )
        assert re.search(ordered, text), stored.number


def test_undo_void_correction_and_close_are_reported_with_approvers(eventful_record: SessionRecord) -> None:
    record = eventful_record
    assert record.ended_at is not None
    assert record.dealers == ("Dana",) and record.supervisors == ("Sam",)
    kinds = [a.kind for a in record.adjustments]
    assert kinds == [AdjustmentKind.VOID, AdjustmentKind.CORRECTION, AdjustmentKind.UNDO]
    void, correction, undo = record.adjustments
    assert void.hand_number == 4 and void.approver == "Sam" and "misdeal" in void.description
    assert correction.approver == "Sam" and "Bob's chips by -5" in correction.description
    assert undo.hand_number == 5 and undo.description.startswith("Taken back: Ann: 2c back")
    assert [h.number for h in record.hands if h.voided] == [4]
    assert record.chip_total(ChipTotal.CORRECTIONS) == -5
    text = pdf_text(record)
    assert "VOIDED" in text
    assert re.search(r"void 4 Sam voided hand 4: misdeal: wrong deck Sam Sam", text)


def test_default_is_the_last_session_and_table_narrows_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/two.db"
    database = new_database(url)
    script = {
        "table": "Table 1",
        "variant": "regular",
        "button": "Bob",
        "seats": [{"name": "Ann", "buy_in": 50}, {"name": "Bob", "buy_in": 50}],
        "hands": [],
    }
    play_script(database, script)
    play_script(database, {**script, "table": "Table 2"})
    database.dispose()
    assert load_session_record(url).table == "Table 2"
    assert load_session_record(url, table="Table 1").table == "Table 1"
    assert load_session_record(url, session_id=1).session_id == 1
    record = load_session_record(url, table="Table 1")
    assert record.hands == () and record.players[0].final_stack == 50
    with pytest.raises(ReportSourceError, match="no session of that table in this database"):
        load_session_record(url, table="Table 9")
    with pytest.raises(ReportSourceError, match="no session with that number in this database"):
        load_session_record(url, session_id=7)
    with pytest.raises(ReportSourceError, match="no session with that number at that table"):
        load_session_record(url, table="Table 1", session_id=2)


def test_missing_or_empty_database_is_a_clear_error(tmp_path: object) -> None:
    with pytest.raises(ReportSourceError, match="no database at"):
        load_session_record(f"sqlite:///{tmp_path}/nothing-here.db")
    url = f"sqlite:///{tmp_path}/empty.db"
    Database(url).dispose()
    with pytest.raises(ReportSourceError, match="holds no table session yet"):
        load_session_record(url)
    with pytest.raises(ReportSourceError, match="not a database URL"):
        load_session_record("::nonsense::")


def test_rules_change_is_listed_with_its_approver(tmp_path: object) -> None:
    from ofc_desk.service import TableRules
    from tests.helpers.report_sessions import SUPERVISOR, SUPERVISOR_PIN, example_script

    database = new_database(f"sqlite:///{tmp_path}/rules.db")
    script = example_script()
    service = play_script(database, {**script, "hands": script["hands"][:1]})
    new_rules = TableRules.from_json({**script, "unit": 2})
    service.do(ChangeRules(new_rules, supervisor=SUPERVISOR, pin=SUPERVISOR_PIN))
    record = load_session_record(database)
    database.dispose()
    change = record.adjustments[-1]
    assert change.kind is AdjustmentKind.RULES_CHANGE and change.approver == SUPERVISOR
    assert change.description == "Sam changed the rules: pineapple, standard, unit 2, win-cap"
    assert ("Unit", "2") in [(s.label, s.value) for s in change.settings]
    text = pdf_text(record)
    assert "Settle from left-of-dealer" in text
    assert "when the table opened (changed later" in text
    assert "rules change" in text


@pytest.mark.postgres
def test_the_same_report_from_postgresql(example_record: SessionRecord) -> None:
    """The loader reads PostgreSQL as it reads SQLite: same hands, players and transfers."""
    from tests.helpers.ofc_test_databases import fresh_schema, postgres_server
    from tests.helpers.report_sessions import example_script

    with postgres_server() as server_url:
        if server_url is None:
            pytest.skip("no PostgreSQL server answers and no PostgreSQL binaries are installed")
        with fresh_schema(server_url, durable=False) as url:
            database = new_database(url)
            play_script(database, example_script())
            from_postgres = load_session_record(database)
            database.dispose()
    from_sqlite = example_record
    assert [(h.number, h.seats, h.transfers, h.stacks_after) for h in from_postgres.hands] == [
        (h.number, h.seats, h.transfers, h.stacks_after) for h in from_sqlite.hands
    ]
    assert from_postgres.players == from_sqlite.players
    assert "T778" in pdf_text(from_postgres)


def test_rake_and_jackpot_from_house_options_add_up(tmp_path: object) -> None:
    from ofc_desk.reports.table_close_pdf import table_close_figures
    from tests.helpers.report_sessions import example_script

    rake = {"mode": "per-player", "amount": 1, "percent": 0, "cap": 3, "jackpot_percent": 34}
    script = example_script()
    script = {**script, "house_options": {"rake": rake}, "hands": script["hands"][:3]}
    database = new_database(f"sqlite:///{tmp_path}/rake.db")
    play_script(database, script)
    record = load_session_record(database)
    database.dispose()
    # 3 players × 1 chip a hand, 3 hands: 9 chips, of which 1 a hand (34 % of 3) feeds the jackpot.
    assert (record.rake_total, record.jackpot_total) == (6, 3)
    assert sum(p.net for p in record.players) == -9
    assert all(sum(s.rake for s in h.seats) == h.rake + h.jackpot_drop == 3 for h in record.hands)
    figures = table_close_figures(record, counted=None)
    assert figures.expected == figures.stacks_total == 42 + 62 + 48 - 9
    settings = {s.label: s.value for s in record.rules}
    assert settings["Rake"] == "1 chip from each player dealt in, at most 3 a hand; 34 % of it to the jackpot"
    assert "House options" in settings
    text = pdf_text(record)
    assert "Rake 2 · jackpot drop 1" in text


def test_cash_out_and_a_later_join_are_accounted(tmp_path: object) -> None:
    from ofc_desk.reports.record import ChipKind
    from ofc_desk.reports.stack_chart import stack_lines
    from ofc_desk.reports.table_close_pdf import table_close_figures
    from tests.helpers.report_sessions import example_script

    script = example_script()
    database = new_database(f"sqlite:///{tmp_path}/moves.db")
    service = play_script(database, {**script, "hands": script["hands"][:2]})
    service.do(CashOut("Bob"))
    service.do(Join("Dee", 100, "Cy"))
    record = load_session_record(database)
    database.dispose()
    bob = next(p for p in record.players if p.name == "Bob")
    dee = next(p for p in record.players if p.name == "Dee")
    assert (bob.final_stack, bob.chip_total(ChipTotal.CASH_OUTS), bob.net) == (0, 76, 76 - 62)
    assert dee.chips_by_kind == {ChipKind.BUY_IN: 100}
    assert (dee.final_stack, dee.hands_played, dee.net) == (100, 0, 0)
    assert [t.kind for t in record.chip_transactions][-2:] == [ChipKind.CASH_OUT, ChipKind.BUY_IN]
    assert record.chip_transactions[-1].after_hand == 2
    # Issue 36, point 9: the late joiner's line starts from the buy-in, at the hand joined after.
    assert dict(record.stack_series())["Dee"] == ((2, 100),)
    dee_line = [line.stretches for line in stack_lines(record) if line.label.startswith("Dee")]
    assert dee_line == [(((2, 100),),)]
    figures = table_close_figures(record, counted=42 + 34 + 100)
    assert figures.expected == figures.stacks_total == 152 - 76 + 100
    assert figures.variance == 0
    text = pdf_text(record)
    assert re.search(r"Bob 62 0 76 0 \+14 2", text) and re.search(r"Dee 100 0 0 100 0 0", text)


def test_buy_ins_are_one_figure_in_the_summary_the_players_table_and_the_table_close(
    tmp_path: object,
) -> None:
    """Buy-ins at the opening and on joining later, under one word, in all three places."""
    from ofc_desk.reports.table_close_pdf import write_table_close_report
    from tests.helpers.report_sessions import example_script

    script = example_script()
    database = new_database(f"sqlite:///{tmp_path}/buy-ins.db")
    service = play_script(database, {**script, "hands": script["hands"][:1]})
    service.do(CashOut("Bob"))  # the pineapple table seats three: Dee takes Bob's place
    service.do(Join("Dee", 100, "Cy"))
    record = load_session_record(database)
    database.dispose()
    opening = sum(seat["buy_in"] for seat in script["seats"])
    total = opening + 100
    text = pdf_text(record)
    assert f"Buy-ins (opening and later) {total}" in text
    assert re.search(rf"Total {total} 0 ", text), "the players' table totals the same buy-ins"
    buffer = io.BytesIO()
    write_table_close_report(record, buffer, None)
    close = squeezed(page_texts(buffer.getvalue())[0])
    assert f"Buy-ins (opening and later) {total}" in close
    assert "joined later" not in close and "Opening chips" not in text


def test_an_undo_is_listed_with_what_was_entered_again_in_its_place(eventful_record: SessionRecord) -> None:
    record = eventful_record
    undo = next(a for a in record.adjustments if a.kind is AdjustmentKind.UNDO)
    from tests.helpers.report_sessions import example_script

    action = example_script()["hands"][4]["actions"][0]  # what the dealer entered after the undo
    placed = ", ".join(
        f"{c} {r}" for c, r in zip(action["cards"].split(), action["rows"].split(), strict=True)
    )
    first = f"{action['player']}: {placed}"
    assert undo.description == "Taken back: Ann: 2c back, 3c back, 4c back, 5c back, 6c back"
    assert undo.reentered == first
    assert f"6c back; entered again as {first}" in pdf_text(record)
