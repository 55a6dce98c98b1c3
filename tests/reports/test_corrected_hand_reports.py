"""A corrected hand on the reports (docs/rules.md §12): the session report shows the hand as recorded
and as corrected with the differences and the payments; the table close's expected chips and the
shift count them; the transactions CSV lists each move. The card room's worked example, replayed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ofc_desk.reports.exports import write_transactions_csv
from ofc_desk.reports.loader import load_session_record
from ofc_desk.reports.record import AdjustmentKind, ChipKind, ChipTotal, SessionRecord
from ofc_desk.reports.session_pdf import write_session_report
from ofc_desk.reports.shift import ShiftWindow, table_shift
from ofc_desk.reports.table_close_pdf import table_close_figures
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.storage.database import Database
from tests.helpers.migrated_files import MigratedTemplate
from tests.helpers.pdf_text import page_texts
from tests.helpers.replay_helpers import DATA, read_object

# The dispute is replayed once a worker (module scope): one worker runs them all.
pytestmark = pytest.mark.xdist_group("dispute record")


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory, migrated_template: MigratedTemplate) -> SessionRecord:
    """The dispute replayed once a module, into a copy of the process's migrated file."""
    path = tmp_path_factory.mktemp("dispute") / "dispute.db"
    migrated_template.copy(path)
    url = f"sqlite:///{path}"
    database = Database(url)
    run_replay(database, read_object(DATA / "dispute-replay.json"), resume=False)
    database.dispose()
    return load_session_record(url)


def test_the_record_holds_the_hand_as_recorded_and_as_corrected(record: SessionRecord) -> None:
    (correction,) = record.hand_corrections
    assert (correction.hand_number, correction.supervisor) == (2, "Sue")
    assert correction.recorded == record.hands[1].seats
    ann_then = next(seat for seat in correction.recorded if seat.name == "Ann")
    ann_now = next(seat for seat in correction.corrected if seat.name == "Ann")
    assert ann_then.rows != ann_now.rows
    assert dict(correction.difference) == {"Ann": -12, "Bob": 5, "Cy": 7}
    assert dict(correction.paid) == {"Ann": -11, "Bob": 5, "Cy": 6}
    assert dict(correction.not_covered) == {"Ann": -1, "Cy": 1}
    assert correction.description.startswith("Sue corrected hand 2: Ann -12, Bob +5, Cy +7; not covered: ")
    (adjustment,) = [a for a in record.adjustments if a.kind is AdjustmentKind.HAND_CORRECTION]
    assert adjustment.hand_number == 2 and adjustment.description == correction.description


def test_the_moves_are_chips_won_at_play_counted_on_the_table_close(record: SessionRecord) -> None:
    moves = [(t.player, t.amount) for t in record.chip_transactions if t.kind is ChipKind.HAND_CORRECTION]
    assert moves == [("Ann", -11), ("Bob", 5), ("Cy", 6)]
    ann = next(player for player in record.players if player.name == "Ann")
    assert ann.net == ann.final_stack - 42 - 50  # her buy-in and rebuy; the -11 was lost at play
    figures = table_close_figures(record, None)
    assert figures.chip_totals[ChipTotal.HAND_CORRECTIONS] == 0
    assert figures.expected == figures.stacks_total == sum(p.final_stack for p in record.players)
    assert table_shift(record, ShiftWindow()).corrections == 1


def test_the_transactions_csv_lists_each_move(record: SessionRecord) -> None:
    out = io.StringIO()
    write_transactions_csv(record, out)
    lines = [line for line in out.getvalue().splitlines() if ",hand correction," in line]
    assert len(lines) == 3
    assert all("hand 2 corrected" in line for line in lines)


def test_the_session_report_prints_the_correction(record: SessionRecord, tmp_path: Path) -> None:
    path = tmp_path / "session.pdf"
    write_session_report(record, str(path))
    printed = " ".join(" ".join(page_texts(path)).split())
    for words in ("Corrected hands", "As recorded", "As corrected", "Not covered", "Paid now", "(FOUL): -18"):
        assert words in printed
    assert "Hand 2, corrected at event 102" in printed


def test_a_corrected_chinese_hand_counts_only_the_row_bonuses_paid(tmp_path: Path) -> None:
    """Issue 36's bonus rows beside §12: Ann's middle and back keyed swapped (a misset), corrected
    to her rows as set. Under Hawaiian Gardens' `extra` her bonus rows lose every row to Bob's, so
    the hand as corrected shows her no bonus, as a hand recorded so does; Bob's rows won count."""
    from tests.core.test_bonus_paid import ANN, BOB
    from tests.helpers.chinese_hands import ROWS

    def shown(rows: tuple[str, str, str]) -> str:
        return " ".join(rows)

    front, middle, back = ANN
    keyed = [{"player": "Ann", "cards": shown((front, back, middle)), "rows": ROWS}]
    right = [{"player": "Ann", "cards": shown(ANN), "rows": ROWS}]
    bob = [{"player": "Bob", "cards": shown(BOB), "rows": ROWS}]
    script = {
        "table": "Jade 2",
        "variant": "chinese",
        "rules": "hawaiian-gardens-jackpot",
        "seats": [{"name": "Ann", "buy_in": 100}, {"name": "Bob", "buy_in": 100}],
        "button": "Bob",
        "users": [
            {"name": "Dan", "role": "dealer", "pin": "1357"},
            {"name": "Sue", "role": "supervisor", "pin": "24682468"},
        ],
        "hands": [
            {"actions": [*keyed, *bob]},
            {
                "between": [
                    {
                        "op": "correct_hand",
                        "hand": 1,
                        "entries": [*right, *bob],
                        "supervisor": "Sue",
                        "pin": "24682468",
                    }
                ]
            },
        ],
    }
    url = f"sqlite:///{tmp_path / 'bonus.db'}"
    database = Database(url)
    run_replay(database, script, resume=False)
    database.dispose()
    (correction,) = load_session_record(url).hand_corrections
    by_name = {seat.name: seat for seat in correction.corrected}
    ann, bob_seat = by_name["Ann"], by_name["Bob"]
    assert not ann.foul and ann.row_points == 0
    assert [row.points for row in (ann.front, ann.middle, ann.back)] == [0, 0, 0]
    assert bob_seat.row_points == 7
