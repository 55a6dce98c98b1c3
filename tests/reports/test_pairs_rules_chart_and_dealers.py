"""Issue 26 on paper, read back from the PDF: a Chinese hand's points by pair add up to its Points
column with the special pass in them, the rules page says its tables in words and in the game's
order, a rebuy is a step of the stack chart rather than a win, and the report says which dealer
dealt which hands, with a signature line each."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from ofc_desk.reports.loader import load_session_record
from ofc_desk.reports.record import SessionRecord
from ofc_desk.reports.session_pdf import write_session_report
from ofc_desk.reports.stack_chart import stack_lines
from ofc_desk.reports.table_close_pdf import write_table_close_report
from ofc_desk.service.replays.replay import run_replay
from ofc_desk.service.table.commands import HandOver, Settle, StartHand
from ofc_desk.service.table.games.ofc.commands import Place
from ofc_desk.storage.account_changes import create_user
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, sign_in
from tests.helpers.chinese_hands import ROWS
from tests.helpers.pdf_text import squeezed_text
from tests.helpers.report_sessions import (
    DEALER,
    SUPERVISOR,
    SUPERVISOR_PIN,
    example_script,
    new_database,
    play_hands,
    play_script,
)

ANN = "6s 6h 6d 4s 4h 4d 9s 9h Ks Kh Kd 8s 8h"
BOB = "Ah Ad 2s Qs Js Ts 5s 3s Qh Jh Th 7h 5h"
CY_SIX_PAIRS = "2c 2d 3c 3d 7c 7s Tc Td Qc Qd Ac As 9c"
DEE = "2h 3h 4c Jd 9d 8d 7d 5d Kc Jc 8c 6c 5c"
HAWAIIAN_GARDENS: dict[str, Any] = {
    "table": "Jade 4",
    "dealer": "Dana",
    "variant": "chinese",
    "rules": "hawaiian-gardens",
    "settlement": "chip-exposure",
    "settle_from": "dealer",
    "seats": [{"name": name, "buy_in": 60} for name in ("Ann", "Bob", "Cy", "Dee")],
    "button": "Dee",
    "hands": [
        {
            "actions": [
                {"player": "Ann", "cards": ANN, "rows": ROWS},
                {"player": "Bob", "cards": BOB, "rows": ROWS},
                {"player": "Cy", "declare": "six-pairs", "cards": CY_SIX_PAIRS},
                {"player": "Dee", "cards": DEE, "rows": ROWS},
            ]
        },
        {
            "between": [{"op": "rebuy", "player": "Cy", "amount": 70}],
            "actions": [
                {"player": "Ann", "surrender": True},
                {"player": "Bob", "cards": BOB, "rows": ROWS},
                {"player": "Cy", "cards": ANN, "rows": ROWS},
                {"player": "Dee", "cards": DEE, "rows": ROWS},
            ],
        },
    ],
}


def hawaiian_gardens_record(folder: Path) -> SessionRecord:
    url = f"sqlite:///{folder / 'jade.db'}"
    database = Database(url)
    run_replay(database, HAWAIIAN_GARDENS, resume=False)
    database.dispose()
    return load_session_record(url)


def printed(record: SessionRecord, out: Path | None = None) -> str:
    pdf = io.BytesIO()
    write_session_report(record, pdf)
    if out is not None:
        out.write_bytes(pdf.getvalue())
    return squeezed_text(pdf.getvalue())


def test_a_chinese_hands_points_by_pair_add_up_to_its_points_column(
    tmp_path: Path, reports_out: Path
) -> None:
    record = hawaiian_gardens_record(tmp_path)
    page = printed(record, reports_out / "hawaiian-gardens-4.pdf")
    for hand in record.hands:
        pairs = re.search(rf"Hand {hand.number} .*?Points by pair: (.*?) # From", page)
        assert pairs is not None
        totals = dict.fromkeys((seat.name for seat in hand.seats), 0)
        for first, second, points in re.findall(r"(\w+) v (\w+) ([+-]?\d+)", pairs.group(1)):
            totals[first] += int(points)
            totals[second] -= int(points)
        assert totals == {seat.name: seat.points for seat in hand.seats}, pairs.group(1)
    assert "Dee v Cy -4 special" in page  # Cy's six pairs, paid in the special pass
    assert {seat.name: seat.points for seat in record.hands[0].seats}["Cy"] == 12


def test_the_rules_page_says_its_tables_in_words_in_the_games_order(
    tmp_path: Path, example_record: SessionRecord
) -> None:
    page = printed(example_record)
    assert (
        "Front pairs sixes 1 · sevens 2 · eights 3 · nines 4 · tens 5 · jacks 6 · queens 7 · kings 8 · aces 9"
        in page
    )
    assert "Front trips twos 10 · threes 11 · fours 12" in page and "kings 21 · aces 22" in page
    back = "trips 0 · straight 2 · flush 4 · full house 6 · quads 10 · straight flush 15 · royal flush 25"
    assert f"Back royalties {back}" in page
    assert "2-7 middle royalties 7-5-4-3-2 8 · seven-low 4 · eight-low 2 · nine-low 1" in page
    assert "Progressive cards queens 14 · kings 15 · aces 16 · trips 17" in page
    assert "Fantasyland stay front trips · middle full house · back quads" in page
    assert "Rake off" in page and "mode off" not in page
    chinese = {setting.label: setting.value for setting in hawaiian_gardens_record(tmp_path).rules}
    assert chinese["Rake"] == "off" and "rake" not in chinese
    assert chinese["Proposed table stakes"] == "chip-exposure, settled from the dealer"
    assert "proposed_settlement" not in chinese


def test_a_rebuy_is_a_step_at_the_hand_it_followed_not_a_win_in_the_next(tmp_path: Path) -> None:
    record = hawaiian_gardens_record(tmp_path)
    cy = next(line for line in stack_lines(record) if line.label.startswith("Cy"))
    assert cy.stretches == (((0, 60), (1, 72), (1, 142), (2, 173)),)
    assert cy.label == "Cy (173)"


def test_the_report_says_which_dealer_dealt_which_hands_with_a_signature_line_each(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shift.db'}"
    database = new_database(url)
    supervisor = sign_in(database, SUPERVISOR, SUPERVISOR_PIN, Role.SUPERVISOR)
    create_user(database, "Rita", Role.DEALER, "5678", approver=supervisor)
    script = example_script()
    script["hands"] = script["hands"][:2]
    service = play_script(database, script)
    service.do(StartHand())
    service.do(HandOver(sign_in(database, "Rita", "5678")))  # within hand 3
    later = example_script()["hands"][2:4]
    for action in later[0]["actions"]:
        service.do(Place(action["player"], action["cards"], action["rows"]))
    service.do(Settle())
    play_hands(service, later[1:])
    database.dispose()
    record = load_session_record(url)
    assert [hand.dealers for hand in record.hands] == [(DEALER,), (DEALER,), (DEALER, "Rita"), ("Rita",)]
    page = printed(record)
    assert f"Dealer(s) {DEALER} (hands 1–3), Rita (hands 3–4)" in page
    assert f"Hand 3 · button Bob · dealt by {DEALER}, then Rita" in page
    assert re.search(rf"Dealer, hands 1–3 {DEALER} Dealer, hands 3–4 Rita Floor supervisor", page), page[
        -600:
    ]
    close = io.BytesIO()
    write_table_close_report(record, close)
    closing = squeezed_text(close.getvalue())
    assert f"Dealer, hands 1–3 {DEALER} Dealer, hands 3–4 Rita" in closing
