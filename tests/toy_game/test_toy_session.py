"""A toy third game plays a session end to end through the registries only (issue 37, point 6)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ofc_desk.core.cards import parse_cards
from ofc_desk.core.presets import Game
from ofc_desk.core.rows import Row
from ofc_desk.reports.exports import replay_script, write_hands_csv
from ofc_desk.reports.loader import load_session_record
from ofc_desk.reports.session_pdf import write_session_report
from ofc_desk.service import SeatSetup, TableRules, TableSetup, open_table
from ofc_desk.service.audit import verify_session
from ofc_desk.service.audit.verify import VerifyFault, verify_database
from ofc_desk.service.replays.replay import ReplayError, run_replay
from ofc_desk.service.table.commands import Settle, StartHand
from ofc_desk.storage.users import sign_in
from tests.helpers.beside import hands_sent, rescored_beside
from tests.helpers.report_sessions import DEALER, DEALER_PIN, new_database
from tests.toy_game.report import ToyReport, ToySeat
from tests.toy_game.rules import TOY, row_name
from tests.toy_game.table import ShowRow

ROWS = {"Ann": "As Ad Ac 2d 3d", "Bob": "Ks Kd 4c 2c 3c", "Cy": "5s 6d 8c 9c Th"}


@pytest.mark.usefixtures("toy")
def test_a_toy_session_is_dealt_settled_and_verified(tmp_path: Path) -> None:
    assert TOY in set(Game) and Game("toy") is TOY
    database = new_database(f"sqlite:///{tmp_path / 'toy.db'}")
    rules = TableRules.from_json({"rules": "toy", "variant": "toy", "unit": 5})
    setup = TableSetup("Toy", tuple(SeatSetup(name, 100) for name in ROWS), "Cy", rules)
    service = open_table(database, setup, sign_in(database, DEALER, DEALER_PIN))
    service.do(StartHand())
    for player, cards in ROWS.items():
        service.do(ShowRow(player, cards))
    shown_rows = [(view.row, " ".join(map(str, view.cards))) for view in service.snapshot().seat("Ann").rows]
    assert shown_rows == [(Row.BACK, ROWS["Ann"])]  # the seat's view has the toy's one row only
    service.do(Settle())
    stacks = {seat.name: seat.stack for seat in service.snapshot().seats}
    assert stacks == {"Ann": 110, "Bob": 95, "Cy": 95}
    summary = verify_database(database)
    with pytest.MonkeyPatch.context() as beside:  # re-scored by the toy's part in a second process
        rescored_beside(beside)
        assert verify_database(database) == summary
        beside.setattr(verify_session, "rescore", hands_sent)
        with pytest.raises(VerifyFault, match=r"^toy 1$"):
            verify_database(database)
    record = load_session_record(database)
    assert [hand.number for hand in record.hands] == [1]
    shown = {seat.name: seat.part for seat in record.hands[0].seats}  # the toy's own part of each line
    assert shown == {name: ToySeat(cards, row_name(parse_cards(cards))) for name, cards in ROWS.items()}
    assert (
        ToyReport().in_place_of_rows(record.hands[0].seats[0])
        == f"{ROWS['Ann']}: {row_name(parse_cards(ROWS['Ann']))}"
    )
    pdf, csv = io.BytesIO(), io.StringIO()
    write_session_report(record, pdf)
    write_hands_csv(record, csv)
    assert pdf.getvalue().startswith(b"%PDF") and "Ann" in csv.getvalue()
    script = replay_script(record)
    assert script["variant"] == "toy", script
    again = new_database(f"sqlite:///{tmp_path / 'again.db'}")
    replayed = run_replay(again, script, resume=False, pins={DEALER: DEALER_PIN}.get)
    verify_database(again)
    hand, first = load_session_record(again).hands[0], record.hands[0]
    assert (hand.seats, hand.transfers) == (first.seats, first.transfers), replayed
    again.dispose()
    database.dispose()


@pytest.mark.usefixtures("toy")
def test_a_toy_script_says_its_entries_with_the_toys_own_keys(tmp_path: Path) -> None:
    """The toy's entry is a player's cards, no rows: its script is read with the keys the toy's
    table says (`TableGame.action_keys`), where OFC and Chinese poker need rows too."""
    header = {"table": "Toy", "variant": "toy", "rules": "toy", "unit": 5, "button": "Cy"}
    seats = [{"name": name, "buy_in": 100} for name in ROWS]
    actions = [{"player": player, "cards": cards} for player, cards in ROWS.items()]
    script = {**header, "seats": seats, "dealer": DEALER, "hands": [{"actions": actions}]}
    database = new_database(f"sqlite:///{tmp_path / 'toy.db'}")
    replayed = run_replay(database, script, resume=False, pins={DEALER: DEALER_PIN}.get)
    assert replayed["stacks"] == {"Ann": 110, "Bob": 95, "Cy": 95}
    written = replay_script(load_session_record(database))["hands"]
    assert written == [{"actions": actions}]  # written as it was read: no rows
    database.dispose()
    with_rows = {**script, "hands": [{"actions": [{**actions[0], "rows": "back"}]}]}
    with pytest.raises(ReplayError, match=r"^hand 1, action 1\.rows: unknown key \(use cards, player\)$"):
        run_replay(new_database("sqlite://"), with_rows, resume=False)
    no_cards = {**script, "hands": [{"actions": [{"player": "Ann"}]}]}
    with pytest.raises(ReplayError, match=r"^hand 1, action 1: an action needs player, cards$"):
        run_replay(new_database("sqlite://"), no_cards, resume=False)
